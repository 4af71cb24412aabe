package flysim

import (
	"testing"
	"time"
)

// TestSettledAtStart: after the day of history every demo app stands where
// the dashboard's story needs it, for several seeds.
func TestSettledAtStart(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 30, 0, 41, 0, 0, time.UTC)
	for i, seed := range []uint64{1, 2, 3, 4} {
		wall := base.Add(time.Duration(i) * 6 * time.Hour)
		s := New(Options{Seed: seed, Wall: func() time.Time { return wall }})
		s.sched.Lock()
		now := s.now()
		states := func(app string) map[string]int {
			out := map[string]int{}
			for _, m := range s.store.App(app).Machines() {
				if m.State() == "started" && !m.Serving() {
					out["booting"]++
					continue
				}
				out[m.State()]++
			}
			return out
		}
		want := []struct {
			app   string
			state map[string]int
		}{
			{DemoScaleToZero, map[string]int{"started": 1, "stopped": 9}},
			{DemoTuned, map[string]int{"started": 1, "suspended": 5}}, // 1 kept in ams, none in ord
			{DemoBacklog, map[string]int{"started": 2}},
		}
		for _, w := range want {
			got := states(w.app)
			for st, n := range w.state {
				if got[st] != n {
					t.Errorf("seed %d: %s has %v, want %v", seed, w.app, got, w.state)
					break
				}
			}
		}
		// crashy-api is crash-looping: a machine on its way up or just
		// crashed, with a crash exit in the last minute.
		looping, freshCrash := 0, false
		for _, m := range s.store.App(DemoCrash).Machines() {
			switch m.State() {
			case "starting", "restarting", "started":
				looping++
			}
			for _, e := range m.Events() {
				if e.Exit != nil && e.Exit.ExitCode == 1 && now.Sub(e.Time) < time.Minute {
					freshCrash = true
				}
			}
		}
		if looping == 0 || !freshCrash {
			t.Errorf("seed %d: crashy-api not visibly looping (%v, fresh crash %v)", seed, states(DemoCrash), freshCrash)
		}
		closeWait := 0
		for _, m := range s.store.App(DemoBacklog).Machines() {
			_, cw := s.px.Load(m)
			closeWait += cw
			if cw < 200 || cw > 800 {
				t.Errorf("seed %d: backlog machine %s has %d sockets in CLOSE_WAIT, want hundreds", seed, m.ID(), cw)
			}
		}
		for _, a := range s.store.Apps() {
			if n := len(s.logs.Lines(a.Name())); n > 50_000 {
				t.Errorf("seed %d: %s logged %d lines in a day, want ≤ 50k", seed, a.Name(), n)
			}
		}
		t.Logf("seed %d: crashy %v, backlog CLOSE_WAIT %d", seed, states(DemoCrash), closeWait)
		s.sched.Unlock()
	}
}

// TestBacklogDrainsByItself: left alone, the stale queue is worked through
// in order and CLOSE_WAIT falls back to zero in about half an hour.
func TestBacklogDrainsByItself(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 5})
	start := s.clock.Now()
	closeWait := func() int {
		s.sched.Lock()
		defer s.sched.Unlock()
		n := 0
		for _, m := range s.store.App(DemoBacklog).Machines() {
			_, cw := s.px.Load(m)
			n += cw
		}
		return n
	}
	first := closeWait()
	var drained time.Duration
	prev := first
	for step := time.Minute; step <= 90*time.Minute; step += time.Minute {
		s.sched.FastForward(start.Add(step))
		n := closeWait()
		if n > prev+20 {
			t.Errorf("CLOSE_WAIT grew from %d to %d at +%s", prev, n, step)
		}
		prev = n
		if n == 0 {
			drained = step
			break
		}
	}
	t.Logf("CLOSE_WAIT %d at start, drained after %s", first, drained)
	if first < 300 || drained < 15*time.Minute || drained > 45*time.Minute {
		t.Errorf("CLOSE_WAIT %d drained after %s, want hundreds draining in ~30 min", first, drained)
	}
}

// TestTrafficKeepsRunning: after Start the background load goes on against
// the paced clock; NoTraffic keeps the platform quiet.
func TestTrafficKeepsRunning(t *testing.T) {
	t.Parallel()
	for _, quiet := range []bool{false, true} {
		s := New(Options{Seed: 3, Speed: 600, NoTraffic: quiet})
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		edgeTotal := func() float64 {
			sum := 0.0
			for _, n := range s.metrics.EdgeTotals(DemoScaleToZero) {
				sum += n
			}
			return sum
		}
		before := edgeTotal()
		time.Sleep(200 * time.Millisecond) // two minutes of platform time
		grew := edgeTotal() - before
		_ = s.Close()
		if quiet && grew != 0 || !quiet && grew <= 0 {
			t.Errorf("NoTraffic=%v: edge responses grew by %v after Start", quiet, grew)
		}
	}
}
