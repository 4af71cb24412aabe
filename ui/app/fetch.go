package app

import (
	"time"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// Refresh intervals and limits of the data flow.
const (
	listFast      = 2 * time.Second  // while a machine is in a transient state
	listSteady    = 12 * time.Second // otherwise
	retryFirst    = 2 * time.Second
	retryMax      = listSteady // a fault that ends is noticed within one steady refresh
	waitPoll      = watch.WaitPoll
	waitCooldown  = 2 * time.Second // between waits on one machine, so a wait that returns at once cannot spin
	maxWaits      = 16              // wait long-polls in flight at once
	maxProbes     = 2               // exec probes in flight
	probesPerMin  = 6               // exec probes started per minute: keeps a steady app within ~12 API calls/min
	listTimeout   = 20 * time.Second
	appsTimeout   = 15 * time.Second
	actionTimeout = 30 * time.Second // a start, stop or suspend call (they answer once accepted)
)

// fetchState is what is in flight for the current app generation.
type fetchState struct {
	listing     bool // a listing is in flight
	relist      bool // list again as soon as it returns
	listApplied int  // id of the newest listing applied

	listTimer int // id of the listing's newest timer

	waits     map[string]bool      // machine id → a wait is in flight
	waitEnded map[string]time.Time // machine id → when its last wait returned (wall)

	probes        map[string]bool // probe key → in flight
	probeLaunches []time.Time     // wall times of recent probe starts

	feeds []feedState // per registered feed, in m.feeds order
}

func newFetchState(feeds int) *fetchState {
	return &fetchState{
		waits: map[string]bool{}, waitEnded: map[string]time.Time{},
		probes: map[string]bool{}, feeds: make([]feedState, feeds),
	}
}

func probeKey(p snapshot.ProbeRequest) string {
	return p.Kind.String() + "/" + p.Machine + "/" + p.Key
}

// probeBudget is how many probes may start now, given the recent starts.
func (f *fetchState) probeBudget(now time.Time) int {
	kept := f.probeLaunches[:0]
	for _, t := range f.probeLaunches {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	f.probeLaunches = kept
	return min(maxProbes-len(f.probes), probesPerMin-len(kept))
}

// failure is the state of a failing machines listing.
type failure struct {
	err     error
	delay   time.Duration
	retryAt time.Time // wall
}

// next doubles the retry delay, from retryFirst up to retryMax; when the
// API asked to wait longer (Retry-After, capped by the client), it waits
// that long instead.
func (f failure) next(err error) time.Duration {
	d := retryFirst
	if f.delay != 0 {
		d = min(f.delay*2, retryMax)
	}
	if wait, ok := watch.RetryAfter(err); ok {
		d = max(d, wait)
	}
	return d
}
