package verdict

import (
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
)

// platform simulates the Machines API event list: newest first, trimmed to keep.
type platform struct {
	m        *fly.Machine
	keep     int
	clock    time.Time
	restarts int
	nested   bool // put exit_event under MonitorEvent, the older nesting
	counter  bool // fill restart_count like the platform does
}

func newPlatform(nested, counter bool) *platform {
	p := &platform{m: &fly.Machine{ID: "m1", State: "started"}, keep: 5, clock: deployAt, nested: nested, counter: counter}
	p.add(&fly.MachineEvent{Type: "update", Status: "replacing", Source: "user"})
	p.add(&fly.MachineEvent{Type: "start", Status: "started", Source: "flyd"})
	return p
}

func (p *platform) add(e *fly.MachineEvent) {
	e.Timestamp = p.clock.UnixMilli()
	p.m.Events = append([]*fly.MachineEvent{e}, p.m.Events...)
	if len(p.m.Events) > p.keep {
		p.m.Events = p.m.Events[:p.keep]
	}
}

func (p *platform) exit(code int, requested, restarting, oom bool) {
	ee := &fly.MachineExitEvent{ExitCode: code, RequestedStop: requested, Restarting: restarting, OOMKilled: oom,
		Signal: -1, GuestSignal: -1, ExitedAt: p.clock}
	req := &fly.MachineRequest{}
	if p.nested {
		req.MonitorEvent = &fly.MachineMonitorEvent{ExitEvent: ee}
	} else {
		req.ExitEvent = ee
	}
	if p.counter {
		p.restarts++
		req.RestartCount = p.restarts
	}
	p.add(&fly.MachineEvent{Type: "exit", Status: "stopped", Source: "flyd", Request: req})
}

// crashCycle: the app dies 2.5 s after its start and the platform restarts it.
func (p *platform) crashCycle() {
	p.clock = p.clock.Add(2500 * time.Millisecond)
	p.exit(1, false, true, false)
	p.clock = p.clock.Add(100 * time.Millisecond)
	p.add(&fly.MachineEvent{Type: "start", Status: "started", Source: "flyd"})
}

func TestCrashLoopSurvivesTruncatedEventList(t *testing.T) {
	for _, tc := range []struct {
		name            string
		nested, counter bool
	}{
		{"exit_event, no restart_count", false, false},
		{"MonitorEvent.exit_event, no restart_count", true, false},
		{"exit_event with restart_count", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlatform(tc.nested, tc.counter)
			// The bug needed a machine that had crashed enough to fill its list.
			for range 4 {
				p.crashCycle()
			}
			var tr CrashTracker
			var counts []int
			looping := 0
			for look := 1; look <= 3; look++ {
				if look > 1 {
					p.crashCycle()
				}
				counts = append(counts, VisibleCrashes(plainOne(p.m), deployAt))
				v := tr.Look(plainOne(p.m), deployAt, p.clock.Add(time.Second))
				if v.Looks != look {
					t.Fatalf("look %d: Looks = %d", look, v.Looks)
				}
				if v.Kind == diagnose.CrashLooping && looping == 0 {
					looping = look
					if v.Reason == "" || !strings.Contains(v.Reason, diagnose.CrashLoopReason) {
						t.Errorf("reason %q lacks %q", v.Reason, diagnose.CrashLoopReason)
					}
				}
			}
			for i, c := range counts {
				if c != counts[0] || c == 0 {
					t.Fatalf("crash counts per look = %v; the simulation should keep the count flat at look %d", counts, i+1)
				}
			}
			// A count-based check would conclude the crashing stopped.
			if naiveStillCrashing(counts) {
				t.Fatalf("naive count check unexpectedly caught the loop (counts %v): the simulation is wrong", counts)
			}
			if looping == 0 || looping > 3 {
				t.Fatalf("never reported diagnose.CrashLooping by the third look (counts %v)", counts)
			}
			if looping != 2 {
				t.Errorf("timestamps should catch the loop at look 2, got look %d", looping)
			}
		})
	}
}

// naiveStillCrashing is the broken check from the seed: more crashes than at the previous look.
func naiveStillCrashing(counts []int) bool {
	for i := 1; i < len(counts); i++ {
		if counts[i] > counts[i-1] {
			return true
		}
	}
	return false
}

func TestCrashTrackerScenarios(t *testing.T) {
	type look struct {
		before func(p *platform)
		want   diagnose.CrashKind
	}
	for _, tc := range []struct {
		name  string
		setup func(p *platform)
		looks []look
	}{
		{
			name:  "stopped crashing after two crashes",
			setup: func(p *platform) { p.crashCycle(); p.crashCycle() },
			looks: []look{{nil, diagnose.Watching}, {nil, diagnose.Steady}, {nil, diagnose.Steady}},
		},
		{
			name:  "never crashed",
			looks: []look{{nil, diagnose.Steady}, {nil, diagnose.Steady}},
		},
		{
			name: "crashes before the deploy do not count",
			setup: func(p *platform) {
				p.m.Events = nil
				p.clock = deployAt.Add(-time.Minute)
				p.exit(1, false, true, false)
				p.clock = deployAt.Add(time.Second)
				p.add(&fly.MachineEvent{Type: "start", Status: "started", Source: "flyd"})
			},
			looks: []look{{nil, diagnose.Steady}},
		},
		{
			name: "requested stop is not a crash",
			setup: func(p *platform) {
				p.clock = p.clock.Add(time.Minute)
				p.exit(0, true, false, false)
				p.m.State = "stopped"
			},
			looks: []look{{nil, diagnose.Steady}},
		},
		{
			name: "gave up restarting",
			setup: func(p *platform) {
				p.crashCycle()
				p.clock = p.clock.Add(2500 * time.Millisecond)
				p.exit(1, false, false, false)
				p.m.State = "stopped"
			},
			looks: []look{{nil, diagnose.GaveUp}, {nil, diagnose.GaveUp}},
		},
		{
			name: "OOM kill then give up",
			setup: func(p *platform) {
				p.clock = p.clock.Add(3 * time.Second)
				p.exit(137, false, false, true)
				p.m.State = "stopped"
			},
			looks: []look{{nil, diagnose.GaveUp}},
		},
		{
			name: "final crash but someone started it again",
			setup: func(p *platform) {
				p.clock = p.clock.Add(3 * time.Second)
				p.exit(1, false, false, false)
				p.clock = p.clock.Add(10 * time.Second)
				p.add(&fly.MachineEvent{Type: "start", Status: "started", Source: "user"})
			},
			looks: []look{{nil, diagnose.Watching}, {nil, diagnose.Steady}},
		},
		{
			name:  "crash seen only at the second look, then again",
			looks: []look{{nil, diagnose.Steady}, {(*platform).crashCycle, diagnose.Watching}, {(*platform).crashCycle, diagnose.CrashLooping}},
		},
		{
			name:  "no events",
			setup: func(p *platform) { p.m.Events = nil },
			looks: []look{{nil, diagnose.CrashUnknown}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlatform(false, false)
			if tc.setup != nil {
				tc.setup(p)
			}
			var tr CrashTracker
			for i, l := range tc.looks {
				if l.before != nil {
					l.before(p)
				}
				v := tr.Look(plainOne(p.m), deployAt, p.clock.Add(5*time.Second))
				if v.Kind != l.want {
					t.Fatalf("look %d: kind = %v (%s), want %v", i+1, v.Kind, v.Reason, l.want)
				}
				if v.Reason == "" {
					t.Errorf("look %d: empty reason", i+1)
				}
			}
		})
	}
}

// The exit event's restart_count is a count too: it does not decide. The
// second look, by the newest crash's time, does.
func TestCrashTrackerIgnoresTheRestartCounter(t *testing.T) {
	p := newPlatform(false, true)
	p.crashCycle()
	p.crashCycle()
	var tr CrashTracker
	if v := tr.Look(plainOne(p.m), deployAt, p.clock); v.Kind != diagnose.Watching {
		t.Fatalf("restart_count 2 at the first look: kind = %v, want diagnose.Watching", v.Kind)
	}
	p.crashCycle()
	if v := tr.Look(plainOne(p.m), deployAt, p.clock); v.Kind != diagnose.CrashLooping {
		t.Fatalf("a newer crash at the second look: kind = %v, want diagnose.CrashLooping", v.Kind)
	}
}

func TestCrashTrackerNewReleaseStartsOver(t *testing.T) {
	p := newPlatform(false, false)
	p.crashCycle()
	var tr CrashTracker
	tr.Look(plainOne(p.m), deployAt, p.clock)
	p.crashCycle()
	// A new deploy began after the crashes: they belong to the old release.
	next := p.clock.Add(time.Second)
	v := tr.Look(plainOne(p.m), next, next)
	if v.Kind != diagnose.Steady || v.Looks != 1 {
		t.Fatalf("after a new release: kind %v looks %d, want steady at look 1", v.Kind, v.Looks)
	}
}

func TestCrashTrackerNilMachine(t *testing.T) {
	var tr CrashTracker
	if v := tr.Look(nil, time.Time{}, deployAt); v.Kind != diagnose.CrashUnknown {
		t.Fatalf("nil machine: %v", v.Kind)
	}
}

func TestReleaseSince(t *testing.T) {
	ev := func(typ string, at time.Time) *fly.MachineEvent {
		return &fly.MachineEvent{Type: typ, Timestamp: at.UnixMilli()}
	}
	for _, tc := range []struct {
		name string
		m    *fly.Machine
		want time.Time
	}{
		{"nil", nil, time.Time{}},
		{"newest update wins", &fly.Machine{Events: []*fly.MachineEvent{
			ev("start", deployAt.Add(time.Minute)), ev("update", deployAt), ev("launch", deployAt.Add(-time.Hour))}}, deployAt},
		{"falls back to created_at", &fly.Machine{CreatedAt: "2025-09-25T09:00:00Z",
			Events: []*fly.MachineEvent{ev("start", deployAt)}}, deployAt.Add(-time.Hour)},
		{"bad created_at", &fly.Machine{CreatedAt: "yesterday"}, time.Time{}},
	} {
		if got := ReleaseSince(plainOne(tc.m)); !got.Equal(tc.want) {
			t.Errorf("%s: ReleaseSince = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The guessed release start (the update event) is kept for the machine's
// version: once the event list slid past the update, a guess read afresh
// would fall back to created_at and start the looks over, and the loop
// would be seen one look late.
func TestCrashTrackerKeepsItsGuessWhenTheUpdateEventSlidesOut(t *testing.T) {
	p := newPlatform(false, false)
	p.m.InstanceID = "01K0VERSION2"
	p.m.CreatedAt = deployAt.Add(-time.Hour).Format(time.RFC3339)
	p.crashCycle()
	var tr CrashTracker
	if v := tr.Look(plainOne(p.m), time.Time{}, p.clock); v.Kind != diagnose.Watching || !tr.Since().Equal(deployAt) {
		t.Fatalf("first look: kind %v since %v, want watching since the update at %v", v.Kind, tr.Since(), deployAt)
	}
	p.crashCycle()
	p.crashCycle()
	if got := ReleaseSince(plainOne(p.m)); got.Equal(deployAt) {
		t.Fatalf("the simulation should have pushed the update event out (ReleaseSince %v)", got)
	}
	if v := tr.Look(plainOne(p.m), time.Time{}, p.clock); v.Kind != diagnose.CrashLooping || v.Looks != 2 {
		t.Fatalf("second look: kind %v looks %d, want crash-looping at look 2", v.Kind, v.Looks)
	}
	// A new version of the machine (another deploy) starts over.
	p.m.InstanceID = "01K0VERSION3"
	if v := tr.Look(plainOne(p.m), time.Time{}, p.clock); v.Looks != 1 {
		t.Fatalf("new version: looks %d, want 1", v.Looks)
	}
}

// TestCrashReasonsAreRelative: a reason says how long ago the crash was at
// the look's platform time, never a date, so the same machine looked at the
// same moment after its crashes reads the same whatever the platform's clock
// said (status --seed is reproducible across a wall-clock minute).
func TestCrashReasonsAreRelative(t *testing.T) {
	shifted := func(m *fly.Machine, d time.Duration) *fly.Machine {
		c := *m
		c.Events = nil
		for _, e := range m.Events {
			e2 := *e
			e2.Timestamp += d.Milliseconds()
			c.Events = append(c.Events, &e2)
		}
		return &c
	}
	for _, tc := range []struct {
		name  string
		setup func(p *platform)
		looks int
		want  string
	}{
		{"gave up", func(p *platform) {
			p.clock = p.clock.Add(3 * time.Second)
			p.exit(1, false, false, false)
			p.m.State = "stopped"
		}, 1, "gave up restarting: exit code 1 5s ago and the machine is stopped"},
		{"watching", (*platform).crashCycle, 1, "crashed 5s ago, since the deploy; looking again"},
		{"quiet since", (*platform).crashCycle, 2, "crashed 5s ago, nothing new since the previous look"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlatform(false, false)
			tc.setup(p)
			var reasons []string
			for _, shift := range []time.Duration{0, time.Minute + 37*time.Second} {
				var tr CrashTracker
				var v diagnose.CrashVerdict
				for range tc.looks {
					v = tr.Look(plainOne(shifted(p.m, shift)), deployAt.Add(shift), p.clock.Add(shift+5*time.Second))
				}
				reasons = append(reasons, v.Reason)
			}
			if reasons[0] != tc.want || reasons[1] != tc.want {
				t.Errorf("reasons %q, want %q both times", reasons, tc.want)
			}
		})
	}
}
