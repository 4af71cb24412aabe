package fly

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Events arrive inside the machines list (the API's own /events endpoint
// adds nothing the dashboard reads).
func TestEventsDecoding(t *testing.T) {
	// Shapes from the team contract (flysim emits these, newest first).
	const body = `[{"id":"m1","state":"started","events":[
	 {"id":"01EV3","type":"exit","status":"stopped","source":"flyd","timestamp":1714564800300,
	  "request":{"exit_event":{"exit_code":137,"oom_killed":true,"requested_stop":false,"restarting":true,
	   "signal":-1,"guest_signal":-1,"exited_at":"2024-05-01T12:00:00.3Z"},"restart_count":2}},
	 {"id":"01EV2","type":"start","status":"started","source":"flyd","timestamp":1714564800200},
	 {"id":"01EV1","type":"start","status":"resuming","source":"fly-proxy","timestamp":1714564800100}]}]`
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, body)
	}))
	c, _ := newTestClient(t, srv.URL, "")
	ms, err := c.ListMachines(context.Background(), "app1")
	if err != nil || len(ms) != 1 {
		t.Fatal(ms, err)
	}
	evs := ms[0].Events
	if len(evs) != 3 {
		t.Fatalf("got %d events, want 3", len(evs))
	}
	exit := evs[0]
	if exit.Type != "exit" || exit.Request == nil || exit.Request.ExitEvent == nil ||
		exit.Request.ExitEvent.ExitCode != 137 || !exit.Request.ExitEvent.OOMKilled || exit.Request.RestartCount != 2 {
		t.Errorf("exit event decoded as %+v", exit)
	}
	if got := evs[2].Time(); !got.Equal(time.UnixMilli(1714564800100)) || evs[2].Source != "fly-proxy" || evs[2].Status != "resuming" {
		t.Errorf("resume event decoded as %+v at %v", evs[2], got)
	}
}

// logPages serves the Logs API: each next_token maps to a page.
type logPages struct {
	mu    sync.Mutex
	pages map[string]struct {
		messages []string
		next     string
	}
	queries []string
}

func (lp *logPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	lp.queries = append(lp.queries, r.URL.RawQuery)
	if r.URL.Path != "/api/v1/apps/app1/logs" {
		writeJSON(w, 404, `{}`)
		return
	}
	page, ok := lp.pages[r.URL.Query().Get("next_token")]
	if !ok {
		writeJSON(w, 400, `{}`)
		return
	}
	var data []string
	for i, m := range page.messages {
		data = append(data, fmt.Sprintf(`{"id":"%d","attributes":{"timestamp":"2026-05-01T12:00:0%d.000000001Z",
		 "message":%q,"level":"info","instance":"m1","region":"ams","meta":{"instance":"m1","region":"ams",
		 "event":{"provider":"runner"},"http":{"response":{"status_code":200}},"error":{"code":0,"message":""}}}}`, i, i, m))
	}
	writeJSON(w, 200, fmt.Sprintf(`{"data":[%s],"meta":{"next_token":%q}}`, strings.Join(data, ","), page.next))
}

func TestLogsPaging(t *testing.T) {
	lp := &logPages{pages: map[string]struct {
		messages []string
		next     string
	}{
		"":                    {[]string{"Configuring firecracker", "Machine started in 1.042s"}, "1777636801000000001"},
		"1777636801000000001": {[]string{" INFO Starting init (commit: 6c3fc2e)..."}, "1777636802000000001"},
		"1777636802000000001": {nil, "1777636802000000001"},
	}}
	c, _ := newTestClient(t, newLocalServer(t, lp).URL, "")
	ctx := context.Background()
	var all []string
	token := ""
	for range 3 {
		entries, next, err := c.Logs(ctx, "app1", token, "m1", "ams")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			all = append(all, e.Message)
			if e.Meta.Event.Provider != "runner" || e.Instance != "m1" || e.Meta.HTTP.Response.StatusCode != 200 {
				t.Errorf("entry decoded as %+v", e)
			}
		}
		token = next
	}
	want := []string{"Configuring firecracker", "Machine started in 1.042s", " INFO Starting init (commit: 6c3fc2e)..."}
	if strings.Join(all, "|") != strings.Join(want, "|") || token != "1777636802000000001" {
		t.Errorf("paged messages %q, last token %q", all, token)
	}
	for _, q := range lp.queries {
		if !strings.Contains(q, "instance=m1") || !strings.Contains(q, "region=ams") {
			t.Errorf("logs query %q lacks instance/region", q)
		}
	}
}

func TestPromQueryRequest(t *testing.T) {
	var gotPath, gotQuery, gotTime, gotAuth string
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotAuth = r.URL.Path, r.Header.Get("Authorization")
		gotQuery, gotTime = r.URL.Query().Get("query"), r.URL.Query().Get("time")
		writeJSON(w, 200, `{"status":"success","data":{"resultType":"vector","result":[
		  {"metric":{"app":"app1","instance":"m1","region":"ams"},"value":[1777636800.5,"1048576"]},
		  {"metric":{"app":"app1","instance":"m2","region":"ams"},"value":[1777636800.5,"0"]}]}}`)
	}))
	c, _ := newTestClient(t, srv.URL, "fm2_macaroontoken")
	at := time.Unix(1777636800, 500_000_000)
	res, err := c.PromQuery(context.Background(), "personal", `fly_instance_memory_swap_total{app="app1"}`, at)
	if err != nil {
		t.Fatal(err)
	}
	if gotPath != "/prometheus/personal/api/v1/query" || gotQuery != `fly_instance_memory_swap_total{app="app1"}` ||
		gotTime != "1777636800.500" || gotAuth != "FlyV1 fm2_macaroontoken" {
		t.Errorf("request: path %q query %q time %q auth %q", gotPath, gotQuery, gotTime, gotAuth)
	}
	if len(res.Samples) != 2 || res.Samples[0].Labels["instance"] != "m1" || res.Samples[0].Value != 1048576 ||
		!res.Samples[0].Time.Equal(at) {
		t.Errorf("result = %+v", res)
	}
}

func TestParsePromQuery(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantVals  []float64
		wantErrIn string
	}{
		{"vector", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"b"},"value":[1,"2.5"]}]}}`, []float64{2.5}, ""},
		{"empty vector", `{"status":"success","data":{"resultType":"vector","result":[]}}`, nil, ""},
		{"scalar", `{"status":"success","data":{"resultType":"scalar","result":[1,"7"]}}`, []float64{7}, ""},
		{"error status", `{"status":"error","errorType":"bad_data","error":"parse error at char 3"}`, nil, "parse error at char 3"},
		{"not json", `<html>`, nil, "not JSON"},
		{"value not a string", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,2]}]}}`, nil, "string"},
		{"value not a number", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"abc"]}]}}`, nil, "not a number"},
		{"short pair", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}}`, nil, "timestamp"},
		{"null value", `{"status":"success","data":{"resultType":"vector","result":[{"metric":null,"value":null}]}}`, nil, "timestamp"},
		{"result not a list", `{"status":"success","data":{"resultType":"vector","result":{}}}`, nil, "vector"},
		{"matrix unsupported", `{"status":"success","data":{"resultType":"matrix","result":[]}}`, nil, "not supported"},
		{"bad timestamp", `{"status":"success","data":{"resultType":"scalar","result":["x","1"]}}`, nil, "timestamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := parsePromQuery([]byte(tt.body))
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErrIn)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			for _, s := range res.Samples {
				got = append(got, s.Value)
				if s.Labels == nil {
					t.Error("nil Labels map")
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantVals) {
				t.Errorf("values = %v, want %v", got, tt.wantVals)
			}
		})
	}
}

func TestPromQueryHTTPError(t *testing.T) {
	c, _ := newTestClient(t, statusServer(t, 400, `{"status":"error","errorType":"bad_data","error":"unknown function foo"}`), "")
	_, err := c.PromQuery(context.Background(), "personal", "foo()", time.Time{})
	if err == nil || !strings.Contains(err.Error(), "unknown function foo") {
		t.Fatalf("err = %v, want Prometheus's own error text", err)
	}
}
