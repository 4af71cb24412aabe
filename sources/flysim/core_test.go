package flysim

import (
	"testing"
	"time"
)

func TestDemoHistorySettles(t *testing.T) {
	t.Parallel()
	start := time.Now()
	s := New(Options{Seed: 7})
	t.Logf("history generated in %s", time.Since(start))
	s.sched.Lock()
	defer s.sched.Unlock()
	count := func(app, state string) int {
		n := 0
		for _, m := range s.store.App(app).Machines() {
			if m.State() == state {
				n++
			}
		}
		return n
	}
	tests := []struct {
		app, state string
		want       int
	}{
		{DemoScaleToZero, "started", 1},
		{DemoScaleToZero, "stopped", 9},
		{DemoTuned, "started", 1},
		{DemoTuned, "suspended", 5}, // 3 in ams, 2 in ord: min_machines_running holds in ams only
		{DemoBacklog, "started", 2},
	}
	for _, tt := range tests {
		if got := count(tt.app, tt.state); got != tt.want {
			t.Errorf("%s: %d machines %s, want %d", tt.app, got, tt.state, tt.want)
		}
	}
	for _, m := range s.store.App(DemoCrash).Machines() {
		if len(m.Events()) != 5 {
			t.Errorf("crash machine %s keeps %d events, want 5", m.ID(), len(m.Events()))
		}
		t.Logf("crash machine %s state=%s restarts=%d", m.ID(), m.State(), m.RestartCount())
		for _, e := range m.Events() {
			t.Logf("  %s %s/%s/%s", e.Time.Format(time.RFC3339Nano), e.Type, e.Status, e.Source)
		}
	}
	sleepy := s.store.App(DemoScaleToZero).Machines()[0]
	if sleepy.Config().Init.SwapSizeMB == nil || *sleepy.Config().Init.SwapSizeMB != 2048 {
		t.Errorf("scale-to-zero machines need 2048 MB swap")
	}
}
