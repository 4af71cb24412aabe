package sched

import (
	"sync"
	"time"
)

// Clock is the platform's virtual clock. While history is being generated it
// is manual (advanced by the scheduler to each event's time); afterwards it
// runs Speed times faster than wall time from an anchor. Protocol limits
// (rate limits, wait timeouts) deliberately stay in wall time and never use
// this clock.
//
// The scheduler holds the clock at its next event: Now never passes an event
// that has not run yet, and while a callback runs Now reads exactly the time
// the callback was scheduled for. A discrete-event platform thus stamps every
// event at its scheduled time however late a loaded machine runs it, and no
// stamp (an API handler's or a callback's) is older than one made before it.
type Clock struct {
	mu         sync.Mutex
	speed      float64
	wall       func() time.Time
	manual     bool
	manualNow  time.Time
	wallAnchor time.Time
	virtAnchor time.Time
	held       bool      // Now is at most holdAt
	holdAt     time.Time // the scheduler's next (or running) event
}

func newClock(wall func() time.Time, speed float64) *Clock {
	if speed <= 0 {
		speed = 1
	}
	return &Clock{wall: wall, speed: speed}
}

// Now is the current platform time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	t := c.pacedLocked()
	if c.held && c.holdAt.Before(t) {
		return c.holdAt
	}
	return t
}

// paced is the platform time wall time alone says, ignoring the hold: the
// scheduler runs what is due by it.
func (c *Clock) paced() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pacedLocked()
}

func (c *Clock) pacedLocked() time.Time {
	if c.manual {
		return c.manualNow
	}
	elapsed := c.wall().Sub(c.wallAnchor)
	return c.virtAnchor.Add(time.Duration(float64(elapsed) * c.speed))
}

// hold keeps Now at or before t; release lifts it (nothing is scheduled).
func (c *Clock) hold(t time.Time) {
	c.mu.Lock()
	c.held, c.holdAt = true, t
	c.mu.Unlock()
}

func (c *Clock) release() {
	c.mu.Lock()
	c.held = false
	c.mu.Unlock()
}

// Speed is how many platform seconds pass per wall second.
func (c *Clock) Speed() float64 { return c.speed }

// WallDuration converts a platform duration into the wall time it takes.
func (c *Clock) WallDuration(d time.Duration) time.Duration {
	return time.Duration(float64(d) / c.speed)
}

// PlatformDuration converts a wall duration into platform time.
func (c *Clock) PlatformDuration(d time.Duration) time.Duration {
	return time.Duration(float64(d) * c.speed)
}

func (c *Clock) setManual(t time.Time) {
	c.mu.Lock()
	c.manual, c.manualNow = true, t
	c.mu.Unlock()
}

// runFrom switches to paced time: platform time t now, advancing with wall time.
func (c *Clock) runFrom(t time.Time) {
	c.mu.Lock()
	c.manual = false
	c.wallAnchor, c.virtAnchor = c.wall(), t
	c.mu.Unlock()
}
