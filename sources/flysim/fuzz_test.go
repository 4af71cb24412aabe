package flysim

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
		e, err := parsePromQL(q)
		if err != nil {
			return
		}
		// The only query that parses yet cannot run is a bare range selector.
		if _, err := evalPromQL(e, at, fakeSource); err != nil && !strings.Contains(err.Error(), "range selector") {
			t.Errorf("%q parsed but failed to evaluate: %v", q, err)
		}
	})
}

func FuzzPromDuration(f *testing.F) {
	for _, s := range []string{"1h", "24h", "1h30m", "7d", "500ms", "0s", "99999999999y", "1m1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := parsePromDuration(s); err == nil && d <= 0 {
			t.Errorf("parsePromDuration(%q) accepted %v", s, d)
		}
	})
}

func FuzzPromTime(f *testing.F) {
	for _, s := range []string{"", "1764504000", "1764504000.25", "-1.5", "2025-11-30T12:00:00Z", "1e300", "NaN"} {
		f.Add(s)
	}
	now := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parsePromTime(s, now)
	})
}

func FuzzLogsNextToken(f *testing.F) {
	for _, s := range []string{"", "0", "1764496800123456789", "-5", "9223372036854775807", "9223372036854775808", "1e9", " 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at, ok, err := parseNextToken(s)
		if err != nil {
			return
		}
		if ok && at.Before(time.Unix(0, 0)) {
			t.Errorf("parseNextToken(%q) = %v, before the epoch", s, at)
		}
		if ok {
			// The cursor round-trips, so an empty page hands back what it got.
			if back, _, _ := parseNextToken(formatNextToken(at)); !back.Equal(at) {
				t.Errorf("token %q does not round-trip", s)
			}
		}
	})
}
