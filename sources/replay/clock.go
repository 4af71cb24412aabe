package replay

import (
	"sync"
	"time"
)

// Clock is a replay's platform clock: an instant of the recording that
// stands still until it is moved (Seek) or played at a speed (Play). Every
// time the dashboard, status, verdict and check read is this one.
type Clock struct {
	mu      sync.Mutex
	at      time.Time // the instant when anchored
	wall    time.Time // the wall time it was anchored at
	speed   float64   // 0: paused
	end     time.Time // zero: no end
	stop    bool      // playing stops at end
	changed chan struct{}
	wallNow func() time.Time
}

// NewClock stands at `at`. With stopAtEnd, playing stops at end (the
// dashboard's time bar); without, the clock runs on past it (a headless
// command then hears that the recording ended).
func NewClock(at, end time.Time, stopAtEnd bool) *Clock {
	return &Clock{at: at, end: end, stop: stopAtEnd, changed: make(chan struct{}), wallNow: time.Now}
}

// Now is the replayed instant.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if c.speed == 0 {
		return c.at
	}
	t := c.at.Add(time.Duration(float64(c.wallNow().Sub(c.wall)) * c.speed))
	if c.stop && !c.end.IsZero() && t.After(c.end) {
		c.at, c.speed = c.end, 0 // reached the end: stand there
		return c.end
	}
	return t
}

// Seek moves the clock to t (it keeps playing if it played).
func (c *Clock) Seek(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.wall = t, c.wallNow()
	c.signal()
}

// Play runs the clock at speed platform seconds per wall second (0 pauses).
func (c *Clock) Play(speed float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.wall = c.nowLocked(), c.wallNow()
	if speed < 0 {
		speed = 0
	}
	c.speed = speed
	c.signal()
}

// Speed is the playing speed, 0 while paused.
func (c *Clock) Speed() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nowLocked() // a clock that reached its end has stopped
	return c.speed
}

// Changed is closed the next time the clock is moved, played or paused.
func (c *Clock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

func (c *Clock) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}
