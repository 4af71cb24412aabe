package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/superfly/fly-go/flaps"

	"github.com/flywake/flywake/sources/sanitize"
)

// Every change flywake makes to a machine runs under the machine's lease,
// as flyctl's machine commands do (AcquireLease, act with the nonce,
// release): a deploy in progress holds the leases of the machines it is
// replacing, and flywake must not start, stop or suspend them under it.
// withLease is the one place that does it, so no caller can forget.

// leaseTTL is how long one action holds the lease: the action itself returns
// at once (the transition runs on), so this only covers a slow network; an
// interrupted release lets the lease lapse quickly.
const leaseTTL = 30 // seconds

// acquireWithin bounds fly-go's AcquireLease, which retries every error (409
// included) for up to a minute.
const acquireWithin = 5 * time.Second

// ErrLeaseHeld: someone else holds the machine's lease (a deploy, another
// operator's flyctl). Nothing was sent to the machine. (fly-go v0.5.0 does
// not decode the lease's description, so it cannot be shown.)
type ErrLeaseHeld struct {
	App, Machine string
	Owner        string
	Expires      time.Time // platform clock; zero when the API gave none
}

func (e ErrLeaseHeld) Error() string {
	s := fmt.Sprintf("machine %s is leased by %s", e.Machine, e.Owner)
	if !e.Expires.IsZero() {
		s += " until " + e.Expires.UTC().Format(time.RFC3339)
	}
	return s + " — nothing was changed; wait for it to finish, or see `fly machine leases view " + e.Machine + " -a " + e.App + "`"
}
func (ErrLeaseHeld) Is(target error) bool { _, ok := target.(ErrLeaseHeld); return ok }

// ErrLeaseNotReleased: the action was sent, but releasing its lease failed;
// the lease lapses by itself at Expires.
type ErrLeaseNotReleased struct {
	Machine string
	Expires time.Time
	Cause   error
}

func (e ErrLeaseNotReleased) Error() string {
	return fmt.Sprintf("the change to %s was sent, but its lease could not be released (%v); it lapses by itself at %s",
		e.Machine, e.Cause, e.Expires.UTC().Format(time.RFC3339))
}
func (ErrLeaseNotReleased) Is(target error) bool { _, ok := target.(ErrLeaseNotReleased); return ok }
func (e ErrLeaseNotReleased) Unwrap() error      { return e.Cause }

// withLease runs act holding app/id's lease. It refuses with ErrLeaseHeld,
// before any change, when someone else holds the lease; otherwise it takes
// the lease, runs act with its nonce (which fly-go sends as
// fly-machine-lease-nonce) and releases it, even when act fails or ctx ends.
func (c *Client) withLease(ctx context.Context, k call, act func(ctx context.Context, nonce string) error) error {
	if held, err := c.leaseHolder(ctx, k); err != nil || held != nil {
		if held != nil {
			return *held
		}
		return err
	}
	actx, cancel := context.WithTimeout(ctx, acquireWithin)
	ttl := leaseTTL
	l, err := c.flaps.AcquireLease(actx, k.app, k.id, &ttl)
	cancel()
	if err != nil || l == nil || l.Data == nil || l.Data.Nonce == "" {
		// Taken between our look and our grab: say by whom.
		if held, herr := c.leaseHolder(ctx, k); herr == nil && held != nil {
			return *held
		}
		if err == nil {
			err = errors.New("the API granted no lease")
		}
		return c.fail(ctx, call{op: "take the lease of " + k.id, scope: machineScope, app: k.app, id: k.id}, err)
	}
	nonce, expires := l.Data.Nonce, time.Unix(l.Data.ExpiresAt, 0)
	actErr := act(ctx, nonce)
	// Release even if the caller gave up: a held lease blocks everyone.
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), acquireWithin)
	defer rcancel()
	relErr := c.flaps.ReleaseLease(rctx, k.app, k.id, nonce)
	var fe *flaps.FlapsError
	if errors.As(relErr, &fe) && fe.ResponseStatusCode == http.StatusNotFound {
		relErr = nil // gone with its machine (a destroy), or lapsed: nothing holds it
	}
	if actErr != nil {
		return actErr
	}
	if relErr != nil {
		return ErrLeaseNotReleased{Machine: k.id, Expires: expires,
			Cause: c.fail(rctx, call{op: "release the lease of " + k.id, scope: otherScope, app: k.app, id: k.id}, relErr)}
	}
	return nil
}

// CheckLease reports ErrLeaseHeld when someone holds app/id's lease, nil
// when nobody does: a caller about to change several machines (the wake
// test) refuses before touching any of them.
func (c *Client) CheckLease(ctx context.Context, app, id string) error {
	k, err := machineCall("look up the lease of machine", app, id)
	if err != nil {
		return err
	}
	held, err := c.leaseHolder(ctx, k)
	if held != nil {
		return *held
	}
	return err
}

// noLease is the Machines API's 404 message for a machine nobody leases.
const noLease = "lease not found"

// leaseHolder looks the machine's lease up: nil when there is none.
func (c *Client) leaseHolder(ctx context.Context, k call) (*ErrLeaseHeld, error) {
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	l, err := c.flaps.FindLease(expectingNone(ctx, noLease), k.app, k.id)
	var fe *flaps.FlapsError
	if errors.As(err, &fe) && fe.ResponseStatusCode == http.StatusNotFound &&
		strings.Contains(string(fe.ResponseBody), noLease) {
		return nil, nil
	}
	if err != nil {
		return nil, c.fail(ctx, call{op: "look up the lease of " + k.id, scope: machineScope, app: k.app, id: k.id}, err)
	}
	if l == nil || l.Data == nil || l.Data.Owner == "" && l.Data.Nonce == "" {
		return nil, nil
	}
	held := &ErrLeaseHeld{App: k.app, Machine: k.id, Owner: sanitize.Quote(sanitize.Redact(l.Data.Owner, c.token))}
	if l.Data.ExpiresAt > 0 {
		held.Expires = time.Unix(l.Data.ExpiresAt, 0)
	}
	if held.Owner == "" {
		held.Owner = "someone"
	}
	return held, nil
}
