package fly

import (
	"context"
	"fmt"
	"strings"
	"time"

	flygo "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
)

// waitSlack is added to a wait's own timeout for the default deadline, so the
// server's 408 arrives before our deadline does.
const waitSlack = 10 * time.Second

// maxWaitPoll is the longest long-poll the API (and fly-go) allows.
const maxWaitPoll = 60 * time.Second

// ListMachines lists the app's machines, embedded recent events included.
func (c *Client) ListMachines(ctx context.Context, app string) ([]*Machine, error) {
	if err := checkName("app", app); err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	ms, err := c.flaps.List(ctx, app, "")
	if err != nil {
		return nil, c.fail(ctx, call{op: "list machines of " + app, scope: appScope, app: app}, err)
	}
	redactDecoded(ctx, &ms) // a JSON escape no longer hides the token
	return ms, nil
}

// GetMachine fetches one machine.
func (c *Client) GetMachine(ctx context.Context, app, id string) (*Machine, error) {
	k, err := machineCall("get machine", app, id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	m, err := c.flaps.Get(ctx, app, id)
	if err != nil {
		return nil, c.fail(ctx, k, err)
	}
	redactDecoded(ctx, m)
	if c.tap != nil && m != nil {
		c.tap.Got(app, m)
	}
	return m, nil
}

// Start starts (or resumes) a machine under its lease (lease.go);
// PreviousState tells which. A lease someone else holds is ErrLeaseHeld.
func (c *Client) Start(ctx context.Context, app, id string) (*MachineStartResponse, error) {
	k, err := machineCall("start machine", app, id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	var res *MachineStartResponse
	err = c.withLease(ctx, k, func(ctx context.Context, nonce string) error {
		res, err = c.flaps.Start(ctx, app, id, nonce)
		return c.fail(ctx, k, err)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Stop stops a machine under its lease; signal "" and timeout 0 leave the
// machine's own stop_config in charge.
func (c *Client) Stop(ctx context.Context, app, id, signal string, timeout time.Duration) error {
	k, err := machineCall("stop machine", app, id)
	if err != nil {
		return err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline+max(timeout, 0))
	defer cancel()
	in := flygo.StopMachineInput{ID: id, Signal: strings.ToUpper(signal), Timeout: flygo.Duration{Duration: max(timeout, 0)}}
	return c.withLease(ctx, k, func(ctx context.Context, nonce string) error {
		return c.fail(ctx, k, c.flaps.Stop(ctx, app, in, nonce))
	})
}

// Suspend suspends a machine under its lease; a machine with swap answers
// ErrPrecondition.
func (c *Client) Suspend(ctx context.Context, app, id string) error {
	k, err := machineCall("suspend machine", app, id)
	if err != nil {
		return err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	return c.withLease(ctx, k, func(ctx context.Context, nonce string) error {
		return c.fail(ctx, k, c.flaps.Suspend(ctx, app, id, nonce))
	})
}

// Wait makes one long-poll until the machine is in one of states (default
// "started"). timeout is clamped to 1–60 s (the API's limit); on expiry it
// returns ErrWaitTimeout and the caller decides whether to wait again.
// instanceID may be "" except when waiting for "stopped".
func (c *Client) Wait(ctx context.Context, app, id, instanceID string, timeout time.Duration, states ...string) error {
	timeout = min(max(timeout, time.Second), maxWaitPoll)
	if len(states) == 0 {
		states = []string{flygo.MachineStateStarted}
	}
	k, err := machineCall("wait for machine", app, id)
	if err != nil {
		return err
	}
	k.wait, k.waitStates, k.waitTimeout = true, strings.Join(states, "|"), timeout
	ctx, cancel := withDeadline(ctx, timeout+waitSlack)
	defer cancel()
	opts := []flaps.WaitOption{flaps.WithWaitStates(states...), flaps.WithWaitTimeout(timeout)}
	if instanceID != "" {
		opts = append(opts, flaps.WithWaitVersion(instanceID))
	}
	return c.fail(ctx, k, c.flaps.Wait(ctx, app, id, opts...))
}

// Exec runs cmd (one string; no shell is implied) on a started machine.
func (c *Client) Exec(ctx context.Context, app, id, cmd string, timeout time.Duration) (*MachineExecResponse, error) {
	k, err := machineCall("exec on machine", app, id)
	if err != nil {
		return nil, err
	}
	k.exec = true
	ctx, cancel := withDeadline(ctx, defaultDeadline+max(timeout, 0))
	defer cancel()
	req := &flygo.MachineExecRequest{Cmd: cmd, Timeout: int(max(timeout, 0).Seconds())}
	res, err := c.flaps.Exec(ctx, app, id, req)
	if err != nil {
		return nil, c.fail(ctx, k, err)
	}
	redactDecoded(ctx, res)
	if c.tap != nil && res != nil {
		c.tap.Executed(app, id, cmd, *res)
	}
	return res, nil
}

func machineCall(op, app, id string) (call, error) {
	if err := checkName("app", app); err != nil {
		return call{}, err
	}
	if err := checkName("machine", id); err != nil {
		return call{}, err
	}
	return call{op: fmt.Sprintf("%s %s", op, id), scope: machineScope, app: app, id: id}, nil
}
