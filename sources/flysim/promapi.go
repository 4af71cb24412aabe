package flysim

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Prometheus JSON shapes (the HTTP API's /api/v1/query answer).
type promResponse struct {
	Status    string    `json:"status"`
	Data      *promData `json:"data,omitempty"`
	ErrorType string    `json:"errorType,omitempty"`
	Error     string    `json:"error,omitempty"`
}

type promData struct {
	ResultType string         `json:"resultType"`
	Result     []promJSONItem `json:"result"`
}

type promJSONItem struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"` // [unix seconds, "value"]
}

func writePromError(w http.ResponseWriter, status int, errType, msg string) {
	writeJSON(w, status, promResponse{Status: "error", ErrorType: errType, Error: msg})
}

// servePromQuery answers Prometheus instant queries for the org, by GET
// query string or POST form, like Fly's managed Prometheus.
func (s *Sim) servePromQuery(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("org") != s.opts.Org {
		writePromError(w, http.StatusNotFound, "not_found", "organization not found")
		return
	}
	if err := r.ParseForm(); err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", "invalid form: "+err.Error())
		return
	}
	query := r.Form.Get("query")
	if query == "" {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": empty query`)
		return
	}
	at, err := parsePromTime(r.Form.Get("time"), s.now())
	if err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "time": `+err.Error())
		return
	}
	expr, err := parsePromQL(query)
	if err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": `+err.Error())
		return
	}
	s.mu.Lock()
	samples, err := evalPromQL(expr, at, s.promSeries)
	s.mu.Unlock()
	if err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", err.Error())
		return
	}
	ts := float64(at.UnixMilli()) / 1000
	data := &promData{ResultType: "vector", Result: make([]promJSONItem, 0, len(samples))}
	for _, smp := range samples {
		data.Result = append(data.Result, promJSONItem{Metric: smp.labels, Value: [2]any{ts, formatPromValue(smp.value)}})
	}
	writeJSON(w, http.StatusOK, promResponse{Status: "success", Data: data})
}

type promMatrixData struct {
	ResultType string           `json:"resultType"`
	Result     []promMatrixItem `json:"result"`
}

type promMatrixItem struct {
	Metric map[string]string `json:"metric"`
	Values [][2]any          `json:"values"` // [[unix seconds, "value"], …]
}

// promMaxPoints is Prometheus's limit on the points of one series in a
// range query.
const promMaxPoints = 11000

// servePromQueryRange answers Prometheus range queries (/api/v1/query_range):
// the expression evaluated at start, start+step, … ≤ end, as a matrix.
// Fly's managed Prometheus serves the same endpoint (VictoriaMetrics).
func (s *Sim) servePromQueryRange(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("org") != s.opts.Org {
		writePromError(w, http.StatusNotFound, "not_found", "organization not found")
		return
	}
	if err := r.ParseForm(); err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", "invalid form: "+err.Error())
		return
	}
	query := r.Form.Get("query")
	if query == "" {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": empty query`)
		return
	}
	now := s.now()
	var start, end time.Time
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"start", &start}, {"end", &end}} {
		v := r.Form.Get(p.name)
		if v == "" {
			writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "`+p.name+`": cannot parse "" to a valid timestamp`)
			return
		}
		t, err := parsePromTime(v, now)
		if err != nil {
			writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "`+p.name+`": `+err.Error())
			return
		}
		*p.dst = t
	}
	if end.Before(start) {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "end": end timestamp must not be before start time`)
		return
	}
	step, err := parsePromStep(r.Form.Get("step"))
	if err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "step": `+err.Error())
		return
	}
	if end.Sub(start)/step >= promMaxPoints {
		writePromError(w, http.StatusBadRequest, "bad_data",
			"exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)")
		return
	}
	expr, err := parsePromQL(query)
	if err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": `+err.Error())
		return
	}
	var times []time.Time
	for t := start; !t.After(end); t = t.Add(step) {
		times = append(times, t)
	}
	s.mu.Lock()
	series, err := evalPromQLRange(expr, times, s.promSeries)
	s.mu.Unlock()
	if err != nil {
		writePromError(w, http.StatusBadRequest, "bad_data", err.Error())
		return
	}
	data := &promMatrixData{ResultType: "matrix", Result: make([]promMatrixItem, 0, len(series))}
	for _, rs := range series {
		item := promMatrixItem{Metric: rs.labels, Values: make([][2]any, len(rs.times))}
		for i, t := range rs.times {
			item.Values[i] = [2]any{float64(t.UnixMilli()) / 1000, formatPromValue(rs.values[i])}
		}
		data.Result = append(data.Result, item)
	}
	writeJSON(w, http.StatusOK, struct {
		Status string          `json:"status"`
		Data   *promMatrixData `json:"data"`
	}{"success", data})
}

// parsePromStep reads a range query's step: float seconds or a Prometheus
// duration ("1m", "1h").
func parsePromStep(v string) (time.Duration, error) {
	if v == "" {
		return 0, errors.New(`cannot parse "" to a valid duration`)
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || f > 1e9 {
			return 0, fmt.Errorf("cannot parse %q to a valid duration", v)
		}
		d = time.Duration(f * float64(time.Second))
	} else if d, err = parsePromDuration(v); err != nil {
		return 0, fmt.Errorf("cannot parse %q to a valid duration", v)
	}
	if d <= 0 {
		return 0, errors.New("zero or negative query resolution step widths are not accepted. Try a positive integer")
	}
	return d, nil
}

// formatPromValue spells a sample the way Prometheus does.
func formatPromValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// parsePromTime reads Prometheus' time parameter: unix seconds (fractions
// allowed) or RFC 3339. Empty means now.
func parsePromTime(v string, now time.Time) (time.Time, error) {
	if v == "" {
		return now, nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		// Beyond ±1e11 s (year 5138) nanoseconds overflow int64.
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e11 {
			return time.Time{}, fmt.Errorf("%q out of range", v)
		}
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(math.Round(frac*1e9))), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	return time.Time{}, errors.New("cannot parse " + strconv.Quote(v) + " to a valid timestamp")
}

// Counter and gauge names flysim serves.
const (
	promEdgeResponses = "fly_edge_http_responses_count"
	promAppResponses  = "fly_app_http_responses_count"
)

// promSeries lists the org's series of one metric ("" = all). Callers hold
// s.mu; the returned closures read the stores and must run under it too.
func (s *Sim) promSeries(name string) map[string][]promSeries {
	out := map[string][]promSeries{}
	want := func(n string) bool { return name == "" || name == n }
	if want(promEdgeResponses) {
		for appName, byStatus := range s.metrics.edge {
			for status, c := range byStatus {
				out[promEdgeResponses] = append(out[promEdgeResponses], counterSeries(c, map[string]string{
					"app": appName, "region": s.appRegion(appName), "status": strconv.Itoa(status)}))
			}
		}
	}
	if want(promAppResponses) {
		for appName, byInstance := range s.metrics.app {
			for instance, byStatus := range byInstance {
				region := s.machineRegion(appName, instance)
				for status, c := range byStatus {
					out[promAppResponses] = append(out[promAppResponses], counterSeries(c, map[string]string{
						"app": appName, "region": region, "instance": instance, "status": strconv.Itoa(status)}))
				}
			}
		}
	}
	for _, appName := range s.appOrder {
		for _, m := range s.apps[appName].machines {
			if m.state != "started" {
				continue // Fly only scrapes running guests
			}
			for metric, v := range instanceGauges(m) {
				if want(metric) {
					val := v
					out[metric] = append(out[metric], promSeries{
						labels:  map[string]string{"app": appName, "region": m.region, "instance": m.id},
						valueAt: func(time.Time) float64 { return val },
					})
				}
			}
		}
	}
	return out
}

// counterSeries exposes a per-minute counter: its cumulative value at t is
// the total minus what was added after t's minute.
func counterSeries(c *counter, labels map[string]string) promSeries {
	return promSeries{
		labels: labels,
		valueAt: func(t time.Time) float64 {
			return c.total - c.increase(t, t.Add(100*365*24*time.Hour))
		},
		increase: c.increase,
	}
}

func (s *Sim) appRegion(appName string) string {
	if a := s.apps[appName]; a != nil {
		return a.p.Region
	}
	return ""
}

func (s *Sim) machineRegion(appName, id string) string {
	if a := s.apps[appName]; a != nil {
		if m := a.byID[id]; m != nil {
			return m.region
		}
		return a.p.Region
	}
	return ""
}
