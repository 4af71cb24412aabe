package flysim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/promql"
)

type promRangeResult struct {
	Status    string
	ErrorType string
	Error     string
	Data      struct {
		ResultType string
		Result     []struct {
			Metric map[string]string
			Values [][2]any
		}
	}
}

// promRange runs one range query and returns the HTTP status, the body and
// every series as label set → (unix second → value).
func promRange(t *testing.T, srv *httptest.Server, s *Sim, org string, form url.Values) (int, promRangeResult, map[string]map[int64]float64) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/prometheus/"+org+"/api/v1/query_range?"+form.Encode(), nil)
	req.Header.Set("Authorization", "Bearer "+s.Token())
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res promRangeResult
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatalf("decoding: %v", err)
	}
	out := map[string]map[int64]float64{}
	for _, r := range res.Data.Result {
		pts := map[int64]float64{}
		for _, p := range r.Values {
			ts, isNum := p[0].(float64)
			str, _ := p[1].(string)
			v, err := strconv.ParseFloat(str, 64)
			if !isNum || err != nil {
				t.Fatalf("point %v is not [<unix float>, \"<number>\"]", p)
			}
			pts[int64(ts)] = v
		}
		out[promql.LabelKey(r.Metric)] = pts
	}
	return resp.StatusCode, res, out
}

// A range query at one-minute steps returns each minute's count once (the
// minutes add up to the instant increase over the whole span), and at
// one-hour steps it agrees with instant queries at the same times.
func TestPromQueryRangeAgreesWithInstantQueries(t *testing.T) {
	t.Parallel()
	x := DemoApps()[0]
	x.Name = "x"
	s := New(Options{History: -1, NoTraffic: true, Apps: []AppProfile{x}})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	s.sched.Lock()
	now := s.now()
	hour := now.Truncate(time.Hour)
	inst := s.store.App("x").Machines()[0].ID()
	// At hour-3h+10m, +10m30s and +11m: two minutes; a 502 burst the app never saw.
	for _, at := range []time.Duration{10 * time.Minute, 10*time.Minute + 30*time.Second, 11 * time.Minute} {
		s.metrics.AddEdge("x", x.Region, 200, hour.Add(-3*time.Hour+at), 5)
		s.metrics.AddApp("x", x.Region, inst, 200, hour.Add(-3*time.Hour+at), 5)
	}
	s.metrics.AddEdge("x", x.Region, 502, hour.Add(-2*time.Hour+59*time.Minute), 7)
	s.sched.Unlock()

	perMinute := url.Values{
		"query": {`sum(increase(fly_edge_http_responses_count{app="x"}[1m]))`},
		"start": {fmt.Sprint(hour.Add(-4 * time.Hour).Add(time.Minute).Unix())},
		"end":   {fmt.Sprint(hour.Unix())},
		"step":  {"60"},
	}
	code, res, series := promRange(t, srv, s, DemoOrg, perMinute)
	if code != http.StatusOK || res.Status != "success" || res.Data.ResultType != "matrix" || len(series) != 1 {
		t.Fatalf("HTTP %d %+v", code, res)
	}
	pts := series[""]
	if len(pts) != 240 {
		t.Errorf("%d points at 1 m steps over 4 h, want 240", len(pts))
	}
	// The point at t covers the minute before t.
	want := map[int64]float64{
		hour.Add(-3*time.Hour + 11*time.Minute).Unix(): 10,
		hour.Add(-3*time.Hour + 12*time.Minute).Unix(): 5,
		hour.Add(-time.Hour).Unix():                    7,
	}
	total := 0.0
	for ts, v := range pts {
		total += v
		if v != want[ts] {
			t.Errorf("minute ending %v = %v, want %v", time.Unix(ts, 0).UTC(), v, want[ts])
		}
	}
	if total != 22 {
		t.Errorf("minutes add up to %v, want 22", total)
	}

	hourly := url.Values{
		"query": {`sum by (status) (increase(fly_edge_http_responses_count{app="x"}[1h]))`},
		"start": {fmt.Sprint(hour.Add(-3 * time.Hour).Unix())},
		"end":   {hour.Format(time.RFC3339)},
		"step":  {"1h"},
	}
	_, _, byStatus := promRange(t, srv, s, DemoOrg, hourly)
	for key, pts := range byStatus {
		for ts, v := range pts {
			_, _, inst := promQuery(t, srv, s, DemoOrg, hourly.Get("query"), url.Values{"time": {fmt.Sprint(ts)}}, false)
			if inst[key] != v {
				t.Errorf("%s at %v: range %v, instant %v", key, time.Unix(ts, 0).UTC(), v, inst[key])
			}
		}
	}
	if got := byStatus[`status="200",`][hour.Add(-2*time.Hour).Unix()]; got != 15 {
		t.Errorf("200s in the hour ending %v = %v, want 15 (%v)", hour.Add(-2*time.Hour), got, byStatus)
	}
	if got := byStatus[`status="502",`][hour.Add(-time.Hour).Unix()]; got != 7 {
		t.Errorf("502s in the hour ending %v = %v, want 7 (%v)", hour.Add(-time.Hour), got, byStatus)
	}
}

func TestPromQueryRangeErrors(t *testing.T) {
	t.Parallel()
	s := New(Options{History: -1, NoTraffic: true})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	end := s.Clock().Now().Unix()
	form := func(q, start, stop, step string) url.Values {
		return url.Values{"query": {q}, "start": {start}, "end": {stop}, "step": {step}}
	}
	day, e := fmt.Sprint(end-86400), fmt.Sprint(end)
	tests := []struct {
		name, org string
		form      url.Values
		wantCode  int
		wantIn    string
	}{
		{"other org", "other-org", form("fly_instance_up", day, e, "60"), http.StatusNotFound, "organization"},
		{"empty query", DemoOrg, form("", day, e, "60"), http.StatusBadRequest, "empty query"},
		{"no start", DemoOrg, form("fly_instance_up", "", e, "60"), http.StatusBadRequest, `"start"`},
		{"bad end", DemoOrg, form("fly_instance_up", day, "tomorrow", "60"), http.StatusBadRequest, `"end"`},
		{"backwards", DemoOrg, form("fly_instance_up", e, day, "60"), http.StatusBadRequest, "before start"},
		{"zero step", DemoOrg, form("fly_instance_up", day, e, "0"), http.StatusBadRequest, "zero or negative"},
		{"negative step", DemoOrg, form("fly_instance_up", day, e, "-1m"), http.StatusBadRequest, "step"},
		{"no step", DemoOrg, form("fly_instance_up", day, e, ""), http.StatusBadRequest, "step"},
		{"too many points", DemoOrg, form("fly_instance_up", day, e, "1"), http.StatusBadRequest, "11,000 points"},
		{"bad query", DemoOrg, form("sum(", day, e, "60"), http.StatusBadRequest, `"query"`},
		{"range selector", DemoOrg, form("fly_instance_up[5m]", day, e, "3600"), http.StatusBadRequest, "range selector"},
	}
	for _, tt := range tests {
		code, res, _ := promRange(t, srv, s, tt.org, tt.form)
		if code != tt.wantCode || res.Status != "error" || !strings.Contains(res.Error, tt.wantIn) {
			t.Errorf("%s: HTTP %d %+v; want %d with %q", tt.name, code, res, tt.wantCode, tt.wantIn)
		}
	}
}
