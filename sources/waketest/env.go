package waketest

import (
	"context"
	"errors"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/edge"
)

// API is the part of the Machines API the test uses; *fly.Client
// (sources/fly) has exactly these methods.
type API interface {
	ListMachines(ctx context.Context, app string) ([]*fly.Machine, error)
	GetMachine(ctx context.Context, app, id string) (*fly.Machine, error)
	Start(ctx context.Context, app, id string) (*fly.MachineStartResponse, error)
	Stop(ctx context.Context, app, id, signal string, timeout time.Duration) error
	Suspend(ctx context.Context, app, id string) error
	// CheckLease is ErrLeaseHeld when someone else holds the machine's
	// lease (a deploy in progress). Start, Stop and Suspend run under the
	// lease themselves.
	CheckLease(ctx context.Context, app, id string) error
	Wait(ctx context.Context, app, id, instanceID string, timeout time.Duration, states ...string) error
}

// Env is the platform a test runs against.
type Env struct {
	API API
	// Now is the platform's clock (watch.Source.Now): time.Now on Fly, the
	// simulator's virtual clock in the demo.
	Now func() time.Time
	// Edge fires the requests; nil = a fresh edge.Engine.
	Edge *edge.Engine
	// PollEvery is how often the machine list is read during the burst
	// (wall; default 250 ms — the client paces to the API's limits anyway).
	PollEvery time.Duration
	// SleepLimit bounds how long one machine may take to reach its sleep
	// state, warm-up included (wall; default 3 min).
	SleepLimit time.Duration
}

const (
	defaultPollEvery  = 250 * time.Millisecond
	defaultSleepLimit = 3 * time.Minute
	// waitPoll is one /wait long-poll; short enough to notice a machine that
	// other traffic woke meanwhile.
	waitPoll = 10 * time.Second
	// readyPoll is how often a warming machine's checks are read.
	readyPoll = 500 * time.Millisecond
	// finalLookup bounds the last look at the machines after an abort.
	finalLookup = 10 * time.Second
)

func (e Env) withDefaults() Env {
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Edge == nil {
		e.Edge = &edge.Engine{}
	}
	if e.PollEvery <= 0 {
		e.PollEvery = defaultPollEvery
	}
	if e.SleepLimit <= 0 {
		e.SleepLimit = defaultSleepLimit
	}
	return e
}

// Prepare validates s (refusing a forced instance before any API call),
// lists the app's machines once and resolves the plan. It changes nothing.
func Prepare(ctx context.Context, env Env, s Setup) (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if env.API == nil {
		return nil, errors.New("no platform to talk to")
	}
	ms, err := env.API.ListMachines(ctx, s.App)
	if err != nil {
		return nil, err
	}
	p, err := Preflight(ms, s)
	if err != nil {
		return nil, err
	}
	p.env = env.withDefaults()
	return p, nil
}
