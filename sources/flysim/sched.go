package flysim

import (
	"container/heap"
	"time"
)

// timer is one scheduled callback in platform time. seq keeps callbacks that
// share a timestamp in the order they were scheduled, so runs are reproducible.
type timer struct {
	at  time.Time
	seq uint64
	fn  func()
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].at.Equal(h[j].at) {
		return h[i].seq < h[j].seq
	}
	return h[i].at.Before(h[j].at)
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(*timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return t
}

// at schedules fn at platform time t (now, if t has passed). Callers hold
// s.mu; fn runs with s.mu held and the clock reading t.
func (s *Sim) at(t time.Time, fn func()) {
	if now := s.now(); t.Before(now) {
		t = now // the clock is held at the earliest timer: never behind now
	}
	s.seq++
	heap.Push(&s.timers, &timer{at: t, seq: s.seq, fn: fn})
	if !s.firing {
		s.holdClock()
	}
	s.kickLocked()
}

// instant runs fn as an event at the current platform time: everything it
// stamps and schedules reads one time, however long a loaded machine takes to
// run it (a stop's "stopping" event and its kill timer start together).
// Callers hold s.mu.
func (s *Sim) instant(fn func()) {
	if s.firing {
		fn()
		return
	}
	s.clock.hold(s.now())
	s.firing = true
	fn()
	s.firing = false
	s.holdClock()
}

// holdClock holds the clock at the earliest pending timer, so that nothing
// is stamped later than an event that has not run yet. Callers hold s.mu.
func (s *Sim) holdClock() {
	if s.timers.Len() == 0 {
		s.clock.release()
		return
	}
	s.clock.hold(s.timers[0].at)
}

// after schedules fn d of platform time from now. Callers hold s.mu.
func (s *Sim) after(d time.Duration, fn func()) { s.at(s.now().Add(d), fn) }

func (s *Sim) kickLocked() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// runDue fires every callback due at or before limit, in order, advancing the
// manual clock to each one when fastForward is set. Each callback sees the
// clock at its own time, however late it runs: a chain of after(d) adds up
// to exactly its durations. Callers hold s.mu.
func (s *Sim) runDue(limit time.Time, fastForward bool) {
	for s.timers.Len() > 0 && !s.timers[0].at.After(limit) {
		t := heap.Pop(&s.timers).(*timer)
		if fastForward {
			s.clock.setManual(t.at)
		}
		s.clock.hold(t.at)
		s.firing = true
		t.fn()
		s.firing = false
	}
	s.holdClock()
}

// fastForward lives through platform time up to end without waiting: this is
// how the day of history exists the moment the platform starts.
func (s *Sim) fastForward(end time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runDue(end, true)
	s.clock.setManual(end)
}

// loop paces the scheduler against wall time until the simulator closes.
func (s *Sim) loop() {
	defer close(s.loopDone)
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	for {
		s.mu.Lock()
		s.runDue(s.clock.paced(), false)
		wait := time.Hour
		if s.timers.Len() > 0 {
			wait = s.clock.WallDuration(s.timers[0].at.Sub(s.clock.paced()))
			if wait < 0 {
				wait = 0
			}
		}
		s.mu.Unlock()
		wake.Reset(wait)
		select {
		case <-s.closing:
			return
		case <-s.kick:
		case <-wake.C:
		}
	}
}
