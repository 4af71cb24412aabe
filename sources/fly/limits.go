package fly

import (
	"net/http"
	"strings"
	"time"
)

// route identifies the rate-limit bucket a Machines API request falls into:
// Fly scopes its limits "per action, per identifier (Machine ID or App ID)".
type route struct {
	Action string // e.g. "POST start", "GET machine", "GET list"
	ID     string // machine id, or app name for app-level calls
}

// limit is a token bucket's refill rate and capacity.
type limit struct {
	PerSecond float64
	Burst     int
}

// The client paces a little under Fly's documented limits: the server sees
// requests with network jitter (two sent 1 s apart can arrive 0.9 s apart),
// and other tools (flyctl, a deploy) spend the same budget. Pacing exactly at
// the limit produced occasional 429s against flysim's server-side buckets.
const limitMargin = 0.9

var (
	// Fly docs: 1 req/s per action per machine, bursts up to 3.
	actionLimit = underLimit(1, 3)
	// Fly docs: Get Machine allows 5 req/s, bursts up to 10.
	getMachineLimit = underLimit(5, 10)
	// Assumption (not documented): listing machines is limited like any other
	// action, scoped to the app, so 1 req/s burst 3 per app.
	listMachinesLimit = underLimit(1, 3)
)

// underLimit is the client's bucket for a documented rate and burst.
func underLimit(perSecond float64, burst int) limit {
	return limit{PerSecond: perSecond * limitMargin, Burst: max(1, burst-1)}
}

// routeOf maps a request to its bucket. ok is false for paths outside the
// Machines API (logs, Prometheus), which have no documented limit and are
// left unpaced; they are still counted in Stats.
func routeOf(method, path string) (r route, lim limit, ok bool) {
	rest, found := strings.CutPrefix(path, "/v1/")
	if !found {
		return route{}, limit{}, false
	}
	seg := strings.Split(strings.Trim(rest, "/"), "/")
	if seg[0] != "apps" {
		return route{Action: method + " " + seg[0]}, actionLimit, true
	}
	switch {
	case len(seg) == 1: // /v1/apps
		return route{Action: method + " apps"}, actionLimit, true
	case len(seg) == 2: // /v1/apps/{app}
		return route{Action: method + " app", ID: seg[1]}, actionLimit, true
	case seg[2] != "machines": // volumes, secrets, ips...
		return route{Action: method + " " + seg[2], ID: seg[1]}, actionLimit, true
	case len(seg) == 3: // /v1/apps/{app}/machines
		if method == http.MethodGet {
			return route{Action: "GET list", ID: seg[1]}, listMachinesLimit, true
		}
		return route{Action: method + " machines", ID: seg[1]}, actionLimit, true
	case len(seg) == 4: // /v1/apps/{app}/machines/{id}
		if method == http.MethodGet {
			return route{Action: "GET machine", ID: seg[3]}, getMachineLimit, true
		}
		return route{Action: method + " machine", ID: seg[3]}, actionLimit, true
	default: // /v1/apps/{app}/machines/{id}/{action}[/...]; wait long-polls count too
		return route{Action: method + " " + seg[4], ID: seg[3]}, actionLimit, true
	}
}

// isWaitPath reports whether a request is the /wait long-poll, whose 408
// means "the poll expired", not "retry me".
func isWaitPath(path string) bool {
	return strings.HasPrefix(path, "/v1/apps/") && strings.HasSuffix(strings.TrimSuffix(path, "/"), "/wait")
}

// isExecPath reports whether a request runs a command on a machine.
func isExecPath(path string) bool {
	return strings.HasPrefix(path, "/v1/apps/") && strings.HasSuffix(strings.TrimSuffix(path, "/"), "/exec")
}

// bucket is a token bucket that hands out reservations: a taker that finds
// it empty goes into debt and is told how long to wait, so concurrent callers
// are served in order without polling.
type bucket struct {
	tokens float64
	last   time.Time
}

// reserve takes one token at now and returns how long the caller must wait
// before sending.
func (b *bucket) reserve(now time.Time, l limit) time.Duration {
	if b.last.IsZero() {
		b.tokens, b.last = float64(l.Burst), now
	}
	if now.After(b.last) {
		b.tokens = min(float64(l.Burst), b.tokens+now.Sub(b.last).Seconds()*l.PerSecond)
		b.last = now
	}
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / l.PerSecond * float64(time.Second))
}

// giveBack returns a reservation that was never used (the caller gave up).
func (b *bucket) giveBack(l limit) {
	b.tokens = min(float64(l.Burst), b.tokens+1)
}

// full reports whether the bucket has refilled completely by now, i.e. it
// carries no state worth keeping.
func (b *bucket) full(now time.Time, l limit) bool {
	return b.tokens+now.Sub(b.last).Seconds()*l.PerSecond >= float64(l.Burst)
}
