package flysim

import (
	"testing"
	"time"
)

// churnProfile is a small suspendable app (no swap, 1 GB) for the churn tests.
func churnProfile(machines int) AppProfile {
	p := DemoApps()[1] // snappy-api: suspendable, quick boots
	p.Name, p.Machines, p.InitialAwake = "churn-app", machines, machines/2
	p.MoreRegions = nil
	return p
}

// Churning 40 machines for 30 platform minutes (lived through without
// waiting, as history is) takes every action and visits every state.
func TestChurnVisitsEveryState(t *testing.T) {
	t.Parallel()
	s := New(Options{Apps: []AppProfile{churnProfile(40)}, History: -1, NoTraffic: true, Seed: 3})
	c, err := s.Churn("churn-app", 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	t0 := s.now()
	for sec := 1; sec <= 30*60; sec++ {
		s.sched.FastForward(t0.Add(time.Duration(sec) * time.Second))
		s.sched.Lock()
		for _, m := range s.store.App("churn-app").Machines() {
			seen[m.State()]++
		}
		s.sched.Unlock()
	}
	counts := c.Counts()
	t.Logf("actions %v; machine-seconds per state %v", counts, seen)
	for _, a := range []string{ChurnStart, ChurnStop, ChurnSuspend, ChurnCrash, ChurnRestart, ChurnDeploy} {
		if counts[a] == 0 {
			t.Errorf("churn never took action %q", a)
		}
	}
	for _, st := range []string{"started", "starting", "stopping", "stopped", "suspending", "suspended", "restarting", "replacing"} {
		if seen[st] == 0 {
			t.Errorf("no machine was ever seen %q", st)
		}
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	// 30 min at one action per 0.25–0.75 s: about 3,600 actions.
	if total < 2400 || total > 7200 {
		t.Errorf("%d actions in 30 platform minutes, want about 3,600", total)
	}

	c.Stop()
	s.sched.FastForward(s.now().Add(time.Minute))
	after := c.Counts()
	s.sched.FastForward(s.now().Add(10 * time.Minute))
	if again := c.Counts(); sum(again) != sum(after) {
		t.Errorf("churn went on after Stop: %d actions, then %d", sum(after), sum(again))
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func TestChurnRefusesBadInput(t *testing.T) {
	t.Parallel()
	s := New(Options{Apps: []AppProfile{churnProfile(2)}, History: -1, NoTraffic: true})
	tests := []struct {
		name  string
		app   string
		every time.Duration
	}{
		{"unknown app", "no-such-app", time.Second},
		{"zero interval", "churn-app", 0},
		{"negative interval", "churn-app", -time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c, err := s.Churn(tt.app, tt.every); err == nil || c != nil {
				t.Errorf("Churn(%q, %s) = %v, %v; want an error", tt.app, tt.every, c, err)
			}
		})
	}
}

// Prewarm lives platform time before Start (so churn fills the logs) and is
// refused once the platform runs.
func TestPrewarm(t *testing.T) {
	t.Parallel()
	s := New(Options{Apps: []AppProfile{churnProfile(20)}, History: -1, NoTraffic: true, Seed: 4})
	c, err := s.Churn("churn-app", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	before := s.now()
	if err := s.Prewarm(10 * time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := s.now().Sub(before); got != 10*time.Minute {
		t.Errorf("platform clock moved %s, want 10m", got)
	}
	if n := sum(c.Counts()); n < 400 || n > 1200 {
		t.Errorf("%d churn actions in 10 prewarmed minutes, want about 600", n)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Prewarm(time.Minute); err == nil {
		t.Error("Prewarm after Start succeeded")
	}
}
