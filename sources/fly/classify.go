package fly

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	flygo "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"

	"github.com/flywake/flywake/sources/sanitize"
)

// scope says what a 404 means for a call.
type scope int

const (
	appScope     scope = iota // 404 = the app is unknown
	machineScope              // 404 = the machine (or, by its text, the app) is unknown
	otherScope                // 404 is just a rejection
)

// call describes a method invocation for error classification.
type call struct {
	op    string
	scope scope
	app   string
	id    string
	// set for Wait only: its 408 means the long-poll expired
	wait bool
	// set for Exec only: its 408 means the command timed out on the guest
	exec        bool
	waitStates  string
	waitTimeout time.Duration
}

// httpStatusError is what this package's own requests (Prometheus)
// return for a non-2xx answer, mirroring flaps.FlapsError.
type httpStatusError struct {
	Status int
	Text   string
}

func (e *httpStatusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Text) }

// classify turns an error from fly-go or this package into one of the typed
// errors, with every string redacted and inert. ctxErr is the caller
// context's Err(); rep is what the transport saw during the call.
func classify(ctxErr error, c call, err error, token string, rep answerFacts) error {
	if err == nil {
		return nil
	}
	// rehttp reports a cancelled context as "net/http: request canceled", so
	// the context itself is the only reliable signal.
	if errors.Is(ctxErr, context.Canceled) {
		return fmt.Errorf("%s: %w", c.op, context.Canceled)
	}
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return ErrAPIDown{Op: c.op, Detail: "no answer before the deadline", cause: context.DeadlineExceeded}
	}
	// The API's words are quoted, never copied: an error page can be
	// megabytes, and every output (stderr, the debug log, reports, the
	// header) shows the error.
	status, text, ok := statusOf(err)
	text = sanitize.Quote(sanitize.Redact(text, token))
	if !ok {
		switch {
		case rep.badAnswer != "":
			return ErrBadAnswer{Op: c.op, What: rep.badAnswer}
		case isShapeError(err):
			return ErrBadAnswer{Op: c.op, What: "JSON of another shape (" + sanitize.Quote(sanitize.Redact(shapeReason(err), token)) + ")"}
		case isNetworkError(err):
			return ErrAPIDown{Op: c.op, Detail: sanitize.Quote(sanitize.Redact(networkReason(err), token))}
		}
		return fmt.Errorf("%s: %s", c.op, sanitize.Quote(sanitize.Redact(err.Error(), token)))
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrBadToken{Op: c.op, Status: status}
	case status == http.StatusNotFound:
		return notFound(c, text)
	case status == http.StatusRequestTimeout && c.wait:
		return ErrWaitTimeout{ID: c.id, States: c.waitStates, Timeout: c.waitTimeout}
	case status == http.StatusRequestTimeout && c.exec:
		// The API answered: the command itself outlived its timeout on the
		// machine. Not a network problem, and not worth repeating.
		return ErrRejected{Op: c.op, Status: status, Text: "the command timed out on the machine (" + text + ")"}
	case status == http.StatusRequestTimeout:
		return ErrAPIDown{Op: c.op, Status: status, Detail: text}
	case status == http.StatusPreconditionFailed:
		return ErrPrecondition{Op: c.op, Text: text}
	case status == http.StatusTooManyRequests:
		return ErrRateLimited{Op: c.op, RetryAfter: rep.retryAfter}
	case status >= 500:
		return ErrAPIDown{Op: c.op, Status: status, Detail: text}
	default:
		return ErrRejected{Op: c.op, Status: status, Text: text}
	}
}

func notFound(c call, text string) error {
	switch c.scope {
	case appScope:
		return ErrUnknownApp{App: c.app}
	case machineScope:
		lower := strings.ToLower(text)
		if strings.Contains(lower, "app") && !strings.Contains(lower, "machine") {
			return ErrUnknownApp{App: c.app}
		}
		return ErrMachineNotFound{App: c.app, ID: c.id}
	default:
		return ErrRejected{Op: c.op, Status: http.StatusNotFound, Text: text}
	}
}

// statusOf finds the HTTP status and the API's message in err, if any.
func statusOf(err error) (status int, text string, ok bool) {
	var fe *flaps.FlapsError
	if errors.As(err, &fe) {
		return fe.ResponseStatusCode, orStatusText(fe.Error(), fe.ResponseStatusCode), true
	}
	var ae *flygo.ApiError
	if errors.As(err, &ae) {
		return ae.Status, orStatusText(ae.Message, ae.Status), true
	}
	var he *httpStatusError
	if errors.As(err, &he) {
		return he.Status, orStatusText(he.Text, he.Status), true
	}
	return 0, "", false
}

func orStatusText(text string, status int) string {
	if strings.TrimSpace(text) != "" {
		return text
	}
	return http.StatusText(status)
}

func isNetworkError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	var de *net.DNSError
	switch {
	case errors.As(err, &oe), errors.As(err, &de):
		return true
	case errors.As(err, &ne) && ne.Timeout():
		return true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "request canceled") || strings.Contains(msg, "connection reset") ||
		strings.Contains(msg, "connection refused") || strings.Contains(msg, "server closed")
}

// isShapeError: the answer was JSON, but not what fly-go decodes there
// (an object for a list, a string for a number).
func isShapeError(err error) bool {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	return errors.As(err, &te) || errors.As(err, &se)
}

// shapeReason is the decoder's own words, without fly-go's prefixes.
func shapeReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Error()
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}

// networkReason drops url.Error's "Get <url>:" prefix: the URL there is the
// one fly-go built (e.g. api.machines.dev), not where the request went.
func networkReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return err.Error()
}
