// Package sched is the simulator's discrete-event scheduler and its virtual
// clock. Its lock is the simulated world's: timed callbacks run holding it,
// and whatever changes the world (a machine's state, the proxy's load) runs
// under it, so events happen one at a time in virtual-time order and a seed
// lives the same day however the host schedules goroutines.
package sched

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// Scheduler runs timed callbacks in platform time. The zero value is not
// usable; call New.
type Scheduler struct {
	mu     sync.Mutex
	clock  *Clock
	timers timerHeap
	seq    uint64
	firing bool // a timer's callback is running: the clock is held at its time
	kick   chan struct{}
}

// New is a scheduler whose clock stands at begin until Pace: history is
// lived by FastForward first.
func New(wall func() time.Time, speed float64, begin time.Time) *Scheduler {
	c := newClock(wall, speed)
	c.setManual(begin)
	return &Scheduler{clock: c, kick: make(chan struct{}, 1)}
}

// Clock is the platform's clock.
func (s *Scheduler) Clock() *Clock { return s.clock }

// Now is the platform's time.
func (s *Scheduler) Now() time.Time { return s.clock.Now() }

// Lock takes the world's lock; Unlock releases it.
func (s *Scheduler) Lock()   { s.mu.Lock() }
func (s *Scheduler) Unlock() { s.mu.Unlock() }

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

// At schedules fn at platform time t (now, if t has passed). Callers hold
// the lock; fn runs with it held and the clock reading t.
func (s *Scheduler) At(t time.Time, fn func()) {
	if now := s.clock.Now(); t.Before(now) {
		t = now // the clock is held at the earliest timer: never behind now
	}
	s.seq++
	heap.Push(&s.timers, &timer{at: t, seq: s.seq, fn: fn})
	if !s.firing {
		s.holdClock()
	}
	s.kickLocked()
}

// Instant runs fn as an event at the current platform time: everything it
// stamps and schedules reads one time, however long a loaded machine takes to
// run it (a stop's "stopping" event and its kill timer start together).
// Callers hold the lock.
func (s *Scheduler) Instant(fn func()) {
	if s.firing {
		fn()
		return
	}
	s.clock.hold(s.clock.Now())
	s.firing = true
	fn()
	s.firing = false
	s.holdClock()
}

// holdClock holds the clock at the earliest pending timer, so that nothing
// is stamped later than an event that has not run yet. Callers hold the
// lock.
func (s *Scheduler) holdClock() {
	if s.timers.Len() == 0 {
		s.clock.release()
		return
	}
	s.clock.hold(s.timers[0].at)
}

// After schedules fn d of platform time from now. Callers hold the lock.
func (s *Scheduler) After(d time.Duration, fn func()) { s.At(s.clock.Now().Add(d), fn) }

func (s *Scheduler) kickLocked() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// runDue fires every callback due at or before limit, in order, advancing the
// manual clock to each one when fastForward is set. Each callback sees the
// clock at its own time, however late it runs: a chain of after(d) adds up
// to exactly its durations. Callers hold the lock.
func (s *Scheduler) runDue(limit time.Time, fastForward bool) {
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

// FastForward lives through platform time up to end without waiting: this
// is how the day of history exists the moment the platform starts.
func (s *Scheduler) FastForward(end time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runDue(end, true)
	s.clock.setManual(end)
}

// Pace starts the clock: from now on platform time runs Speed times as
// fast as wall time.
func (s *Scheduler) Pace() { s.clock.runFrom(s.clock.Now()) }

// Loop runs the callbacks as their time comes, paced against wall time,
// until closing closes.
func (s *Scheduler) Loop(closing <-chan struct{}) {
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
		case <-closing:
			return
		case <-s.kick:
		case <-wake.C:
		}
	}
}

// Wait releases the lock until ch closes, the wall deadline passes or ctx
// ends, and reports whether ch closed (or the deadline had not passed yet).
// Callers hold the lock, and hold it again when Wait returns.
func (s *Scheduler) Wait(ctx context.Context, ch <-chan struct{}, deadline time.Time) bool {
	d := time.Until(deadline)
	if d <= 0 {
		return false
	}
	s.mu.Unlock()
	defer s.mu.Lock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}
