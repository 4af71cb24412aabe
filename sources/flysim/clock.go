package flysim

import (
	"sync"
	"time"
)

// Clock is the platform's virtual clock. While history is being generated it
// is manual (advanced by the scheduler to each event's time); afterwards it
// runs Speed times faster than wall time from an anchor. Protocol limits
// (rate limits, wait timeouts) deliberately stay in wall time and never use
// this clock.
type Clock struct {
	mu         sync.Mutex
	speed      float64
	wall       func() time.Time
	manual     bool
	manualNow  time.Time
	wallAnchor time.Time
	virtAnchor time.Time
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
	if c.manual {
		return c.manualNow
	}
	elapsed := c.wall().Sub(c.wallAnchor)
	return c.virtAnchor.Add(time.Duration(float64(elapsed) * c.speed))
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
