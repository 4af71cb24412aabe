package proxy

import "time"

// The edge's routing decision, kept free of I/O and of the simulator's state
// so both the real listeners (one request at a time) and the background
// traffic model (requests in bulk) make exactly the same choices
// (the docs' load balancing and autostart pages).

// recentlyStopped is how long Fly's edge treats a stopped machine as "recently
// stopped" (PM11) and prefers any other.
const recentlyStopped = 5 * time.Minute

// candidate is how the proxy sees one machine of the app.
type candidate struct {
	State     string
	Serving   bool
	Load      float64 // requests (or connections) in flight or held for it
	StoppedAt time.Time
	// Cordoned: the edge routes nothing to it (POST …/cordon, or created
	// with skip_service_registration), awake or not.
	Cordoned bool
	// Far: the machine is in another region than the edge that took the
	// request. The proxy prefers the closest machine with room, and wakes
	// one "in the nearest region".
	Far bool
	// Lim is the machine's own service settings (its config's).
	Lim limits
	// NoService: its config has no service the edge routes to.
	NoService bool
	// Leaving: a user is stopping or suspending it; the proxy never wakes
	// it (that would undo the user's action).
	Leaving bool
}

// routable: the edge may send it requests at all.
func (c candidate) routable() bool { return !c.Cordoned && !c.NoService }

// closer orders two candidates for routing: the nearer region first, then
// the lighter load.
func closer(a, b candidate) bool {
	if a.Far != b.Far {
		return !a.Far
	}
	return a.Load < b.Load
}

// booting: on its way to serving, so the proxy may hold requests for it.
func (c candidate) booting() bool {
	switch c.State {
	case "starting", "restarting":
		return true
	case "started":
		return !c.Serving
	}
	return false
}

// wakeable: the proxy may start (or resume) it. A failed machine is not:
// the proxy only wakes what is asleep.
func (c candidate) wakeable() bool {
	switch c.State {
	case "stopped", "created", "suspended", "suspending":
		return true
	}
	return false
}

// wakes: the proxy may wake it for a request: asleep, routable, its
// service autostarts, and no user is putting it to sleep.
func (c candidate) wakes() bool { return c.wakeable() && c.routable() && c.Lim.Autostart && !c.Leaving }

func (c candidate) suspended() bool { return c.State == "suspended" || c.State == "suspending" }

// limits are a service's concurrency and autostart settings. Hard 0 means
// no hard limit.
type limits struct {
	Soft, Hard int
	Autostart  bool
}

func (l limits) underHard(load float64) bool { return l.Hard <= 0 || load < float64(l.Hard) }

type routeKind int

const (
	routeNone  routeKind = iota // no machine can take it now: retry until the patience runs out
	routeServe                  // a serving machine takes it
	routeHold                   // hold it for a machine that is booting
	routeWake                   // start or resume this machine, then hold it
	routeQueue                  // every machine is at its hard limit: queue
)

func (k routeKind) String() string {
	return [...]string{"none", "serve", "hold", "wake", "queue"}[k]
}

// route is a routing decision. Index is the chosen machine; Skipped is a
// recently stopped machine the edge passed over for the wake (PM11), or -1.
type route struct {
	Kind    routeKind
	Index   int
	Skipped int
}

// chooseRoute applies Fly's documented order, each machine by its own
// service's settings: the least-loaded serving machine under its soft
// limit; a booting machine under its soft limit; when every running
// machine is at or above its soft limit, a stopped or suspended machine
// whose service autostarts, preferring suspended ones (cheaper to wake)
// and passing over machines stopped in the last five minutes while others are
// available; then machines over their soft but under their hard limit; then
// the queue.
func chooseRoute(cs []candidate, now time.Time) route {
	under := func(serving bool, limit func(candidate) bool) int {
		best := -1
		for i, c := range cs {
			ok := (serving && c.State == "started" && c.Serving) || (!serving && c.booting())
			if ok && c.routable() && limit(c) && (best < 0 || closer(c, cs[best])) {
				best = i
			}
		}
		return best
	}
	belowSoft := func(c candidate) bool { return c.Load < float64(c.Lim.Soft) }
	underHard := func(c candidate) bool { return c.Lim.underHard(c.Load) }
	if i := under(true, belowSoft); i >= 0 {
		return route{Kind: routeServe, Index: i, Skipped: -1}
	}
	if i := under(false, belowSoft); i >= 0 {
		return route{Kind: routeHold, Index: i, Skipped: -1}
	}
	if i, skipped := pickWake(cs, now); i >= 0 {
		return route{Kind: routeWake, Index: i, Skipped: skipped}
	}
	if i := under(true, underHard); i >= 0 {
		return route{Kind: routeServe, Index: i, Skipped: -1}
	}
	if i := under(false, underHard); i >= 0 {
		return route{Kind: routeHold, Index: i, Skipped: -1}
	}
	for _, c := range cs {
		if c.routable() && ((c.State == "started" && c.Serving) || c.booting()) {
			return route{Kind: routeQueue, Index: -1, Skipped: -1}
		}
	}
	return route{Kind: routeNone, Index: -1, Skipped: -1}
}

// pickWake chooses the machine to wake: the nearest region first, then
// suspended before stopped, not recently stopped before recently stopped,
// longest asleep first. When it
// passes over a recently stopped machine for another, that machine is
// returned as skipped (the PM11 reroute). With only recently stopped
// machines left, the PM11 check is bypassed and one of them is woken.
func pickWake(cs []candidate, now time.Time) (pick, skipped int) {
	rank := func(c candidate) int {
		r := 0
		if !c.suspended() {
			r++
		}
		if now.Sub(c.StoppedAt) < recentlyStopped {
			r += 2
		}
		if c.Far {
			r += 4
		}
		return r
	}
	pick, skipped = -1, -1
	for i, c := range cs {
		if !c.wakes() {
			continue
		}
		if pick < 0 || rank(c) < rank(cs[pick]) ||
			(rank(c) == rank(cs[pick]) && c.StoppedAt.Before(cs[pick].StoppedAt)) {
			pick = i
		}
	}
	if pick < 0 || now.Sub(cs[pick].StoppedAt) < recentlyStopped {
		return pick, -1
	}
	// The edge's view lags: it first tries the machine it saw stop last.
	for i, c := range cs {
		if c.wakes() && now.Sub(c.StoppedAt) < recentlyStopped &&
			(skipped < 0 || c.StoppedAt.After(cs[skipped].StoppedAt)) {
			skipped = i
		}
	}
	return pick, skipped
}

// forcedRoute is the decision for a request carrying fly-force-instance-id:
// that machine or nothing. It is served when serving (limits do not apply to
// a forced request); a machine on its way up holds it; a sleeping machine is
// woken only when wakes is set (Fly's docs leave this open; a wake test saw no
// wake), otherwise the request waits out the proxy's patience.
func forcedRoute(c candidate, wakes bool) routeKind {
	switch {
	case c.NoService:
		return routeNone
	case c.State == "started" && c.Serving:
		return routeServe
	case c.booting():
		return routeHold
	case wakes && c.wakeable():
		return routeWake
	}
	return routeNone
}

// fluidLoad is the proxy's in-flight count on a machine that receives lam
// requests per second, each taking svc seconds, with workers serving in
// parallel: Little's law at low load, growing without bound as the workers
// saturate (an M/M/1-like queue in the app).
func fluidLoad(lam, svc float64, workers int) float64 {
	if lam <= 0 {
		return 0
	}
	rho := lam * svc / float64(workers)
	if rho >= 0.999 {
		return lam * svc * 1000
	}
	return lam * svc / (1 - rho)
}

// fluidRate inverts fluidLoad: the arrival rate at which the in-flight count
// reaches load.
func fluidRate(load, svc float64, workers int) float64 {
	if load <= 0 {
		return 0
	}
	return load / (svc * (1 + load/float64(workers)))
}
