package promql

import (
	"strings"
	"testing"
	"time"
)

func TestParsePromQLErrors(t *testing.T) {
	tests := []struct {
		query, wantErr string
	}{
		{"", "empty query"},
		{"sum(", "empty query"},
		{"sum(foo", "expected ')'"},
		{"foo{app=}", "quoted label value"},
		{"foo{app==\"x\"}", "unsupported operator"},
		{"foo{app=~\"(\"}", "bad regex"},
		{"foo{1app=\"x\"}", "unexpected character"},
		{"foo[1h", "unclosed '['"},
		{"foo[0m]", "bad duration"},
		{"foo[1m1h]", "bad duration"},
		{"foo[h]", "bad duration"},
		{"{app=~\".*\"}", "metric name"},
		{"sum by (status) (foo) by (app)", "second grouping"},
		{"sum by status (foo)", "'(' after by/without"},
		{"increase(sum(foo))", "metric name"},
		{"foo bar", "unexpected \"bar\""},
		{"foo{app=\"x", "unterminated string"},
		{strings.Repeat("sum(", 40) + "foo" + strings.Repeat(")", 40), "nested too deeply"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.query)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Parse(%q) error = %v, want one containing %q", tt.query, err, tt.wantErr)
		}
	}
}

func TestParsePromDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"1h", time.Hour},
		{"24h", 24 * time.Hour},
		{"90m", 90 * time.Minute},
		{"7d", 7 * 24 * time.Hour},
		{"1h30m", 90 * time.Minute},
		{"1w2d", 9 * 24 * time.Hour},
		{"500ms", 500 * time.Millisecond},
		{"1m30s", 90 * time.Second},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "1", "h1", "1x", "1s1m", "1h1h", "999999999y", "-1h", "1.5h"} {
		if d, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", bad, d)
		}
	}
}

// fakeSource serves fixed counters: each series has a total and an increase
// of one per minute of window (so [1h] gives 60, [24h] gives 1440) scaled by
// its rate label.
func fakeSource(name string) map[string][]Series {
	mk := func(rate float64, labels map[string]string) Series {
		return Series{
			Labels:   labels,
			ValueAt:  func(time.Time) float64 { return rate * 10000 },
			Increase: func(from, to time.Time) float64 { return rate * to.Sub(from).Minutes() },
		}
	}
	all := map[string][]Series{
		"req": {
			mk(1, map[string]string{"app": "a", "status": "200", "instance": "m1"}),
			mk(2, map[string]string{"app": "a", "status": "200", "instance": "m2"}),
			mk(3, map[string]string{"app": "a", "status": "502", "instance": "m1"}),
			mk(4, map[string]string{"app": "b", "status": "200", "instance": "m3"}),
		},
		"mem": {{Labels: map[string]string{"app": "a", "instance": "m1"}, ValueAt: func(time.Time) float64 { return 7 }}},
	}
	if name == "" {
		return all
	}
	return map[string][]Series{name: all[name]}
}

func TestEvalPromQL(t *testing.T) {
	at := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		query string
		want  string // samples as "labels=value;" in sorted order
	}{
		{`req{app="b"}`, `__name__="req",app="b",instance="m3",status="200",=40000;`},
		{`mem`, `__name__="mem",app="a",instance="m1",=7;`},
		{`sum(req)`, `=100000;`},
		{`sum by (status) (increase(req[1h]))`, `status="200",=420;status="502",=180;`},
		{`sum(increase(req[1h])) by (status)`, `status="200",=420;status="502",=180;`},
		{`sum by (app, status) (increase(req[24h]))`, `app="a",status="200",=4320;app="a",status="502",=4320;app="b",status="200",=5760;`},
		{`sum without (instance) (increase(req{app="a"}[1h]))`, `app="a",status="200",=180;app="a",status="502",=180;`},
		{`increase(req{app="a",status!="200"}[30m])`, `app="a",instance="m1",status="502",=90;`},
		{`increase(req{instance=~"m[23]"}[1h])`, `app="a",instance="m2",status="200",=120;app="b",instance="m3",status="200",=240;`},
		{`increase(req{instance!~"m[23]"}[1h])`, `app="a",instance="m1",status="200",=60;app="a",instance="m1",status="502",=180;`},
		{`rate(req{app="b"}[1m])`, `app="b",instance="m3",status="200",=0.06666666666666667;`},
		{`increase(req{app="b"})`, `app="b",instance="m3",status="200",=20;`}, // default 5m window
		{`count by (app) (req)`, `app="a",=3;app="b",=1;`},
		{`max(increase(req[1h]))`, `=240;`},
		{`min by (app) (increase(req[1h]))`, `app="a",=60;app="b",=240;`},
		{`avg(increase(req{app="a"}[1h]))`, `=120;`},
		{`{__name__="mem"}`, `__name__="mem",app="a",instance="m1",=7;`},
		{`increase(mem[1h])`, `app="a",instance="m1",=0;`},
		{`sum(nothing)`, ``},
		{`req{app="zzz"}`, ``},
	}
	for _, tt := range tests {
		e, err := Parse(tt.query)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.query, err)
			continue
		}
		got, err := Eval(e, at, fakeSource)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.query, err)
			continue
		}
		var b strings.Builder
		for _, s := range got {
			b.WriteString(LabelKey(s.Labels) + "=" + FormatValue(s.Value) + ";")
		}
		if b.String() != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.query, b.String(), tt.want)
		}
	}
}

func TestEvalPromQLRangeSelectorNeedsFunction(t *testing.T) {
	e, err := Parse(`req[1h]`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Eval(e, time.Now(), fakeSource); err == nil {
		t.Error("a bare range selector should be refused in an instant query")
	}
}

func TestParsePromTime(t *testing.T) {
	now := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"", now},
		{"1764504000", now},
		{"1764504000.25", now.Add(250 * time.Millisecond)},
		{"2025-11-30T12:00:00Z", now},
		{"2025-11-30T13:00:00.5+01:00", now.Add(500 * time.Millisecond)},
	}
	for _, tt := range tests {
		got, err := parseTime(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseTime(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"now", "NaN", "Inf", "1e12", "2025-11-30"} {
		if got, err := parseTime(bad, now); err == nil {
			t.Errorf("parseTime(%q) = %v, want an error", bad, got)
		}
	}
}
