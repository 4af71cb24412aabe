package fly

import (
	"sync"
	"time"

	"github.com/flywake/flywake/sources/sanitize"
)

// Stats is a snapshot of the client's traffic for the dashboard header.
type Stats struct {
	CallsLastMinute int       // HTTP attempts sent in the last 60 s, retries included
	Calls           int       // HTTP attempts sent since the client was built, retries included
	BackoffUntil    time.Time // when a 408/429 backoff ends (zero or past: not backing off)
	LastError       string    // last failed attempt, redacted
	LastOK          time.Time // last attempt the API answered without a 5xx/408/429
	Throttled       int       // 429 responses seen since the client was built
}

const statsWindow = time.Minute

// recorder collects Stats; every method is safe for concurrent use.
type recorder struct {
	token string // only used to redact

	mu           sync.Mutex
	attempts     []time.Time // ascending; pruned to statsWindow
	total        int
	backoffUntil time.Time
	lastError    string
	lastOK       time.Time
	throttled    int
}

func (r *recorder) attempt(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(now)
	r.attempts = append(r.attempts, now)
	r.total++
}

// answered records a response. 4xx other than 408/429 still count as OK:
// the API is up and answering, the request itself was wrong.
func (r *recorder) answered(now time.Time, status int, what string) {
	what = sanitize.Line(Redact(what, r.token)) // the status line's text is the server's
	r.mu.Lock()
	defer r.mu.Unlock()
	if status == 429 {
		r.throttled++
	}
	switch {
	case status >= 500 || status == 429 || status == 408:
		r.lastError = what
	case status >= 400:
		r.lastError = what
		r.lastOK = now
	default:
		r.lastOK = now
	}
}

func (r *recorder) failed(what string) {
	what = sanitize.Line(Redact(what, r.token))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastError = what
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
	return Stats{
		CallsLastMinute: len(r.attempts),
		Calls:           r.total,
		BackoffUntil:    r.backoffUntil,
		LastError:       r.lastError,
		LastOK:          r.lastOK,
		Throttled:       r.throttled,
	}
}

func (r *recorder) pruneLocked(now time.Time) {
	cut := 0
	for cut < len(r.attempts) && now.Sub(r.attempts[cut]) >= statsWindow {
		cut++
	}
	if cut > 0 {
		r.attempts = append(r.attempts[:0], r.attempts[cut:]...)
	}
}
