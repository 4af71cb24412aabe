package sched

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Callbacks fire in time order, ties in the order they were scheduled, each
// seeing the clock at its own time; a chain of After adds up exactly.
func TestFastForwardRunsInOrder(t *testing.T) {
	begin := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	s := New(time.Now, 1, begin)
	var got []string
	at := func(name string) func() {
		return func() { got = append(got, name+"@"+s.Now().Sub(begin).String()) }
	}
	s.Lock()
	s.At(begin.Add(2*time.Second), at("b"))
	s.At(begin.Add(time.Second), at("a"))
	s.At(begin.Add(2*time.Second), at("c"))
	s.After(500*time.Millisecond, func() {
		at("d")()
		s.After(250*time.Millisecond, at("e"))
	})
	s.Unlock()
	s.FastForward(begin.Add(time.Minute))
	want := "[d@500ms e@750ms a@1s b@2s c@2s]"
	if g := fmt.Sprint(got); g != want {
		t.Errorf("fired %s, want %s", g, want)
	}
	if now := s.Now(); !now.Equal(begin.Add(time.Minute)) {
		t.Errorf("clock at %s after the fast-forward", now.Sub(begin))
	}
}

// Instant stamps everything it does at one time and holds the clock there;
// the clock never passes a timer that has not run.
func TestInstantAndHold(t *testing.T) {
	wall := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return wall }
	s := New(clock, 1, wall)
	s.Pace()
	s.Lock()
	var first, second time.Time
	s.Instant(func() {
		first = s.Now()
		wall = wall.Add(time.Second)
		second = s.Now()
		s.After(0, func() {})
	})
	s.Unlock()
	if !first.Equal(second) {
		t.Errorf("an instant read %s, then %s", first, second)
	}
	if now := s.Now(); !now.Equal(first) {
		t.Errorf("the clock moved past a pending timer to %s", now.Sub(first))
	}
}

// Wait gives the lock up while it waits and reports what ended the wait.
func TestWait(t *testing.T) {
	s := New(time.Now, 1, time.Now())
	ch := make(chan struct{})
	s.Lock()
	go func() {
		s.Lock() // only possible while Wait has the lock released
		close(ch)
		s.Unlock()
	}()
	if !s.Wait(context.Background(), ch, time.Now().Add(10*time.Second)) {
		t.Error("Wait missed the channel closing")
	}
	if s.Wait(context.Background(), make(chan struct{}), time.Now().Add(time.Millisecond)) {
		t.Error("Wait reported a close at its deadline")
	}
	s.Unlock()
}
