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

type promTestResult struct {
	Status    string
	ErrorType string
	Error     string
	Data      struct {
		ResultType string
		Result     []struct {
			Metric map[string]string
			Value  [2]any
		}
	}
}

// promQuery runs one instant query over HTTP (GET, or POST form) and returns
// the HTTP status, the decoded body and its samples as label-set → value.
func promQuery(t *testing.T, srv *httptest.Server, s *Sim, org, query string, extra url.Values, post bool) (int, promTestResult, map[string]float64) {
	t.Helper()
	form := url.Values{"query": {query}}
	for k, v := range extra {
		form[k] = v
	}
	u := srv.URL + "/prometheus/" + org + "/api/v1/query"
	var req *http.Request
	if post {
		req, _ = http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req, _ = http.NewRequest(http.MethodGet, u+"?"+form.Encode(), nil)
	}
	req.Header.Set("Authorization", "Bearer "+s.Token())
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res promTestResult
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatalf("%s: decoding: %v", query, err)
	}
	samples := map[string]float64{}
	for _, r := range res.Data.Result {
		str, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(str, 64)
		if _, isNum := r.Value[0].(float64); err != nil || !isNum {
			t.Fatalf("%s: sample value %v is not [<unix float>, \"<number>\"]", query, r.Value)
		}
		samples[promql.LabelKey(r.Metric)] = v
	}
	return resp.StatusCode, res, samples
}

// The edge counts what clients saw, the app what machines answered: the
// difference of the two queries is exactly the requests that died between.
func TestPromQueryShowsEdgeOnlyErrors(t *testing.T) {
	t.Parallel()
	x := DemoApps()[0]
	x.Name = "x"
	s := New(Options{History: -1, NoTraffic: true, Apps: []AppProfile{x}})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	s.sched.Lock()
	now := s.now()
	inst := []string{s.store.App("x").Machines()[0].ID(), s.store.App("x").Machines()[1].ID()}
	feed := func(ago time.Duration, status, edge, onMachine0, onMachine1 int) {
		at := now.Add(-ago)
		s.metrics.AddEdge("x", x.Region, status, at, float64(edge))
		if onMachine0 > 0 {
			s.metrics.AddApp("x", x.Region, inst[0], status, at, float64(onMachine0))
		}
		if onMachine1 > 0 {
			s.metrics.AddApp("x", x.Region, inst[1], status, at, float64(onMachine1))
		}
	}
	feed(5*time.Hour, 200, 40, 30, 10) // outside [1h], inside [24h]
	feed(5*time.Hour, 502, 9, 0, 0)
	feed(50*time.Minute, 200, 100, 60, 40)
	feed(50*time.Minute, 502, 17, 0, 0) // woken machine not serving in time
	feed(10*time.Minute, 200, 20, 5, 15)
	feed(10*time.Minute, 503, 3, 0, 0)
	feed(10*time.Minute, 500, 2, 1, 1) // the app's own error: no gap
	s.sched.Unlock()

	byStatus := func(q string, extra url.Values) map[string]float64 {
		t.Helper()
		code, res, samples := promQuery(t, srv, s, DemoOrg, q, extra, false)
		if code != http.StatusOK || res.Status != "success" || res.Data.ResultType != "vector" {
			t.Fatalf("%s: HTTP %d %+v", q, code, res)
		}
		return samples
	}
	gap := func(window string, extra url.Values) map[string]float64 {
		edge := byStatus(`sum by (status) (increase(fly_edge_http_responses_count{app="x"}[`+window+`]))`, extra)
		app := byStatus(`sum(increase(fly_app_http_responses_count{app="x"}[`+window+`])) by (status)`, extra)
		out := map[string]float64{}
		for k, v := range edge {
			if d := v - app[k]; d != 0 {
				out[k] = d
			}
		}
		return out
	}
	tests := []struct {
		window string
		at     url.Values
		want   string
	}{
		{"1h", nil, `map[status="502",:17 status="503",:3]`},
		{"24h", nil, `map[status="502",:26 status="503",:3]`},
		{"90m", url.Values{"time": {fmt.Sprint(now.Add(-4 * time.Hour).Unix())}}, `map[status="502",:9]`},
		{"1h", url.Values{"time": {now.Add(-30 * time.Minute).UTC().Format(time.RFC3339)}}, `map[status="502",:17]`},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(gap(tt.window, tt.at)); got != tt.want {
			t.Errorf("gap over [%s] at %v = %s, want %s", tt.window, tt.at, got, tt.want)
		}
	}

	// Both spellings of a grouped sum agree, and grouping by app keeps the app.
	a := byStatus(`sum by (status) (increase(fly_edge_http_responses_count{app="x"}[1h]))`, nil)
	b := byStatus(`sum(increase(fly_edge_http_responses_count{app="x"}[1h])) by (status)`, nil)
	if fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 4 {
		t.Errorf("sum by (…) (…) = %v but sum(…) by (…) = %v", a, b)
	}
	byApp := byStatus(`sum by (app, status) (increase(fly_edge_http_responses_count[1h]))`, nil)
	if byApp[`app="x",status="200",`] != 120 || len(byApp) != 4 {
		t.Errorf("sum by (app, status) = %v", byApp)
	}
	// A bare counter is its cumulative total; the app series carry instance, the edge's don't.
	edge200 := byStatus(`fly_edge_http_responses_count{app="x",status=~"2.."}`, nil)
	if want := `__name__="fly_edge_http_responses_count",app="x",region="ams",status="200",`; edge200[want] != 160 || len(edge200) != 1 {
		t.Errorf("bare edge selector = %v", edge200)
	}
	perInstance := byStatus(`fly_app_http_responses_count{app="x",status="200",instance!="`+inst[1]+`"}`, nil)
	if want := `__name__="fly_app_http_responses_count",app="x",instance="` + inst[0] + `",region="ams",status="200",`; perInstance[want] != 95 || len(perInstance) != 1 {
		t.Errorf("bare app selector = %v", perInstance)
	}

	// POST form answers like GET. (The handler reads either; the route is
	// api.go's to register, so this mounts the handler itself.)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /prometheus/{org}/api/v1/query", s.promAPI().Query)
	postSrv := httptest.NewServer(mux)
	defer postSrv.Close()
	code, _, posted := promQuery(t, postSrv, s, DemoOrg, `sum(increase(fly_edge_http_responses_count{app="x"}[1h])) by (status)`, nil, true)
	if code != http.StatusOK || fmt.Sprint(posted) != fmt.Sprint(b) {
		t.Errorf("POST answered HTTP %d %v, GET %v", code, posted, b)
	}
}

func TestPromQueryGaugesMatchTheGuest(t *testing.T) {
	t.Parallel()
	s := New(Options{History: -1, NoTraffic: true})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	queries := map[string]string{
		"fly_instance_memory_mem_total":     "MemTotal",
		"fly_instance_memory_mem_available": "MemAvailable",
		"fly_instance_memory_swap_total":    "SwapTotal",
		"fly_instance_memory_swap_free":     "SwapFree",
	}
	for metric, field := range queries {
		_, _, samples := promQuery(t, srv, s, DemoOrg, metric, nil, false)
		s.sched.Lock()
		started := 0
		for _, a := range s.store.Apps() {
			appName := a.Name()
			for _, m := range a.Machines() {
				key := promql.LabelKey(map[string]string{"__name__": metric, "app": appName, "region": m.Region(), "instance": m.ID()})
				got, present := samples[key]
				if m.State() != "started" {
					if present {
						t.Errorf("%s reported for %s machine %s", metric, m.State(), m.ID())
					}
					continue
				}
				started++
				if want := meminfoField(t, s.store.Guest(m).Exec("cat /proc/meminfo", nil).StdOut, field) * 1024; got != want || !present {
					t.Errorf("%s{instance=%q} = %v (present %v), guest's %s says %v bytes", metric, m.ID(), got, present, field, want)
				}
			}
		}
		s.sched.Unlock()
		if started == 0 || len(samples) != started {
			t.Errorf("%s: %d series for %d started machines", metric, len(samples), started)
		}
	}
	_, _, swap := promQuery(t, srv, s, DemoOrg, `fly_instance_memory_swap_total{app="`+DemoScaleToZero+`"}`, nil, false)
	for k, v := range swap {
		if v != (2048*1024-4)*1024 {
			t.Errorf("%s = %v, want 2 GB of swap less its header", k, v)
		}
	}
	_, _, up := promQuery(t, srv, s, DemoOrg, `sum by (app) (fly_instance_up)`, nil, false)
	// No history: the machines awake when it would begin (snappy-api: one
	// in ams, one in ord).
	if up[`app="`+DemoTuned+`",`] != 2 || up[`app="`+DemoBacklog+`",`] != 2 {
		t.Errorf("fly_instance_up by app = %v", up)
	}
}

func meminfoField(t *testing.T, text, field string) float64 {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == field+":" {
			v, err := strconv.ParseFloat(f[1], 64)
			if err == nil {
				return v
			}
		}
	}
	t.Fatalf("no %s in meminfo", field)
	return 0
}

func TestPromQueryErrors(t *testing.T) {
	t.Parallel()
	s := New(Options{History: -1, NoTraffic: true})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	tests := []struct {
		org, query string
		extra      url.Values
		wantCode   int
		wantType   string
	}{
		{"other-org", "fly_instance_up", nil, http.StatusNotFound, "not_found"},
		{DemoOrg, "", nil, http.StatusBadRequest, "bad_data"},
		{DemoOrg, "sum(", nil, http.StatusBadRequest, "bad_data"},
		{DemoOrg, "fly_instance_up[5m]", nil, http.StatusBadRequest, "bad_data"},
		{DemoOrg, "fly_instance_up", url.Values{"time": {"yesterday"}}, http.StatusBadRequest, "bad_data"},
		{DemoOrg, "fly_instance_up", url.Values{"time": {"1e300"}}, http.StatusBadRequest, "bad_data"},
	}
	for _, tt := range tests {
		code, res, _ := promQuery(t, srv, s, tt.org, tt.query, tt.extra, false)
		if code != tt.wantCode || res.Status != "error" || res.ErrorType != tt.wantType || res.Error == "" {
			t.Errorf("%s %q %v: HTTP %d %+v; want %d %s", tt.org, tt.query, tt.extra, code, res, tt.wantCode, tt.wantType)
		}
	}
}
