package waketest

import (
	"strings"
	"testing"
)

// machines builds a run's machine rows: kept running ones that answered
// servedKept each, and targets asleep at the burst of which woken woke.
func machinesOf(kept, servedKept, asleep, woken, servedWoken int) []MachineRun {
	var out []MachineRun
	for i := range kept {
		out = append(out, MachineRun{ID: "kept" + string(rune('a'+i)), AtBurst: "started", After: "started", StartedMS: -1, ServingMS: 1, Served: servedKept})
	}
	for i := range asleep {
		m := MachineRun{ID: "sleep" + string(rune('a'+i)), Target: true, Slept: "stopped", AtBurst: "stopped", StartedMS: -1, ServingMS: -1}
		if i < woken {
			m.StartedMS, m.ServingMS, m.Served, m.After = 900, 1200, servedWoken, "started"
		}
		out = append(out, m)
	}
	return out
}

func TestCoverageAndComparability(t *testing.T) {
	for _, tc := range []struct {
		name     string
		machines []MachineRun
		sent     int
		want     Coverage
		absorbed bool
	}{
		// The dashboard's first test of snappy-api: the kept machine served
		// 24 of 40, only 2 of the 5 stopped machines woke.
		{"the kept machine absorbed the burst", machinesOf(1, 24, 5, 2, 8), 40, Coverage{Asleep: 5, Woken: 2, Awake: 1, ServedByAwake: 24}, true},
		{"every target woke beside the kept one", machinesOf(1, 13, 5, 5, 12), 73, Coverage{Asleep: 5, Woken: 5, Awake: 1, ServedByAwake: 13}, false},
		{"nothing kept awake: every request went to a woken machine", machinesOf(0, 0, 5, 2, 20), 40, Coverage{Asleep: 5, Woken: 2}, false},
		{"a kept machine that answered none", machinesOf(1, 0, 5, 4, 10), 40, Coverage{Asleep: 5, Woken: 4, Awake: 1}, false},
		{"aborted before the burst", []MachineRun{{ID: "a", Target: true, StartedMS: -1}}, 0, Coverage{}, false},
		{"a machine of another group answered", append(machinesOf(0, 0, 2, 1, 5), MachineRun{ID: "x", StartedMS: -1, ServingMS: 3, Served: 7}), 12,
			Coverage{Asleep: 2, Woken: 1, Awake: 1, ServedByAwake: 7}, true},
		{"a target other traffic woke counts as awake", append(machinesOf(0, 0, 3, 2, 5), MachineRun{ID: "t", Target: true, AtBurst: "started", StartedMS: -1, Served: 9}), 19,
			Coverage{Asleep: 3, Woken: 2, Awake: 1, ServedByAwake: 9}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := Run{Mode: ModeStop, Sent: tc.sent, Machines: tc.machines}
			c := run.Coverage()
			if c != tc.want || c.Absorbed() != tc.absorbed {
				t.Errorf("coverage %+v absorbed %v, want %+v %v", c, c.Absorbed(), tc.want, tc.absorbed)
			}
			why, _ := notComparable(run, 12)
			if (why != "") != tc.absorbed {
				t.Errorf("not comparable because %q, want absorbed %v", why, tc.absorbed)
			}
			header, _ := Table([]Run{run})
			if got := strings.Contains(header[1], "(not comparable)"); got != tc.absorbed {
				t.Errorf("table header %q, absorbed %v", header[1], tc.absorbed)
			}
		})
	}
	why, fix := notComparable(Run{Mode: ModeStop, Sent: 40, Machines: machinesOf(1, 24, 5, 2, 8)}, 12)
	if want := "the 1 machine awake answered 24 of our 40 requests, so only 2 of the 5 machines put to sleep woke"; !strings.Contains(why, want) {
		t.Errorf("reason %q lacks %q", why, want)
	}
	if want := "send at least 73 requests, or put every machine to sleep (flywake wake --all)"; fix != want {
		t.Errorf("remedy %q, want %q", fix, want)
	}
	if _, fix := notComparable(Run{Mode: ModeStop, Sent: 40, Machines: machinesOf(1, 24, 5, 2, 8)}, 0); fix != "" {
		t.Errorf("no soft limit recorded, yet a remedy: %q", fix)
	}
}

func TestRequestsToWakeEveryTarget(t *testing.T) {
	for _, tc := range []struct {
		n, awake, asleep, soft  int
		maxWoken, need, suggest int
	}{
		{40, 1, 5, 12, 3, 61, 73}, // snappy-api: 12 go to the kept machine, 12 held for each of 3 woken
		{12, 1, 5, 12, 0, 61, 73}, // all taken by the kept machine
		{13, 1, 5, 12, 1, 61, 73},
		{200, 1, 5, 12, 5, 61, 73},
		{40, 0, 9, 25, 2, 201, 226}, // nothing awake: the first request wakes one
		{40, 2, 0, 20, 0, 0, 0},     // nothing to wake
		{5, 0, 3, 0, 3, 3, 4},       // a soft limit of 0 counts as 1
	} {
		if got := MaxWoken(tc.n, tc.awake, tc.asleep, tc.soft); got != tc.maxWoken {
			t.Errorf("MaxWoken(%d, %d awake, %d asleep, soft %d) = %d, want %d", tc.n, tc.awake, tc.asleep, tc.soft, got, tc.maxWoken)
		}
		if got := NeededRequests(tc.awake, tc.asleep, tc.soft); got != tc.need {
			t.Errorf("NeededRequests(%d, %d, %d) = %d, want %d", tc.awake, tc.asleep, tc.soft, got, tc.need)
		}
		if got := SuggestedRequests(tc.awake, tc.asleep, tc.soft); got != tc.suggest {
			t.Errorf("SuggestedRequests(%d, %d, %d) = %d, want %d", tc.awake, tc.asleep, tc.soft, got, tc.suggest)
		}
	}
}

func TestPlanOffersTheRemedy(t *testing.T) {
	targets := func(n int) []Target {
		out := make([]Target, n)
		for i := range out {
			out[i] = Target{ID: "t" + string(rune('a'+i)), State: "stopped"}
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		plan     Plan
		requests int
		want     []string // "" in want: no advice
	}{
		{"snappy-api's default burst", Plan{Targets: targets(5), Running: 1, SoftLimit: 12}, 40, []string{
			"1 machine stays up: it takes 12 requests at once (soft limit 12 each)",
			"40 requests wake at most 3 of the 5 targets", "send at least 73 requests", "--all"}},
		{"enough requests", Plan{Targets: targets(5), Running: 1, SoftLimit: 12}, 73, nil},
		{"nothing stays running", Plan{Targets: targets(5), SoftLimit: 12}, 40, nil},
		{"more than the test can send", Plan{Targets: targets(100), Running: 3, SoftLimit: 25}, 2000, []string{
			"put every machine to sleep (flywake wake --all): waking all 100 would take 2,576 requests"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.plan.WakeAdvice(tc.requests)
			if (got == "") != (len(tc.want) == 0) {
				t.Fatalf("advice %q", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("advice %q lacks %q", got, w)
				}
			}
		})
	}
}

// The headline never shows stop faster than suspend without the warning,
// and a result saved before the judgement was recorded is judged from its
// machines.
func TestReportComparison(t *testing.T) {
	run := func(mode Mode, p50 int64, machines []MachineRun) Run {
		return Run{Mode: mode, Sent: 40, OK: 40, P50MS: p50, Machines: machines}
	}
	clean := func() []MachineRun { return machinesOf(1, 13, 5, 5, 12) }
	for _, tc := range []struct {
		name string
		runs []Run
		ok   bool
		want string
	}{
		{"a clean comparison", []Run{run(ModeStop, 8000, clean()), run(ModeSuspend, 450, clean())}, true, ""},
		{"the dashboard's first test: the kept machine made stop look fast",
			[]Run{run(ModeStop, 159, machinesOf(1, 24, 5, 2, 8)), run(ModeSuspend, 461, clean())}, false,
			"stop run: the 1 machine awake answered 24 of our 40 requests"},
		{"stop faster than suspend for another reason",
			[]Run{run(ModeStop, 300, clean()), run(ModeSuspend, 461, clean())}, false,
			"the stop run answered faster than the suspend run (p50 300ms against 461ms)"},
		{"one mode only, absorbed", []Run{run(ModeSuspend, 200, machinesOf(2, 30, 4, 1, 10))}, false, "suspend run: the 2 machines awake"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Runs: tc.runs, SoftLimit: 12}
			ok, because, _ := r.Comparison()
			if ok != tc.ok || (tc.want != "" && !strings.Contains(strings.Join(because, " | "), tc.want)) || (ok && len(because) > 0) {
				t.Errorf("comparable %v because %q, want %v with %q", ok, because, tc.ok, tc.want)
			}
			r.judge()
			if r.Comparable != ok || len(r.NotComparableBecause) != len(because) {
				t.Errorf("judge recorded %v %q", r.Comparable, r.NotComparableBecause)
			}
		})
	}
}
