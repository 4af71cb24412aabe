package gate

import (
	"sort"
	"time"
)

// Fly's documented Machines API limits (the Machines API docs' rate limits):
// per action (each API operation: create lease, show lease and release lease
// are three), per machine (or app), 1 req/s with bursts of 3; Get Machine
// 5 req/s with bursts of 10. That list machines, the apps endpoints and
// regions are limited per app (or org) at the default rate is an inference.
// Buckets run on WALL time, as Fly's do, whatever the platform's speed.
// Refused and no-op calls take a token like any other.

// Limit is a token bucket's rate and burst.
type Limit struct {
	perSecond float64
	burst     float64
}

// Fly's documented limits: most actions, and Get Machine.
var (
	PerAction  = &Limit{perSecond: 1, burst: 3}
	GetMachine = &Limit{perSecond: 5, burst: 10}
)

type bucket struct {
	tokens float64
	last   time.Time
}

// APIStat is what the platform saw of one (action, id) pair.
type APIStat struct {
	Calls   int // every request, refused ones included
	Limited int // answered 429 by the rate limiter
	// MaxPerSecond is the most calls seen within one wall-clock second.
	MaxPerSecond int

	second     int64 // the wall second being counted
	thisSecond int
}

func callKey(action, id string) string { return action + ":" + id }

// countCall records one request of action on id.
func (g *Gate) countCall(action, id string) {
	now := g.wall()
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	k := callKey(action, id)
	c := st.stats[k]
	if c == nil {
		c = &APIStat{}
		st.stats[k] = c
	}
	c.Calls++
	if sec := now.Unix(); sec != c.second {
		c.second, c.thisSecond = sec, 0
	}
	c.thisSecond++
	c.MaxPerSecond = max(c.MaxPerSecond, c.thisSecond)
}

// allow takes a token from the (op, id) bucket, refilled in wall time; a
// refusal is counted against the (action, id) stats.
func (g *Gate) allow(op, action, id string, lim Limit) bool {
	now := g.wall()
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.limitsOff {
		return true
	}
	b := st.buckets[callKey(op, id)]
	if b == nil {
		b = &bucket{tokens: lim.burst, last: now}
		st.buckets[callKey(op, id)] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = min(lim.burst, b.tokens+el*lim.perSecond)
	}
	b.last = now
	if b.tokens < 1 {
		if c := st.stats[callKey(action, id)]; c != nil {
			c.Limited++
		}
		return false
	}
	b.tokens--
	return true
}

// APICalls counts requests per "action:id" since start (or the last
// ResetAPICalls): e.g. "list:sleepy-api", "get:<machine id>",
// "start:<machine id>", "apps:demo-org", "logs:<app>", "prom:<org>".
// Actions: apps, app, list, create, get, update, destroy, start, stop,
// suspend, restart, signal, cordon, uncordon, wait, exec, lease_show,
// lease_create, lease_release, events, versions, metadata_show,
// metadata_update, metadata_delete, ps, volumes, volume, volume_snapshots,
// secrets, regions, logs, prom, unknown.
func (g *Gate) APICalls() map[string]int {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make(map[string]int, len(st.stats))
	for k, c := range st.stats {
		out[k] = c.Calls
	}
	return out
}

// APIStats is APICalls with the 429s and the busiest wall second per key.
func (g *Gate) APIStats() map[string]APIStat {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make(map[string]APIStat, len(st.stats))
	for k, c := range st.stats {
		out[k] = APIStat{Calls: c.Calls, Limited: c.Limited, MaxPerSecond: c.MaxPerSecond}
	}
	return out
}

// APICallKeys lists the keys of APICalls in order, for stable reports.
func (g *Gate) APICallKeys() []string {
	calls := g.APICalls()
	keys := make([]string, 0, len(calls))
	for k := range calls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ResetAPICalls zeroes the counters (the rate-limit buckets are kept).
func (g *Gate) ResetAPICalls() {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	clear(st.stats)
}

// SetRateLimits turns the Machines API's rate limits on (the default) or
// off, for benchmarks that measure the API rather than its limits.
func (g *Gate) SetRateLimits(on bool) {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	st.limitsOff = !on
}
