package fly

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestPromQueryRangeRequest(t *testing.T) {
	var got map[string]string
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		got = map[string]string{"path": r.URL.Path, "query": q.Get("query"), "start": q.Get("start"),
			"end": q.Get("end"), "step": q.Get("step"), "auth": r.Header.Get("Authorization")}
		writeJSON(w, 200, `{"status":"success","data":{"resultType":"matrix","result":[
		  {"metric":{"status":"200"},"values":[[1777633200,"120"],[1777636800,"96.5"]]},
		  {"metric":{"status":"502"},"values":[[1777636800,"7"]]}]}}`)
	}))
	c, _ := newTestClient(t, srv.URL, "usertoken")
	start, end := time.Unix(1777633200, 0), time.Unix(1777636800, 0)
	series, err := c.PromQueryRange(context.Background(), "personal", `sum by (status) (increase(fly_edge_http_responses_count{app="a"}[1h]))`, start, end, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"path": "/prometheus/personal/api/v1/query_range",
		"query": `sum by (status) (increase(fly_edge_http_responses_count{app="a"}[1h]))`,
		"start": "1777633200.000", "end": "1777636800.000", "step": "3600", "auth": "Bearer usertoken"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("request %s = %q, want %q", k, got[k], v)
		}
	}
	if len(series) != 2 || len(series[0].Points) != 2 || series[0].Labels["status"] != "200" ||
		series[0].Points[1].Value != 96.5 || !series[0].Points[1].Time.Equal(end) || len(series[1].Points) != 1 {
		t.Errorf("series = %+v", series)
	}
}

// Bad arguments are refused before any request: a day at 1 s steps is more
// points than Prometheus answers.
func TestPromQueryRangeArguments(t *testing.T) {
	calls := 0
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		writeJSON(w, 200, `{"status":"success","data":{"resultType":"matrix","result":[]}}`)
	}))
	c, _ := newTestClient(t, srv.URL, "")
	now := time.Unix(1777636800, 0)
	for _, tc := range []struct {
		name       string
		start, end time.Time
		step       time.Duration
		want       string
	}{
		{"zero step", now.Add(-time.Hour), now, 0, "positive step"},
		{"backwards", now, now.Add(-time.Hour), time.Minute, "ends before"},
		{"too many points", now.Add(-24 * time.Hour), now, time.Second, "11000 points"},
	} {
		_, err := c.PromQueryRange(context.Background(), "personal", "up", tc.start, tc.end, tc.step)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	if calls != 0 {
		t.Errorf("%d requests sent for refused arguments", calls)
	}
	if _, err := c.PromQueryRange(context.Background(), "personal", "up", now.Add(-24*time.Hour), now, time.Minute); err != nil || calls != 1 {
		t.Errorf("a day at 1 m steps: err %v after %d calls", err, calls)
	}
}

func TestParsePromMatrix(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantPts   []int
		wantErrIn string
	}{
		{"matrix", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"b"},"values":[[1,"2"],[2,"3"]]},{"values":[]}]}}`, []int{2, 0}, ""},
		{"empty", `{"status":"success","data":{"resultType":"matrix","result":[]}}`, []int{}, ""},
		{"vector is not a matrix", `{"status":"success","data":{"resultType":"vector","result":[]}}`, nil, "matrix"},
		{"error", `{"status":"error","errorType":"bad_data","error":"exceeded maximum resolution of 11,000 points per timeseries"}`, nil, "11,000 points"},
		{"bad point", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,2]]}]}}`, nil, "point 0"},
		{"out of order", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[2,"1"],[1,"1"]]}]}}`, nil, "out of order"},
		{"values not a list", `{"status":"success","data":{"resultType":"matrix","result":[{"values":{}}]}}`, nil, "matrix result"},
		{"not json", `<html>`, nil, "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := parsePromMatrix([]byte(tt.body))
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErrIn)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != len(tt.wantPts) {
				t.Fatalf("%d series, want %d", len(res), len(tt.wantPts))
			}
			for i, s := range res {
				if len(s.Points) != tt.wantPts[i] || s.Labels == nil {
					t.Errorf("series %d: %+v", i, s)
				}
			}
		})
	}
}
