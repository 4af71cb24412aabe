package verdict

import (
	"strconv"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
)

var deployAt = time.Date(2025, 9, 25, 10, 0, 0, 0, time.UTC)

// sim is a tiny platform for table cases: machines with an event list the
// platform trims to keep (newest first), as the Machines API lists them.
type sim struct {
	clock time.Time
	keep  int
	ms    []*fly.Machine
}

func newSim() *sim { return &sim{clock: deployAt, keep: 5} }

// machine adds a machine on release rel, updated to it at the sim's clock.
func (s *sim) machine(id, rel, state string, checks ...string) *fly.Machine {
	m := &fly.Machine{ID: id, Region: "ams", State: state, InstanceID: "v-" + rel,
		CreatedAt: deployAt.Add(-time.Hour).Format(time.RFC3339),
		Config:    &fly.MachineConfig{Metadata: map[string]string{fly.MachineConfigMetadataKeyFlyReleaseVersion: rel}}}
	for _, c := range checks {
		m.Checks = append(m.Checks, &fly.MachineCheckStatus{Name: "http", Status: fly.ConsulCheckStatus(c)})
	}
	s.ms = append(s.ms, m)
	s.event(m, "update", "replacing", "user")
	if state == "started" {
		s.event(m, "start", "started", "flyd")
	}
	return m
}

func (s *sim) event(m *fly.Machine, typ, status, source string) {
	e := &fly.MachineEvent{Type: typ, Status: status, Source: source, Timestamp: s.clock.UnixMilli()}
	m.Events = append([]*fly.MachineEvent{e}, m.Events...)
	if len(m.Events) > s.keep {
		m.Events = m.Events[:s.keep]
	}
}

func (s *sim) exit(m *fly.Machine, code int, requested, restarting bool) {
	ee := &fly.MachineExitEvent{ExitCode: code, RequestedStop: requested, Restarting: restarting, ExitedAt: s.clock}
	e := &fly.MachineEvent{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: s.clock.UnixMilli(),
		Request: &fly.MachineRequest{ExitEvent: ee}}
	m.Events = append([]*fly.MachineEvent{e}, m.Events...)
	if len(m.Events) > s.keep {
		m.Events = m.Events[:s.keep]
	}
}

// crashCycle: the app dies 2.5 s after a start and flyd restarts it ~1 s later.
func (s *sim) crashCycle(m *fly.Machine) {
	s.clock = s.clock.Add(2500 * time.Millisecond)
	s.exit(m, 1, false, true)
	s.clock = s.clock.Add(1100 * time.Millisecond)
	s.event(m, "start", "started", "flyd")
	m.State = "started"
}

func (s *sim) wait(d time.Duration) { s.clock = s.clock.Add(d) }

func (s *sim) observe(j *Judge) Result { return j.Observe(plain(s.ms), s.clock) }

func mustMachine(t *testing.T, r Result, id string) Machine {
	t.Helper()
	m, ok := r.Machine(id)
	if !ok {
		t.Fatalf("machine %s missing from %+v", id, r.Machines)
	}
	return m
}

// The counted-crashes regression: a release that crashes 2.5 s after every start,
// judged once its five-event list is full. The count of crashes in the list
// is the same at every look; the newest crash's time is not, and the
// verdict fails at the second look with the crash-loop sentence.
func TestCrashLoopWithAFullEventListFails(t *testing.T) {
	s := newSim()
	m := s.machine("m1", "43", "started")
	for range 4 {
		s.crashCycle(m)
	}
	j := New(Options{})
	var r Result
	for look := 1; look <= 3 && r.Outcome == Undecided; look++ {
		if look > 1 {
			// Wait out the settle; the machine keeps crashing meanwhile,
			// and the next look is taken when it looks started again.
			for s.clock.Before(r.NextLook) {
				s.crashCycle(m)
			}
		}
		r = s.observe(j)
	}
	if r.Outcome != Failed || r.Reason != diagnose.CrashLoopReason {
		t.Fatalf("outcome %v %q, want failed with %q", r.Outcome, r.Reason, diagnose.CrashLoopReason)
	}
	got := mustMachine(t, r, "m1")
	if got.LookCount != 2 || got.Status != StatusFailed || got.Crash.Kind != diagnose.CrashLooping {
		t.Fatalf("m1: %d looks, %v, %v; want failed crash-looping at the second look", got.LookCount, got.Status, got.Crash.Kind)
	}
	for _, l := range got.Looks {
		if l.VisibleCrashes != got.Looks[0].VisibleCrashes || l.VisibleCrashes == 0 {
			t.Fatalf("crashes visible per look %v: the simulation should keep the count flat", looksCounts(got.Looks))
		}
	}
	if !got.Looks[1].NewestCrash.After(got.Looks[0].NewestCrash) {
		t.Fatalf("newest crash did not move between looks: %v", got.Looks)
	}
	if codes := got.ExitCodes(); len(codes) == 0 || codes[0] != 1 {
		t.Errorf("exit codes %v, want 1s", codes)
	}
	if got.FirstCrash.IsZero() || !got.FirstCrash.Before(got.Crash.NewestCrash) {
		t.Errorf("first crash %v, newest %v", got.FirstCrash, got.Crash.NewestCrash)
	}
	if r.Outcome.ExitCode() != ExitFailed {
		t.Errorf("exit code %d", r.Outcome.ExitCode())
	}
}

func looksCounts(ls []Look) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.VisibleCrashes)
	}
	return out
}

func TestJudgeScenarios(t *testing.T) {
	type step struct {
		before func(s *sim)
		want   Outcome
		status map[string]Status // per machine, when set
	}
	for _, tc := range []struct {
		name   string
		opts   Options
		setup  func(s *sim)
		steps  []step
		reason string // in the final reason
	}{
		{
			name:  "healthy: two looks and passing checks",
			setup: func(s *sim) { s.machine("m1", "43", "started", "passing") },
			steps: []step{
				{nil, Undecided, map[string]Status{"m1": StatusLooking}},
				{func(s *sim) { s.wait(5 * time.Second) }, Live, map[string]Status{"m1": StatusLive}},
			},
			reason: "is live",
		},
		{
			name: "slow boot is not a failure: live once the checks pass",
			setup: func(s *sim) {
				s.machine("m1", "43", "started", "critical")
			},
			steps: []step{
				{nil, Undecided, nil},
				{func(s *sim) { s.wait(10 * time.Second) }, Undecided, map[string]Status{"m1": StatusLooking}},
				{func(s *sim) { s.wait(10 * time.Second) }, Undecided, map[string]Status{"m1": StatusLooking}},
				{func(s *sim) {
					s.wait(12 * time.Second)
					s.ms[0].Checks[0].Status = "passing"
				}, Live, nil},
			},
		},
		{
			name: "crashed once and stayed up: live, the crash named",
			setup: func(s *sim) {
				m := s.machine("m1", "43", "started")
				s.crashCycle(m)
			},
			steps: []step{
				{nil, Undecided, map[string]Status{"m1": StatusLooking}},
				{func(s *sim) { s.wait(6 * time.Second) }, Live, map[string]Status{"m1": StatusLive}},
			},
			reason: "crashed at 2025-09-25T10:00:02.500Z (exit code 1) and stayed up",
		},
		{
			name: "a crash first seen at the second look takes a third",
			setup: func(s *sim) {
				s.machine("m1", "43", "started")
			},
			steps: []step{
				{nil, Undecided, nil},
				{func(s *sim) { s.crashCycle(s.ms[0]); s.wait(3 * time.Second) }, Undecided, map[string]Status{"m1": StatusLooking}},
				{func(s *sim) { s.wait(5 * time.Second) }, Live, nil},
			},
		},
		{
			name: "gave up restarting",
			setup: func(s *sim) {
				m := s.machine("m1", "43", "started")
				s.crashCycle(m)
				s.wait(2500 * time.Millisecond)
				s.exit(m, 1, false, false)
				m.State = "stopped"
			},
			steps:  []step{{nil, Failed, map[string]Status{"m1": StatusFailed}}},
			reason: "gave up restarting m1",
		},
		{
			name: "stopped by autostop is not a crash; older releases are not judged",
			setup: func(s *sim) {
				s.machine("m1", "43", "started")
				m2 := s.machine("m2", "43", "started")
				s.wait(time.Minute)
				s.exit(m2, 0, true, false)
				m2.State = "stopped"
				old := s.machine("m3", "42", "started")
				s.crashCycle(old)
				s.crashCycle(old)
			},
			steps: []step{
				{nil, Undecided, map[string]Status{"m2": StatusIdle, "m3": StatusOld}},
				{func(s *sim) { s.wait(5 * time.Second); s.crashCycle(s.ms[2]) }, Live,
					map[string]Status{"m1": StatusLive, "m2": StatusIdle, "m3": StatusOld}},
			},
			reason: "1 machine not running",
		},
		{
			name: "listings closer than the settle are not looks",
			setup: func(s *sim) {
				s.machine("m1", "43", "started")
			},
			steps: []step{
				{nil, Undecided, nil},
				{func(s *sim) { s.wait(time.Second) }, Undecided, nil},
				{func(s *sim) { s.wait(time.Second) }, Undecided, map[string]Status{"m1": StatusLooking}},
				{func(s *sim) { s.wait(3 * time.Second) }, Live, nil},
			},
		},
		{
			name: "a booting machine is awaited, not looked at",
			setup: func(s *sim) {
				s.machine("m1", "43", "replacing")
			},
			steps: []step{
				{nil, Undecided, map[string]Status{"m1": StatusPending}},
				{func(s *sim) { s.wait(time.Minute); s.ms[0].State = "starting" }, Undecided, map[string]Status{"m1": StatusPending}},
				{func(s *sim) {
					s.wait(time.Second)
					s.ms[0].State = "started"
					s.event(s.ms[0], "start", "started", "flyd")
				}, Undecided, map[string]Status{"m1": StatusLooking}},
			},
			reason: "to look at again (m1)",
		},
		{
			name: "the platform could not run it",
			setup: func(s *sim) {
				m := s.machine("m1", "43", "failed")
				s.event(m, "launch", "failed", "flyd")
			},
			steps:  []step{{nil, Failed, map[string]Status{"m1": StatusFailed}}},
			reason: "could not run m1",
		},
		{
			name:   "no machine runs the named release",
			opts:   Options{Release: "99"},
			setup:  func(s *sim) { s.machine("m1", "43", "started") },
			steps:  []step{{nil, CannotJudge, map[string]Status{"m1": StatusOld}}},
			reason: "no machine runs release v99 (they run v43)",
		},
		{
			name:   "nothing of the release runs",
			setup:  func(s *sim) { s.machine("m1", "43", "stopped") },
			steps:  []step{{nil, Undecided, map[string]Status{"m1": StatusIdle}}},
			reason: "nothing to judge until one starts",
		},
		{
			name:   "no machines",
			steps:  []step{{nil, CannotJudge, nil}},
			reason: "no machines",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim()
			if tc.setup != nil {
				tc.setup(s)
			}
			j := New(tc.opts)
			var r Result
			for i, st := range tc.steps {
				if st.before != nil {
					st.before(s)
				}
				r = s.observe(j)
				if r.Outcome != st.want {
					t.Fatalf("step %d: outcome %v (%s), want %v", i+1, r.Outcome, r.Reason, st.want)
				}
				for id, want := range st.status {
					if got := mustMachine(t, r, id); got.Status != want {
						t.Fatalf("step %d: %s is %v (%s), want %v", i+1, id, got.Status, got.Reason, want)
					}
				}
				if r.Reason == "" {
					t.Errorf("step %d: no reason", i+1)
				}
				for _, m := range r.Machines {
					if m.Reason == "" {
						t.Errorf("step %d: %s has no reason", i+1, m.ID)
					}
				}
			}
			if !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("reason %q lacks %q", r.Reason, tc.reason)
			}
		})
	}
}

// A machine still booting is awaited; one looked at is due again one settle
// after its look; a decided result asks for nothing.
func TestJudgeSaysWhatItWaitsFor(t *testing.T) {
	s := newSim()
	s.machine("m1", "43", "started")
	s.machine("m2", "43", "updating")
	j := New(Options{Settle: 7 * time.Second})
	r := s.observe(j)
	if len(r.Awaiting) != 1 || r.Awaiting[0].ID != "m2" || r.Awaiting[0].InstanceID != "v-43" {
		t.Fatalf("awaiting %+v, want m2", r.Awaiting)
	}
	if want := deployAt.Add(7 * time.Second); !r.NextLook.Equal(want) {
		t.Fatalf("next look %v, want %v", r.NextLook, want)
	}
	s.wait(3 * time.Second)
	s.ms[1].State = "started"
	s.event(s.ms[1], "start", "started", "flyd")
	r = s.observe(j)
	if len(r.Awaiting) != 0 || !r.NextLook.Equal(deployAt.Add(7*time.Second)) {
		t.Fatalf("awaiting %+v next %v", r.Awaiting, r.NextLook)
	}
	s.wait(7 * time.Second)
	r = s.observe(j)
	if r.Outcome != Live || len(r.Awaiting) != 0 || !r.NextLook.IsZero() {
		t.Fatalf("after both settled: %v awaiting %+v next %v", r.Outcome, r.Awaiting, r.NextLook)
	}
}

// The dashboard watches a deploy replace machines: each moved machine
// remembers the release it left, and a new version's looks start over.
func TestJudgeFollowsARollout(t *testing.T) {
	s := newSim()
	a := s.machine("a", "42", "started")
	s.machine("b", "42", "started")
	j := New(Options{})
	if r := s.observe(j); r.Rollout || r.Release != "42" {
		t.Fatalf("one release: rollout %v release %q", r.Rollout, r.Release)
	}
	s.wait(10 * time.Second)
	s.observe(j)
	a.Config.Metadata[fly.MachineConfigMetadataKeyFlyReleaseVersion] = "43"
	a.InstanceID, a.State = "v-43b", "replacing"
	s.event(a, "update", "replacing", "user")
	r := s.observe(j)
	got := mustMachine(t, r, "a")
	if !r.Rollout || r.Release != "43" || got.From != "42" || got.Status != StatusPending || got.LookCount != 0 {
		t.Fatalf("mid-rollout: rollout %v release %q, a from %q %v looks %d", r.Rollout, r.Release, got.From, got.Status, got.LookCount)
	}
	if b := mustMachine(t, r, "b"); b.Status != StatusOld {
		t.Fatalf("b on the old release: %v", b.Status)
	}
	if r.Outcome != Undecided || !strings.Contains(r.Reason, "still replacing 1 machine") {
		t.Fatalf("outcome %v %q", r.Outcome, r.Reason)
	}
	if r.Machines[0].ID != "a" {
		t.Fatalf("the judged release's machines come first: %v", r.Machines)
	}
}

// Text from the platform is made inert before it is kept.
func TestJudgeSanitises(t *testing.T) {
	s := newSim()
	m := s.machine("m1", "43", "started")
	m.Name, m.Region = "evil\x1b[2Jname", "a\x07ms"
	r := s.observe(New(Options{}))
	got := r.Machines[0]
	for _, v := range []string{got.Name, got.Region} {
		if strings.ContainsAny(v, "\x1b\x07") {
			t.Fatalf("control characters kept: %q", v)
		}
	}
}

func TestNilAndDuplicateEntries(t *testing.T) {
	s := newSim()
	m := s.machine("m1", "43", "started")
	r := New(Options{}).Observe(plain([]*fly.Machine{nil, m, {ID: ""}, m}), s.clock)
	if len(r.Machines) != 1 {
		t.Fatalf("machines %+v, want m1 once", r.Machines)
	}
}

// A machine on its way somewhere between looks (restarting after a crash)
// is still being looked at, never idle: idle is a machine that settled
// stopped.
func TestARestartingMachineIsNotIdle(t *testing.T) {
	s := newSim()
	m := s.machine("m1", "43", "started")
	j := New(Options{})
	s.observe(j)
	s.wait(2500 * time.Millisecond)
	s.exit(m, 1, false, true)
	m.State = "restarting"
	if got := mustMachine(t, s.observe(j), "m1"); got.Status != StatusLooking || got.LookCount != 1 {
		t.Fatalf("restarting: %v after %d looks (%s)", got.Status, got.LookCount, got.Reason)
	}
}

// One listing of n steady machines through the judge: the dashboard hands
// it every listing, in Update.
//
//	go test ./sources/verdict -run '^$' -bench Observe -benchmem
func BenchmarkObserve(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := newSim()
			for i := range n {
				s.machine("m"+strconv.Itoa(i), "43", "started", "passing")
			}
			j := New(Options{})
			s.observe(j)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s.observe(j)
			}
		})
	}
}
