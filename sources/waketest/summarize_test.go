package waketest

import (
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/edge"
	"github.com/flywake/flywake/sources/words"
)

func TestMissingText(t *testing.T) {
	res := func(idx ...int) []edge.Result {
		var out []edge.Result
		for _, i := range idx {
			out = append(out, edge.Result{Index: i, ErrClass: edge.ErrNone, Status: 200})
		}
		return out
	}
	cut := edge.Result{Index: 3, ErrClass: edge.ErrAborted}
	tests := []struct {
		name    string
		planned int
		results []edge.Result
		want    string
	}{
		{"all there", 3, res(0, 1, 2), ""},
		{"tail not sent", 40, res(seq(22)...), "requests 23–40 not sent: aborted"},
		{"none sent", 5, nil, "requests 1–5 not sent: aborted"},
		{"holes", 6, res(0, 2, 3), "requests 2, 5–6 not sent: aborted"},
		{"one", 3, res(0, 1), "request 3 not sent: aborted"},
		{"cut off in flight", 4, append(res(0, 1, 2), cut), "1 cut off in flight (no outcome): aborted"},
	}
	for _, tt := range tests {
		if got := missingText(tt.planned, tt.results, "aborted"); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestSummarizeScalesToPlatformTimeAndFindsGaps(t *testing.T) {
	wall0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	plat0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline{wall0: wall0, plat0: plat0, speed: 10}
	ms := time.Millisecond
	results := []edge.Result{
		{Index: 0, Sent: wall0, TTFB: 5 * ms, Total: 6 * ms, Status: 200, ErrClass: edge.ErrNone, Machine: "kept"},
		{Index: 1, Sent: wall0.Add(ms), TTFB: 2800 * ms, Total: 2801 * ms, Status: 200, ErrClass: edge.ErrNone, Machine: "woke"},
		{Index: 2, Sent: wall0.Add(ms), TTFB: 3000 * ms, Total: 3000 * ms, Status: 502, ErrClass: edge.ErrProxy5xx},
		{Index: 3, Sent: wall0.Add(2 * ms), Total: 100 * ms, ErrClass: edge.ErrAborted},
	}
	obs := []*machineObs{
		{id: "kept", before: "started", atBurst: "started", last: "started"},
		{id: "woke", target: true, before: "started", slept: "stopped", atBurst: "stopped", last: "started",
			wakeAt: plat0.Add(100 * ms), startedAt: plat0.Add(1500 * ms), wake: "cold boot", wokenBy: "fly-proxy"},
		{id: "other", target: true, slept: "suspended", refused: "", atBurst: "suspended", last: "started",
			wakeAt: plat0.Add(5 * time.Second), startedAt: plat0.Add(5300 * ms), wake: "resume"},
		{id: "swap", target: true, slept: "stopped", refused: "failed_precondition: Machines with swap cannot be suspended", fellBack: true},
		{id: "swap2", target: true, slept: "stopped", refused: "failed_precondition: Machines with swap cannot be suspended", fellBack: true},
	}
	r := summarize(ModeSuspend, 5, results, obs, tl, true)
	checks := []struct {
		name      string
		got, want any
	}{
		{"ok", r.OK, 2}, {"failed", r.Failed, 1}, {"cut off", r.CutOff, 1}, {"sent", r.Sent, 4},
		{"max ms (10×)", r.MaxMS, int64(30000)}, {"slowest 200", r.SlowestMS, int64(28010)},
		{"first 200", r.First200MS, int64(60)}, {"woken", r.MachinesWoken, 2},
		{"gap", r.StartedToServingMS["woke"], int64(28010 - 1500)},
		{"unserved", strings.Join(r.WokenUnserved, ","), "other"},
		{"blocked", strings.Join(r.SuspendBlockedBy, "|"), "failed_precondition: Machines with swap cannot be suspended"},
		{"fell back", r.FellBackToStop, true},
		{"status 502", r.ByStatus["502"], 1}, {"no answer", r.ByStatus["0"], 1},
		{"ttfb unknown", r.Results[3].TTFBMS, int64(-1)}, {"sent ms", r.Results[1].SentMS, int64(10)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if m := r.Machines[1]; m.WakeMS != 100 || m.StartedMS != 1500 || m.ServingMS != 28010 || m.Served != 1 || m.Wake != "cold boot" {
		t.Errorf("machine row %+v", m)
	}
	if m := r.Machines[0]; m.StartedMS != -1 || m.Served != 1 {
		t.Errorf("kept machine row %+v", m)
	}
}

func TestApplyStartEvents(t *testing.T) {
	since := time.UnixMilli(1_000_000)
	ev := func(typ, status, source string, ms int64) *fly.MachineEvent {
		return &fly.MachineEvent{Type: typ, Status: status, Source: source, Timestamp: ms}
	}
	tests := []struct {
		name            string
		events          []*fly.MachineEvent
		wantWake        string
		wantBy          string
		wantBegan, want int64 // ms; 0 = none
	}{
		{"cold boot by the proxy", []*fly.MachineEvent{ev("start", "started", "flyd", 1_030_000), ev("start", "starting", "fly-proxy", 1_000_500),
			ev("exit", "stopped", "flyd", 999_000)}, "cold boot", "fly-proxy", 1_000_500, 1_030_000},
		{"resume", []*fly.MachineEvent{ev("start", "started", "flyd", 1_000_400), ev("start", "resuming", "fly-proxy", 1_000_100)},
			"resume", "fly-proxy", 1_000_100, 1_000_400},
		{"events before the burst are the sleep phase's", []*fly.MachineEvent{ev("suspend", "suspended", "flyd", 999_900),
			ev("start", "started", "flyd", 999_000), ev("start", "starting", "user", 990_000)}, "", "", 0, 0},
		{"started seen without its begin", []*fly.MachineEvent{ev("start", "started", "flyd", 1_002_000)}, "", "", 0, 1_002_000},
	}
	for _, tt := range tests {
		o := &machineObs{}
		applyStartEvents(o, tt.events, since)
		got := func(t time.Time) int64 {
			if t.IsZero() {
				return 0
			}
			return t.UnixMilli()
		}
		if o.wake != tt.wantWake || o.wokenBy != tt.wantBy || got(o.wakeAt) != tt.wantBegan || got(o.startedAt) != tt.want {
			t.Errorf("%s: wake %q by %q began %d started %d", tt.name, o.wake, o.wokenBy, got(o.wakeAt), got(o.startedAt))
		}
	}
}

func TestTableAndFormat(t *testing.T) {
	stop := Run{Mode: ModeStop, Requests: 40, Sent: 40, OK: 28, Failed: 12, ByStatus: map[string]int{"200": 28, "502": 12},
		P50MS: 27894, P95MS: 30323, MaxMS: 31000, First200MS: 120, SlowestMS: 29900, MachinesWoken: 3,
		StartedToServingMS: map[string]int64{"a": 26448, "b": 26739}, WokenUnserved: []string{"c"}, Representative: true}
	sus := Run{Mode: ModeSuspend, Requests: 40, Sent: 40, OK: 40, ByStatus: map[string]int{"200": 40}, P50MS: 300, P95MS: 420,
		MaxMS: 430, First200MS: 35, SlowestMS: 430, MachinesWoken: 3, StartedToServingMS: map[string]int64{"a": 40},
		SuspendBlockedBy: []string{"failed_precondition: Machines with swap cannot be suspended"}, FellBackToStop: true}
	header, rows := Table([]Run{stop, sus})
	if strings.Join(header, "|") != "|stop|suspend (not representative)" {
		t.Errorf("header %q", header)
	}
	want := map[string][2]string{
		"ok / failed":       {"28 / 12 of 40", "40 / 0 of 40"},
		"statuses":          {"200×28 502×12", "200×40"},
		"p50 / p95 / max":   {"27.9s / 30.3s / 31.0s", "300ms / 420ms / 430ms"},
		"machines woken":    {"3 (1 served none of ours)", "3"},
		"started → serving": {"26.4s – 26.7s (2 machines)", "40ms (1 machine)"},
		"suspend":           {words.Missing, "blocked by: failed_precondition: Machines with swap cannot be suspended → fell back to stop"},
	}
	seen := 0
	for _, r := range rows {
		if w, ok := want[r.Label]; ok {
			seen++
			if r.Cells[0] != w[0] || r.Cells[1] != w[1] {
				t.Errorf("%s = %q, want %q", r.Label, r.Cells, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d rows", seen, len(want))
	}
	for ms, want := range map[int64]string{-1: words.Missing, 0: "0ms", 999: "999ms", 2100: "2.1s", 125_000: "2m05s"} {
		if got := FormatMS(ms); got != want {
			t.Errorf("FormatMS(%d) = %q, want %q", ms, got, want)
		}
	}
}

func TestTableSuspendCell(t *testing.T) {
	tests := []struct {
		name string
		run  Run
		want string
	}{
		{"not run", Run{Mode: ModeSuspend, Aborted: true, Missing: "run not started: aborted"}, words.Missing},
		{"suspended", Run{Mode: ModeSuspend, Machines: []MachineRun{{Target: true, Slept: "suspended"}, {Target: true, Slept: "suspended"}, {Slept: ""}}}, "2 suspended"},
		{"fell back without text", Run{Mode: ModeSuspend, FellBackToStop: true}, "fell back to stop"},
		{"stop run", Run{Mode: ModeStop}, words.Missing},
	}
	for _, tt := range tests {
		_, rows := Table([]Run{tt.run})
		for _, r := range rows {
			if r.Label == "suspend" && r.Cells[0] != tt.want {
				t.Errorf("%s: suspend cell %q, want %q", tt.name, r.Cells[0], tt.want)
			}
		}
	}
}
