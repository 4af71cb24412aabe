package promql

import (
	"strings"
	"testing"
	"time"
)

// Parsers of outside input never panic; whatever they accept evaluates.

func FuzzPromQL(f *testing.F) {
	for _, q := range []string{
		`fly_instance_memory_swap_total{app="sleepy-api"}`,
		`sum by (status) (increase(fly_edge_http_responses_count{app="x"}[1h]))`,
		`sum(increase(fly_app_http_responses_count{app=~"x|y",status!="200"}[24h])) by (app, status)`,
		`rate(req{instance!~'m[0-9]+'}[1h30m])`,
		"count without (instance) ({__name__=\"mem\", app=`a\\b`})",
		`sum(`, `foo{a="\x"}`, `foo[`, `max by (,) (foo)`,
	} {
		f.Add(q)
	}
	at := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, q string) {
		e, err := Parse(q)
		if err != nil {
			return
		}
		// The only query that parses yet cannot run is a bare range selector.
		inst, err := Eval(e, at, fakeSource)
		if err != nil && !strings.Contains(err.Error(), "range selector") {
			t.Errorf("%q parsed but failed to evaluate: %v", q, err)
		}
		// A range query is the instant query at each step: its last point
		// of every series is the instant sample at the end.
		times := []time.Time{at.Add(-2 * time.Hour), at.Add(-time.Hour), at}
		series, rerr := EvalRange(e, times, fakeSource)
		if (err == nil) != (rerr == nil) {
			t.Fatalf("%q: instant error %v, range error %v", q, err, rerr)
		}
		last := map[string]float64{}
		for _, rs := range series {
			if len(rs.Times) == 0 || len(rs.Times) != len(rs.Values) {
				t.Fatalf("%q: series %v has %d times and %d values", q, rs.Labels, len(rs.Times), len(rs.Values))
			}
			if rs.Times[len(rs.Times)-1].Equal(at) {
				last[LabelKey(rs.Labels)] = rs.Values[len(rs.Values)-1]
			}
		}
		for _, smp := range inst {
			if v, ok := last[LabelKey(smp.Labels)]; !ok || !(v == smp.Value || v != v && smp.Value != smp.Value) {
				t.Errorf("%q: instant %v = %v, range ends at %v (present %v)", q, smp.Labels, smp.Value, v, ok)
			}
		}
	})
}

func FuzzPromDuration(f *testing.F) {
	for _, s := range []string{"1h", "24h", "1h30m", "7d", "500ms", "0s", "99999999999y", "1m1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ParseDuration(s); err == nil && d <= 0 {
			t.Errorf("ParseDuration(%q) accepted %v", s, d)
		}
	})
}

func FuzzPromTime(f *testing.F) {
	for _, s := range []string{"", "1764504000", "1764504000.25", "-1.5", "2025-11-30T12:00:00Z", "1e300", "NaN"} {
		f.Add(s)
	}
	now := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseTime(s, now)
	})
}

func FuzzPromStep(f *testing.F) {
	for _, s := range []string{"60", "1h", "0.5", "0", "-60", "1e300", "NaN", "", "1m30s", "+Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := parseStep(s); err == nil && d <= 0 {
			t.Errorf("parseStep(%q) accepted %v", s, d)
		}
	})
}
