package app

import (
	"time"
)

// req identifies one of the root's own timers: the app generation it was
// made for (bumped on every app switch) and a sequence number. The data
// layer's replies carry their own (watch.Job).
type req struct {
	gen int
	id  int
}

// noticeMsg fires when a notice has been shown long enough.
type noticeMsg struct{ req }

// clockMsg is the 1 s tick for "updated N s ago" and animating panes.
type clockMsg struct{ at time.Time }
