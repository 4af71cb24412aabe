package flysim

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/logs"
)

// TestContractSeedReproducible: the same seed lives the same day whatever the
// wall clock says when the platform starts (hour of day, second of the
// minute, date). Two frozen platforms started at different wall times answer
// fly-go's machine list, a whole day of logs and the edge's counters
// identically once every timestamp is written as its age at Start; a third
// with another seed answers differently, so the comparison can fail.
func TestContractSeedReproducible(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("three days of history")
	}
	walls := []time.Time{
		time.Date(2026, 11, 30, 3, 17, 23, 500_000_000, time.UTC),
		time.Date(2027, 2, 11, 15, 2, 41, 900_000_000, time.UTC),
	}
	a := seedFingerprint(t, 7, walls[0])
	b := seedFingerprint(t, 7, walls[1])
	t.Logf("fingerprint: %d bytes, %d lines", len(a), strings.Count(a, "\n"))
	if a != b {
		t.Errorf("seed 7 started at %s and at %s differ:\n%s", walls[0], walls[1], firstDiff(a, b))
	}
	if c := seedFingerprint(t, 8, walls[0]); c == a {
		t.Error("seeds 7 and 8 lived the same day: the fingerprint sees nothing")
	}
}

// seedFingerprint starts a frozen platform whose wall clock reads wall and
// describes what the API shows, timestamps as ages at the platform's now.
func seedFingerprint(t *testing.T, seed uint64, wall time.Time) string {
	t.Helper()
	off := time.Until(wall) // a real, moving wall clock (rate limits refill) shifted to wall
	s := New(Options{Seed: seed, Frozen: true, Wall: func() time.Time { return time.Now().Add(off) }})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := clientFor(t, s, s.Token())
	ctx := ctxT(t)
	now := s.Clock().Now()
	age := func(at time.Time) string { return now.Sub(at).String() }
	var b strings.Builder
	for _, app := range s.Apps() {
		ms, err := c.List(ctx, app, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			fmt.Fprintf(&b, "%s %s %s %s %s\n", app, m.ID, m.Name, m.State, m.Region)
			for _, e := range m.Events {
				fmt.Fprintf(&b, "  event %s/%s/%s %s\n", e.Type, e.Status, e.Source, age(e.Time()))
			}
		}
		// A whole day of logs, page by page from the history's start.
		token := strconv.FormatInt(now.Add(-24*time.Hour).UnixNano(), 10)
		lines := 0
		for page := 0; page < 500; page++ {
			var doc logs.Doc
			_, body := rawDo(t, s, "GET", "/api/v1/apps/"+app+"/logs?next_token="+token, "", nil)
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatalf("logs page: %v: %.200s", err, body)
			}
			for _, d := range doc.Data {
				at, err := time.Parse(time.RFC3339Nano, d.Attributes.Timestamp)
				if err != nil {
					t.Fatal(err)
				}
				// A ULID's first 10 characters are its time; the rest is drawn.
				fmt.Fprintf(&b, "  log %s %s %s %s %s %s\n", age(at), d.ID[10:], d.Attributes.Instance,
					d.Attributes.Meta.Event.Provider, d.Attributes.Level, d.Attributes.Message)
				lines++
			}
			if len(doc.Data) == 0 || doc.Meta.NextToken == "" || doc.Meta.NextToken == token {
				break
			}
			token = doc.Meta.NextToken
		}
		if lines == 0 {
			t.Fatalf("%s: no logs in a day", app)
		}
		for _, window := range []string{"1h", "24h"} {
			q := url.QueryEscape(`sum by (status) (increase(fly_edge_http_responses_count{app="` + app + `"}[` + window + `]))`)
			_, body := rawDo(t, s, "GET", "/prometheus/"+s.Org()+"/api/v1/query?query="+q, "", nil)
			var doc struct {
				Data struct {
					Result []struct {
						Metric map[string]string `json:"metric"`
						Value  []any             `json:"value"`
					} `json:"result"`
				} `json:"data"`
			}
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatalf("prometheus: %v: %.200s", err, body)
			}
			for _, r := range doc.Data.Result {
				fmt.Fprintf(&b, "  edge %s status=%s %v\n", window, r.Metric["status"], r.Value[1])
			}
		}
	}
	return b.String()
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < min(len(la), len(lb)); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}
