package fly

import (
	"strings"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// Stats is a snapshot of the client's traffic for the dashboard header.
type Stats struct {
	CallsLastMinute int // HTTP attempts sent in the last 60 s, retries included, to either API
	Calls           int // HTTP attempts sent since the client was built, retries included
	// MachinesLastMinute is the part of CallsLastMinute that went to the
	// Machines API (the one with per-operation rate limits); the rest went
	// to the platform API (logs, Prometheus metrics, apps).
	MachinesLastMinute int
	BackoffUntil       time.Time // when a 408/429 backoff ends (zero or past: not backing off)
	// LastError is the last failed attempt, redacted, until the same call
	// (the same operation on the same app or machine) succeeds; "" when
	// none is outstanding. Expected refusals
	// (409 lease conflicts, 412 preconditions: a refused suspend, an exec on
	// a machine that just stopped) are answers, not errors, and not kept.
	LastError   string
	LastErrorAt time.Time // when LastError happened
	// LastErrorApp is the app the failed call was about (its path's
	// /apps/{app}), "" for a call about none (the GraphQL API, metrics):
	// a dashboard shows an app's error with that app only.
	LastErrorApp string
	LastOK       time.Time // last attempt the API answered without a 5xx/408/429
	Throttled    int       // 429 responses seen since the client was built
}

const statsWindow = time.Minute

// recorder collects Stats; every method is safe for concurrent use.
type recorder struct {
	token string // only used to redact

	mu           sync.Mutex
	attempts     []attemptAt // ascending; pruned to statsWindow
	total        int
	backoffUntil time.Time
	lastError    string
	lastErrorAt  time.Time
	errorCall    callID // the call lastError came from (see callKey)
	lastOK       time.Time
	throttled    int
}

// api says which of the two APIs a transport talks to.
type api int

const (
	machinesAPI api = iota // Machines API (flaps)
	platformAPI            // GraphQL, logs, Prometheus
)

type attemptAt struct {
	at  time.Time
	api api
}

func (r *recorder) attempt(now time.Time, to api) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(now)
	r.attempts = append(r.attempts, attemptAt{now, to})
	r.total++
}

// answered records a response. 4xx other than 408/429 still count as OK:
// the API is up and answering, the request itself was wrong; 409 and 412
// are expected refusals and leave the last error as it was. A success of
// the call that failed clears its error.
func (r *recorder) answered(now time.Time, call callID, status int, what string) {
	what = sanitize.Quote(sanitize.Redact(what, r.token)) // the status line's text is the server's
	r.mu.Lock()
	defer r.mu.Unlock()
	if status == 429 {
		r.throttled++
	}
	switch {
	case status >= 500 || status == 429 || status == 408:
		r.errorLocked(now, call, what)
	case status == 409 || status == 412:
		r.lastOK = now
	case status >= 400:
		r.errorLocked(now, call, what)
		r.lastOK = now
	default:
		r.lastOK = now
		if r.errorCall == call {
			r.lastError, r.lastErrorAt, r.errorCall = "", time.Time{}, callID{}
		}
	}
}

func (r *recorder) failed(now time.Time, call callID, what string) {
	what = sanitize.Quote(sanitize.Redact(what, r.token))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errorLocked(now, call, what)
}

func (r *recorder) errorLocked(now time.Time, call callID, what string) {
	r.lastError, r.lastErrorAt, r.errorCall = what, now, call
}

// callKey names a call for the last error, which only a success of the
// same call clears: a Machines API call by its operation and what it is on
// (routeOf), so another machine's success never hides a failing one; any
// other call by method and path (every GraphQL query shares one key, every
// Prometheus instant query another). It also names the app the call is
// about, for the header.
func callKey(method, path string) callID {
	if r, _, ok := routeOf(method, path); ok {
		return callID{key: r.Action + " " + r.ID, app: appOfPath(path)}
	}
	return callID{key: method + " " + path, app: appOfPath(path)}
}

// callID is a call as the last error keeps it: its key and its app.
type callID struct{ key, app string }

// appOfPath is the {app} of a path holding /apps/{app}, "" for any other.
func appOfPath(path string) string {
	_, rest, ok := strings.Cut(path, "/apps/")
	if !ok {
		return ""
	}
	app, _, _ := strings.Cut(rest, "/")
	return app
}

func (r *recorder) backoff(until time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if until.After(r.backoffUntil) {
		r.backoffUntil = until
	}
}

func (r *recorder) snapshot(now time.Time) Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(now)
	machines := 0
	for _, a := range r.attempts {
		if a.api == machinesAPI {
			machines++
		}
	}
	return Stats{
		CallsLastMinute:    len(r.attempts),
		MachinesLastMinute: machines,
		Calls:              r.total,
		BackoffUntil:       r.backoffUntil,
		LastError:          r.lastError,
		LastErrorAt:        r.lastErrorAt,
		LastErrorApp:       r.errorCall.app,
		LastOK:             r.lastOK,
		Throttled:          r.throttled,
	}
}

func (r *recorder) pruneLocked(now time.Time) {
	cut := 0
	for cut < len(r.attempts) && now.Sub(r.attempts[cut].at) >= statsWindow {
		cut++
	}
	if cut > 0 {
		r.attempts = append(r.attempts[:0], r.attempts[cut:]...)
	}
}
