package watch

import (
	"context"
	"errors"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
)

// CauseOf names why a call (or finding the token and the app) failed, in
// the words check and verdict report it by; "" for nil.
func CauseOf(err error) diagnose.Cause {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, fly.ErrNoToken{}), errors.Is(err, fly.ErrBadToken{}):
		return diagnose.CauseAuth
	case errors.Is(err, fly.ErrNoApp{}), errors.Is(err, fly.ErrUnknownApp{}):
		return diagnose.CauseUnknownApp
	case errors.Is(err, fly.ErrRateLimited{}):
		return diagnose.CauseRateLimited
	case errors.Is(err, fly.ErrAPIDown{}):
		return diagnose.CauseAPIDown
	case errors.Is(err, fly.ErrBadAnswer{}):
		return diagnose.CauseBadAnswer
	case errors.Is(err, context.DeadlineExceeded):
		return diagnose.CauseTimeout
	case errors.Is(err, context.Canceled):
		return diagnose.CauseInterrupted
	}
	return diagnose.CauseError
}
