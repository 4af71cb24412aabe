package flysim

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/logs"
)

// useFlyBaseURL points fly-go's package-global base URL (GetAppLogs ignores
// ClientOptions.BaseURL) at url for one test. fly-go has no getter; its
// default is "".
func useFlyBaseURL(t *testing.T, url string) {
	fly.SetBaseURL(url)
	t.Cleanup(func() { fly.SetBaseURL("") })
}

// A real fly.Client pages through a simulated day of one app's logs.
func TestGetAppLogsPagesThroughTheDay(t *testing.T) {
	t.Parallel()
	began := time.Now()
	s := New(Options{Seed: 11})
	t.Logf("history generated in %s", time.Since(began))
	ctx := context.Background()
	app := DemoScaleToZero

	// Add lines the day may lack: a steady day of them with groups sharing
	// a nanosecond, a proxy error, and lines from another region.
	s.sched.Lock()
	now := s.now()
	m := s.store.App(app).Machines()[0]
	seedDayOfLogs(s, app, now)
	s.logs.Add(logs.Line{ID: "proxy-err", Time: now, App: app, Machine: m.ID(), Region: "ams", Provider: "proxy", Level: "error",
		Message: "could not wake up machine", ErrorCode: "PM03", ErrorMsg: "could not wake up machine due to a timeout requesting from the machines API",
		Method: "GET", Path: "/api/v1/notifications/", Status: 502})
	for i := range 7 {
		s.logs.Add(logs.Line{ID: fmt.Sprint("burst", i), Time: now, App: app, Machine: m.ID(), Region: "ams", Provider: "app", Message: fmt.Sprint("burst ", i)})
	}
	s.logs.Add(logs.Line{ID: "fra-line", Time: now, App: app, Region: "fra", Provider: "runner", Message: "elsewhere"})
	all := s.logs.Query(app, time.Time{}, "", "", 1<<30)
	// Some tens of pages whatever the traffic model logs.
	pageSize := max(50, len(all)/40)
	s.opts.LogsPageSize = pageSize
	s.sched.Unlock()
	srv := httptest.NewServer(s.Handler()) // after the page size: the logs API reads it once
	defer srv.Close()
	useFlyBaseURL(t, srv.URL)
	client := fly.NewClientFromOptions(fly.ClientOptions{AccessToken: s.Token(), Name: "flywake-test", Version: "0"})
	t.Logf("%d lines of %s, pages of %d", len(all), app, pageSize)
	if len(all) < 200 {
		t.Fatalf("a simulated day holds only %d lines for %s; want several pages", len(all), app)
	}
	start := logs.NextToken(now.Add(-25 * time.Hour))

	walk := func(instance, region string) ([]fly.LogEntry, string) {
		t.Helper()
		var got []fly.LogEntry
		token := start
		for range 10000 {
			page, next, err := client.GetAppLogs(ctx, app, token, region, instance)
			if err != nil {
				t.Fatalf("GetAppLogs(%s): %v", token, err)
			}
			if next == "" {
				t.Fatalf("empty next_token after %s", token)
			}
			if len(page) == 0 {
				if next != token {
					t.Errorf("an empty page moved the cursor from %s to %s", token, next)
				}
				return got, next
			}
			// A page may only outgrow its size to finish a nanosecond.
			if n := len(page); n > pageSize && page[pageSize-1].Timestamp != page[n-1].Timestamp {
				t.Errorf("page of %d lines exceeds the page size %d", n, pageSize)
			}
			if want := mustNanos(t, page[len(page)-1].Timestamp); next != want {
				t.Errorf("next_token %s is not the last line's time %s", next, want)
			}
			got = append(got, page...)
			token = next
		}
		t.Fatal("paging never ended")
		return nil, ""
	}
	match := func(instance, region string) []logs.Line {
		var out []logs.Line
		for _, ln := range all {
			if (instance == "" || ln.Machine == instance) && (region == "" || ln.Region == region) {
				out = append(out, ln)
			}
		}
		return out
	}
	for _, f := range []struct{ instance, region string }{{"", ""}, {m.ID(), ""}, {"", "fra"}, {m.ID(), "fra"}} {
		got, last := walk(f.instance, f.region)
		want := match(f.instance, f.region)
		if len(got) != len(want) {
			t.Errorf("filter %+v: %d lines arrived, want %d", f, len(got), len(want))
			continue
		}
		prev := int64(0)
		for i, e := range got {
			ns, _ := strconv.ParseInt(mustNanos(t, e.Timestamp), 10, 64)
			if ns < prev {
				t.Fatalf("filter %+v: line %d out of order", f, i)
			}
			prev = ns
			if e.Message != want[i].Message || e.Instance != want[i].Machine || e.Region != want[i].Region ||
				e.Meta.Event.Provider != want[i].Provider || ns != want[i].Time.UnixNano() {
				t.Fatalf("filter %+v: line %d = %+v, want %+v", f, i, e, want[i])
			}
		}
		if len(want) > 0 && last != logs.NextToken(want[len(want)-1].Time) {
			t.Errorf("filter %+v: final cursor %s, want the newest line's time", f, last)
		}
	}

	// The decoded proxy error keeps its metadata.
	tail, next, err := client.GetAppLogs(ctx, app, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tail) != 100 || next != logs.NextToken(now) {
		t.Errorf("default request: %d lines, cursor %s; want the newest 100 and %s", len(tail), next, logs.NextToken(now))
	}
	var pe *fly.LogEntry
	for i := range tail {
		if tail[i].Meta.Event.Provider == "proxy" && tail[i].Meta.Error.Message != "" {
			pe = &tail[i]
		}
	}
	if pe == nil {
		t.Fatal("the proxy error line is missing from the tail")
	}
	if pe.Meta.Error.Code != 502 || !strings.HasPrefix(pe.Meta.Error.Message, "[PM03] could not wake up machine") ||
		pe.Meta.HTTP.Request.Method != "GET" || pe.Meta.HTTP.Response.StatusCode != 502 ||
		pe.Meta.URL.Full != "https://sleepy-api.fly.dev/api/v1/notifications/" || pe.Level != "error" || pe.Meta.Instance != m.ID() {
		t.Errorf("proxy error decoded as %+v", pe.Meta)
	}

	if _, _, err := client.GetAppLogs(ctx, "no-such-app", "", "", ""); !fly.IsNotFoundError(err) {
		t.Errorf("unknown app: err = %v, want a 404", err)
	}
	if _, _, err := client.GetAppLogs(ctx, app, "yesterday", "", ""); err == nil {
		t.Error("a malformed next_token should be refused")
	}
}

// seedDayOfLogs merges 3000 lines spread over the 24 h before now into app's
// store, in groups of four sharing a nanosecond, across the app's
// machines, two regions and the four providers. Callers hold s.mu.
func seedDayOfLogs(s *Sim, app string, now time.Time) {
	machines := s.store.App(app).Machines()
	providers := []string{"app", "runner", "proxy", "health"}
	var lines []logs.Line
	for i := range 3000 {
		at := now.Add(-24*time.Hour + time.Duration(i/4*4)*28800*time.Millisecond + time.Duration(i/4%7))
		region := "ams"
		if i%17 == 0 {
			region = "fra"
		}
		lines = append(lines, logs.Line{ID: fmt.Sprint("seed", i), Time: at, App: app, Machine: machines[i%len(machines)].ID(),
			Region: region, Provider: providers[i%4], Level: "info", Message: fmt.Sprint("seeded line ", i)})
	}
	s.logs.Merge(lines)
}

func mustNanos(t *testing.T, ts string) string {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t.Fatalf("timestamp %q: %v", ts, err)
	}
	return logs.NextToken(tm)
}
