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
	if err := checkName("organization", org); err != nil {
		return PromResult{}, err
	}
	k := call{op: "query metrics of " + org, scope: otherScope}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	q := url.Values{"query": {query}}
	if !at.IsZero() {
		q.Set("time", strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64))
	}
	u := c.apiBase.JoinPath("prometheus", org, "api", "v1", "query")
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return PromResult{}, c.fail(ctx, k, err)
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
		return PromResult{}, c.fail(ctx, k, err)
	}
	res, err := parsePromQuery(raw)
	if err != nil {
		return PromResult{}, c.fail(ctx, k, err)
	}
	return res, nil
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
