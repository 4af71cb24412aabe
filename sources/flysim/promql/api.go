package promql

import (
	"encoding/json"
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

func writeError(w http.ResponseWriter, status int, errType, msg string) {
	writeJSON(w, status, promResponse{Status: "error", ErrorType: errType, Error: msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// API serves one org's Prometheus query endpoints, as Fly's managed
// Prometheus does under /prometheus/{org}/api/v1/.
type API struct {
	Org string
	Now func() time.Time
	// Read runs fn with the org's series; src is valid only while fn runs,
	// so Read may hold whatever lock the series need.
	Read func(fn func(src Source))
}

// Query answers Prometheus instant queries for the org, by GET
// query string or POST form, like Fly's managed Prometheus.
func (a *API) Query(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("org") != a.Org {
		writeError(w, http.StatusNotFound, "not_found", "organization not found")
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", "invalid form: "+err.Error())
		return
	}
	query := r.Form.Get("query")
	if query == "" {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": empty query`)
		return
	}
	at, err := parseTime(r.Form.Get("time"), a.Now())
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "time": `+err.Error())
		return
	}
	expr, err := Parse(query)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": `+err.Error())
		return
	}
	var samples []Sample
	a.Read(func(src Source) { samples, err = Eval(expr, at, src) })
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", err.Error())
		return
	}
	ts := float64(at.UnixMilli()) / 1000
	data := &promData{ResultType: "vector", Result: make([]promJSONItem, 0, len(samples))}
	for _, smp := range samples {
		data.Result = append(data.Result, promJSONItem{Metric: smp.Labels, Value: [2]any{ts, FormatValue(smp.Value)}})
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

// maxPoints is Prometheus's limit on the points of one series in a
// range query.
const maxPoints = 11000

// QueryRange answers Prometheus range queries (/api/v1/query_range):
// the expression evaluated at start, start+step, … ≤ end, as a matrix.
// Fly's managed Prometheus serves the same endpoint (VictoriaMetrics).
func (a *API) QueryRange(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("org") != a.Org {
		writeError(w, http.StatusNotFound, "not_found", "organization not found")
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", "invalid form: "+err.Error())
		return
	}
	query := r.Form.Get("query")
	if query == "" {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": empty query`)
		return
	}
	now := a.Now()
	var start, end time.Time
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"start", &start}, {"end", &end}} {
		v := r.Form.Get(p.name)
		if v == "" {
			writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "`+p.name+`": cannot parse "" to a valid timestamp`)
			return
		}
		t, err := parseTime(v, now)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "`+p.name+`": `+err.Error())
			return
		}
		*p.dst = t
	}
	if end.Before(start) {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "end": end timestamp must not be before start time`)
		return
	}
	step, err := parseStep(r.Form.Get("step"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "step": `+err.Error())
		return
	}
	if end.Sub(start)/step >= maxPoints {
		writeError(w, http.StatusBadRequest, "bad_data",
			"exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)")
		return
	}
	expr, err := Parse(query)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", `invalid parameter "query": `+err.Error())
		return
	}
	var times []time.Time
	for t := start; !t.After(end); t = t.Add(step) {
		times = append(times, t)
	}
	var series []RangeSeries
	a.Read(func(src Source) { series, err = EvalRange(expr, times, src) })
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data", err.Error())
		return
	}
	data := &promMatrixData{ResultType: "matrix", Result: make([]promMatrixItem, 0, len(series))}
	for _, rs := range series {
		item := promMatrixItem{Metric: rs.Labels, Values: make([][2]any, len(rs.Times))}
		for i, t := range rs.Times {
			item.Values[i] = [2]any{float64(t.UnixMilli()) / 1000, FormatValue(rs.Values[i])}
		}
		data.Result = append(data.Result, item)
	}
	writeJSON(w, http.StatusOK, struct {
		Status string          `json:"status"`
		Data   *promMatrixData `json:"data"`
	}{"success", data})
}

// parseStep reads a range query's step: float seconds or a Prometheus
// duration ("1m", "1h").
func parseStep(v string) (time.Duration, error) {
	if v == "" {
		return 0, errors.New(`cannot parse "" to a valid duration`)
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || f > 1e9 {
			return 0, fmt.Errorf("cannot parse %q to a valid duration", v)
		}
		d = time.Duration(f * float64(time.Second))
	} else if d, err = ParseDuration(v); err != nil {
		return 0, fmt.Errorf("cannot parse %q to a valid duration", v)
	}
	if d <= 0 {
		return 0, errors.New("zero or negative query resolution step widths are not accepted. Try a positive integer")
	}
	return d, nil
}

// FormatValue spells a sample the way Prometheus does.
func FormatValue(v float64) string {
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

// parseTime reads Prometheus' time parameter: unix seconds (fractions
// allowed) or RFC 3339. Empty means now.
func parseTime(v string, now time.Time) (time.Time, error) {
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
