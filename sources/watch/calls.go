package watch

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/waketest"
)

// The calls the dashboard makes besides the feeds: a machine's wait
// long-poll, the machine actions, the describe view's GET, the org's apps,
// and the client's traffic for the header. The root model reaches the
// platform through these only; what their errors mean is said here too, so
// nothing above this package reads the client's error types.

// ErrNoPlatform: the source has no client (a model built without one).
var ErrNoPlatform = errors.New("no platform to ask")

// Ready reports whether s can reach a platform.
func (s *Source) Ready() bool { return s != nil && s.Client != nil }

// WaitPoll is one wait long-poll (the API allows 60 s).
const WaitPoll = 45 * time.Second

// settledStates are what a wait long-poll waits for: any state a
// transition ends in.
var settledStates = []string{"started", "stopped", "suspended"}

// SteadyWaitPoll is one wait on a machine at rest: the longest the API
// allows, so watching a steady machine costs one call a minute.
const SteadyWaitPoll = 60 * time.Second

// Wait long-polls one machine until it is in one of states, or the poll's
// time passes (an ErrWaitTimeout: not a failure).
func (s *Source) Wait(ctx context.Context, app, id, instance string, poll time.Duration, states []string) error {
	if !s.Ready() {
		return ErrNoPlatform
	}
	return s.Client.Wait(ctx, app, id, instance, poll, states...)
}

// waitStates is what a wait on a machine in state waits for: a machine in
// transition, any state a transition ends in; one at rest, any other rest
// state (a crash the restart policy restarts counts as stopped); nil for a
// state no wait follows (created, failed, destroyed, …).
func waitStates(state string) []string {
	if diagnose.IsTransient(state) {
		return settledStates
	}
	if !slices.Contains(settledStates, state) {
		return nil
	}
	out := make([]string, 0, len(settledStates)-1)
	for _, s := range settledStates {
		if s != state {
			out = append(out, s)
		}
	}
	return out
}

// Action is a change the user asks for on one machine.
type Action int

const (
	Start Action = iota + 1
	Stop
	Suspend
)

// Act sends a to one machine; the client runs it under the machine's
// lease. Stop sends no signal and no timeout, so the machine's own
// stop_config (SIGINT by default, its kill timeout) applies.
func (s *Source) Act(ctx context.Context, app, id string, a Action) error {
	if !s.Ready() {
		return ErrNoPlatform
	}
	switch a {
	case Start:
		_, err := s.Client.Start(ctx, app, id)
		return err
	case Stop:
		return s.Client.Stop(ctx, app, id, "", 0)
	case Suspend:
		return s.Client.Suspend(ctx, app, id)
	}
	return errors.New("unknown action")
}

// Describe is one machine as the API answers GET machine, as inert,
// redacted JSON lines (the describe view).
func (s *Source) Describe(ctx context.Context, app, id string) ([]string, error) {
	if !s.Ready() {
		return nil, ErrNoPlatform
	}
	return s.Client.DescribeMachine(ctx, app, id)
}

// Apps lists the names of the org's apps.
func (s *Source) Apps(ctx context.Context) ([]string, error) {
	if !s.Ready() {
		return nil, ErrNoPlatform
	}
	apps, err := s.Client.ListApps(ctx, s.Org)
	names := make([]string, 0, len(apps))
	for _, a := range apps {
		names = append(names, a.Name)
	}
	return names, err
}

// Stats is the client's traffic, for the header.
type Stats = fly.Stats

// Stats is the client's traffic so far (zero without a client).
func (s *Source) Stats() Stats {
	if !s.Ready() {
		return Stats{}
	}
	return s.Client.Stats()
}

// WakeEnv is the platform the wake test runs against.
func (s *Source) WakeEnv() (waketest.Env, error) {
	if !s.Ready() {
		return waketest.Env{}, ErrNoPlatform
	}
	return waketest.Env{API: s.Client, Now: s.Now}, nil
}

// What an error from this package's calls means to the one showing it.

// IsFatal: no retry can fix err (a bad token, an app the platform does
// not have); the user has to act.
func IsFatal(err error) bool { return IsBadToken(err) || IsUnknownApp(err) }

// IsBadToken: the platform refused the token.
func IsBadToken(err error) bool { return errors.Is(err, fly.ErrBadToken{}) }

// IsUnknownApp: the platform has no such app.
func IsUnknownApp(err error) bool { return errors.Is(err, fly.ErrUnknownApp{}) }

// RetryAfter is how long the API asked to wait before the next call (a
// 429's Retry-After, capped at fly.MaxRetryAfter); false when it did not ask.
func RetryAfter(err error) (time.Duration, bool) {
	var rl fly.ErrRateLimited
	if !errors.As(err, &rl) {
		return 0, false
	}
	return min(rl.RetryAfter, fly.MaxRetryAfter), true
}

// Refusal is why the platform did not carry out an action, in its own
// words: Held when someone else holds the machine's lease (nothing was
// sent), Refused when the API turned it down (a 412 precondition). Both
// false: the call failed.
type Refusal struct {
	Held, Refused bool
	Text          string
}

// RefusalOf reads an action's error.
func RefusalOf(err error) Refusal {
	var held fly.ErrLeaseHeld
	var pre fly.ErrPrecondition
	switch {
	case errors.As(err, &held):
		return Refusal{Held: true, Text: held.Error()}
	case errors.As(err, &pre):
		return Refusal{Refused: true, Text: pre.Text}
	}
	return Refusal{}
}
