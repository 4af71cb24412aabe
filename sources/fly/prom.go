package fly

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// PromSample is one series of an instant query.
type PromSample struct {
	Labels map[string]string
	Value  float64
	Time   time.Time
}

// PromResult is an instant query's answer ("vector" or "scalar").
type PromResult struct {
	ResultType string
	Samples    []PromSample
}

// PromQuery runs an instant PromQL query against the org's managed
// Prometheus. A zero at means "now" on the server.
func (c *Client) PromQuery(ctx context.Context, org, query string, at time.Time) (PromResult, error) {
	q := url.Values{"query": {query}}
	if !at.IsZero() {
		q.Set("time", promTime(at))
	}
	raw, err := c.promGet(ctx, org, "query", q)
	if err != nil {
		return PromResult{}, err
	}
	res, err := parsePromQuery(raw)
	if err != nil {
		return PromResult{}, c.fail(ctx, call{op: "query metrics of " + org, scope: otherScope}, err)
	}
	sanitize.RedactAll(&res) // decoded: a JSON escape no longer hides the token
	return res, nil
}

// PromSeries is one series of a range query: its labels and its points,
// oldest first. A point Prometheus had no data for is absent, not zero.
type PromSeries struct {
	Labels map[string]string
	Points []PromPoint
}

// PromPoint is one evaluation of a range query.
type PromPoint struct {
	Time  time.Time
	Value float64
}

// PromMaxPoints is Prometheus's limit on points per series of one range
// query (start to end in steps); a day at one-minute steps is 1,441.
const PromMaxPoints = 11_000

// PromQueryRange runs a PromQL range query (/api/v1/query_range, which Fly's
// managed Prometheus serves): the expression evaluated at start, start+step,
// … up to end.
func (c *Client) PromQueryRange(ctx context.Context, org, query string, start, end time.Time, step time.Duration) ([]PromSeries, error) {
	k := call{op: "query metrics of " + org, scope: otherScope}
	switch {
	case step <= 0:
		return nil, c.fail(ctx, k, fmt.Errorf("range query step %v: want a positive step", step))
	case end.Before(start):
		return nil, c.fail(ctx, k, errors.New("range query ends before it starts"))
	case end.Sub(start)/step >= PromMaxPoints:
		return nil, c.fail(ctx, k, fmt.Errorf("range query of %v in %v steps exceeds Prometheus's %d points", end.Sub(start), step, PromMaxPoints))
	}
	q := url.Values{"query": {query}, "start": {promTime(start)}, "end": {promTime(end)},
		"step": {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)}}
	raw, err := c.promGet(ctx, org, "query_range", q)
	if err != nil {
		return nil, err
	}
	res, err := parsePromMatrix(raw)
	if err != nil {
		return nil, c.fail(ctx, k, err)
	}
	sanitize.RedactAll(&res)
	return res, nil
}

// promTime spells a time as Prometheus's unix seconds with milliseconds.
func promTime(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', 3, 64)
}

// promGet sends one Prometheus API GET (endpoint "query" or "query_range")
// and returns the raw answer of a 2xx.
func (c *Client) promGet(ctx context.Context, org, endpoint string, q url.Values) (json.RawMessage, error) {
	if err := checkName("organization", org); err != nil {
		return nil, err
	}
	k := call{op: "query metrics of " + org, scope: otherScope}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	u := c.apiBase.JoinPath("prometheus", org, "api", "v1", endpoint)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, c.fail(ctx, k, err)
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", "application/json")
	if c.toks != nil {
		req.Header.Set("Authorization", c.toks.FlapsHeader()) // Bearer for user tokens, FlyV1 for macaroons
	}
	var raw json.RawMessage
	if err := c.doJSON(c.apiHC, req, &raw); err != nil {
		var he *httpStatusError
		if errors.As(err, &he) {
			he.Text = promErrorText(he.Text)
		}
		return nil, c.fail(ctx, k, err)
	}
	return raw, nil
}

type promEnvelope struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	} `json:"data"`
}

// parsePromQuery decodes a Prometheus /api/v1/query answer.
func parsePromQuery(body []byte) (PromResult, error) {
	var env promEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return PromResult{}, fmt.Errorf("prometheus answer is not JSON: %w", err)
	}
	if env.Status != "success" {
		return PromResult{}, fmt.Errorf("prometheus query failed (%s): %s", env.ErrorType, env.Error)
	}
	res := PromResult{ResultType: env.Data.ResultType}
	switch env.Data.ResultType {
	case "vector":
		var series []struct {
			Metric map[string]string `json:"metric"`
			Value  json.RawMessage   `json:"value"`
		}
		if err := json.Unmarshal(env.Data.Result, &series); err != nil {
			return PromResult{}, fmt.Errorf("prometheus vector result: %w", err)
		}
		for i, s := range series {
			at, v, err := parsePromPoint(s.Value)
			if err != nil {
				return PromResult{}, fmt.Errorf("prometheus sample %d: %w", i, err)
			}
			labels := s.Metric
			if labels == nil {
				labels = map[string]string{}
			}
			res.Samples = append(res.Samples, PromSample{Labels: labels, Value: v, Time: at})
		}
	case "scalar":
		at, v, err := parsePromPoint(env.Data.Result)
		if err != nil {
			return PromResult{}, fmt.Errorf("prometheus scalar: %w", err)
		}
		res.Samples = []PromSample{{Labels: map[string]string{}, Value: v, Time: at}}
	default:
		return PromResult{}, fmt.Errorf("prometheus result type %q is not supported (instant vector or scalar expected)", env.Data.ResultType)
	}
	return res, nil
}

// parsePromMatrix decodes a Prometheus /api/v1/query_range answer.
func parsePromMatrix(body []byte) ([]PromSeries, error) {
	var env promEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("prometheus answer is not JSON: %w", err)
	}
	if env.Status != "success" {
		return nil, fmt.Errorf("prometheus query failed (%s): %s", env.ErrorType, shorten(env.Error))
	}
	if env.Data.ResultType != "matrix" {
		return nil, fmt.Errorf("prometheus result type %q is not supported (a range query answers a matrix)", shorten(env.Data.ResultType))
	}
	var series []struct {
		Metric map[string]string `json:"metric"`
		Values []json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(env.Data.Result, &series); err != nil {
		return nil, fmt.Errorf("prometheus matrix result: %w", err)
	}
	out := make([]PromSeries, 0, len(series))
	for i, s := range series {
		ps := PromSeries{Labels: s.Metric, Points: make([]PromPoint, 0, len(s.Values))}
		if ps.Labels == nil {
			ps.Labels = map[string]string{}
		}
		for j, raw := range s.Values {
			at, v, err := parsePromPoint(raw)
			if err != nil {
				return nil, fmt.Errorf("prometheus series %d point %d: %w", i, j, err)
			}
			if n := len(ps.Points); n > 0 && !at.After(ps.Points[n-1].Time) {
				return nil, fmt.Errorf("prometheus series %d point %d: timestamps out of order", i, j)
			}
			ps.Points = append(ps.Points, PromPoint{Time: at, Value: v})
		}
		out = append(out, ps)
	}
	return out, nil
}

// parsePromPoint decodes [<unix seconds>, "<value>"].
func parsePromPoint(raw json.RawMessage) (time.Time, float64, error) {
	var pair []json.RawMessage
	if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
		return time.Time{}, 0, fmt.Errorf("value must be [timestamp, \"number\"], got %s", shorten(string(raw)))
	}
	var ts float64
	if err := json.Unmarshal(pair[0], &ts); err != nil || math.IsNaN(ts) || math.IsInf(ts, 0) {
		return time.Time{}, 0, fmt.Errorf("bad timestamp %s", shorten(string(pair[0])))
	}
	var vs string
	if err := json.Unmarshal(pair[1], &vs); err != nil {
		return time.Time{}, 0, fmt.Errorf("value must be a string, got %s", shorten(string(pair[1])))
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(vs), 64)
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("value %q is not a number", shorten(vs))
	}
	sec, frac := math.Modf(ts)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), v, nil
}

// promErrorText prefers Prometheus's own error field in a non-2xx body.
func promErrorText(body string) string {
	var env promEnvelope
	if json.Unmarshal([]byte(body), &env) == nil && env.Error != "" {
		return env.Error
	}
	return body
}

func shorten(s string) string {
	const n = 80
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
