package edge

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
)

// errRequestTimeout is the cancel cause of a request whose own Timeout ran
// out; it tells a timeout apart from an abort of the whole run.
var errRequestTimeout = errors.New("request timeout")

// ErrMaxTotal is returned by Run when Plan.MaxTotal cut requests off.
var ErrMaxTotal = errors.New("wake test hit its total time limit")

// classifyStatus names the outcome of a response that arrived intact.
func classifyStatus(status int) ErrClass {
	switch {
	case status >= 200 && status < 300:
		return ErrNone
	case status == 502 || status == 503 || status == 504:
		return ErrProxy5xx
	default:
		return ErrHTTPStatus
	}
}

// classifyErr names a transport or body-read failure. reqCause is
// context.Cause of the request's context, runErr the run context's Err.
func classifyErr(err error, reqCause error, runErr error) ErrClass {
	switch {
	case errors.Is(reqCause, errRequestTimeout):
		return ErrTimeout
	case runErr != nil:
		return ErrAborted
	case errors.Is(err, syscall.ECONNREFUSED):
		return ErrRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		// net/http reports a connection the server closed before answering
		// as EOF: the edge's "connection closed before message completed".
		return ErrReset
	case errors.Is(err, context.DeadlineExceeded):
		return ErrTimeout
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return ErrTimeout
	}
	return ErrOther
}
