package fly

import (
	"fmt"
	"time"
)

// Every error type here has value receivers and an Is method, so both
// errors.Is(err, ErrX{}) and errors.As(err, &ErrX{}) work. Messages say how
// to fix the problem and never contain the token (see sanitize.Redact).

// ErrNoToken: no token in the environment or flyctl's config file.
type ErrNoToken struct{ ConfigPath string }

func (e ErrNoToken) Error() string {
	return "no Fly API token found (looked at FLY_ACCESS_TOKEN, FLY_API_TOKEN and " + e.ConfigPath +
		") — run `fly auth login`, or set FLY_API_TOKEN (a read-only token from `fly tokens create readonly` is enough to watch); " +
		"or try `flywake --demo`"
}
func (ErrNoToken) Is(target error) bool { _, ok := target.(ErrNoToken); return ok }

// ErrNoApp: no -a flag, no FLY_APP, and no app in ./fly.toml.
type ErrNoApp struct{ Dir string }

func (e ErrNoApp) Error() string {
	return "no app selected — pass -a APP, set FLY_APP, or run flywake in a directory whose fly.toml has `app = \"...\"`; " +
		"`fly apps list` shows your apps, or try `flywake --demo`"
}
func (ErrNoApp) Is(target error) bool { _, ok := target.(ErrNoApp); return ok }

// ErrUnknownApp: the API answered 404 for the app.
type ErrUnknownApp struct{ App string }

func (e ErrUnknownApp) Error() string {
	return fmt.Sprintf("app %q not found — check -a/FLY_APP or `fly apps list`", e.App)
}
func (ErrUnknownApp) Is(target error) bool { _, ok := target.(ErrUnknownApp); return ok }

// ErrMachineNotFound: the API answered 404 for a machine of a known app.
type ErrMachineNotFound struct{ App, ID string }

func (e ErrMachineNotFound) Error() string {
	return fmt.Sprintf("machine %s not found in app %q — it may have been destroyed; refresh, or see `fly machine list -a %s`",
		e.ID, e.App, e.App)
}
func (ErrMachineNotFound) Is(target error) bool { _, ok := target.(ErrMachineNotFound); return ok }

// ErrBadToken: the API answered 401 or 403.
type ErrBadToken struct {
	Op     string
	Status int
}

func (e ErrBadToken) Error() string {
	if e.Status == 403 {
		return fmt.Sprintf("%s: the API refused the token (403) — it may not allow this action: a read-only token can watch, "+
			"wake tests need a deploy token (`fly tokens deploy -a APP`)", e.Op)
	}
	return fmt.Sprintf("%s: the API refused the token (%d) — run `fly auth login` or set FLY_API_TOKEN to a valid token "+
		"(`fly tokens create readonly` is enough to watch)", e.Op, e.Status)
}
func (ErrBadToken) Is(target error) bool { _, ok := target.(ErrBadToken); return ok }

// ErrRateLimited: still 429 after this client's retries, or asked to wait
// (Retry-After) longer than the caller's deadline allows.
type ErrRateLimited struct {
	Op string
	// RetryAfter is how long the API asked to wait (capped at
	// MaxRetryAfter); 0 when it did not say.
	RetryAfter time.Duration
}

func (e ErrRateLimited) Error() string {
	wait := "wait a few seconds"
	if e.RetryAfter > 0 {
		wait = fmt.Sprintf("it asked to wait %s", e.RetryAfter.Round(time.Second))
	}
	return fmt.Sprintf("%s: the Machines API is rate-limiting us (429) — %s; "+
		"other tools using the same token share Fly's limits", e.Op, wait)
}
func (ErrRateLimited) Is(target error) bool { _, ok := target.(ErrRateLimited); return ok }

// ErrAPIDown: 5xx, connection refused/reset, or no answer before the deadline.
// When the deadline ran out it unwraps to context.DeadlineExceeded.
type ErrAPIDown struct {
	Op     string
	Status int    // 0 when there was no HTTP answer
	Detail string // redacted
	cause  error  // only ever a context error, so it can be exposed safely
}

func (e ErrAPIDown) Error() string {
	what := e.Detail
	if e.Status != 0 {
		what = fmt.Sprintf("HTTP %d: %s", e.Status, e.Detail)
	}
	return fmt.Sprintf("%s: the Fly API is not answering properly (%s) — check your network or https://status.flyio.net and retry",
		e.Op, what)
}
func (ErrAPIDown) Is(target error) bool { _, ok := target.(ErrAPIDown); return ok }
func (e ErrAPIDown) Unwrap() error      { return e.cause }

// ErrBadAnswer: the API answered 2xx with something fly-go cannot decode:
// not JSON (an HTML page from a proxy, a truncated body), an empty body, or
// JSON of another shape. What says which, quoting the first bytes inertly.
type ErrBadAnswer struct {
	Op   string
	What string
}

func (e ErrBadAnswer) Error() string {
	return fmt.Sprintf("%s: the API answered %s — a proxy or an API change may be in the way", e.Op, e.What)
}
func (ErrBadAnswer) Is(target error) bool { _, ok := target.(ErrBadAnswer); return ok }

// ErrPrecondition: 412 failed_precondition; Text is the API's own words,
// e.g. "failed_precondition: Machines with swap cannot be suspended".
type ErrPrecondition struct {
	Op   string
	Text string
}

func (e ErrPrecondition) Error() string      { return e.Op + ": " + e.Text }
func (ErrPrecondition) Is(target error) bool { _, ok := target.(ErrPrecondition); return ok }

// ErrWaitTimeout: the /wait long-poll expired (408) before the machine
// reached the state; call Wait again to keep waiting.
type ErrWaitTimeout struct {
	ID      string
	States  string
	Timeout time.Duration
}

func (e ErrWaitTimeout) Error() string {
	return fmt.Sprintf("machine %s did not reach %s within %s — wait again, or look at `fly machine status %s`",
		e.ID, e.States, e.Timeout, e.ID)
}
func (ErrWaitTimeout) Is(target error) bool { _, ok := target.(ErrWaitTimeout); return ok }

// ErrRejected: any other 4xx (400, 409, 422...), with the API's text.
type ErrRejected struct {
	Op     string
	Status int
	Text   string
}

func (e ErrRejected) Error() string {
	return fmt.Sprintf("%s: the API rejected the request (%d): %s", e.Op, e.Status, e.Text)
}
func (ErrRejected) Is(target error) bool { _, ok := target.(ErrRejected); return ok }
