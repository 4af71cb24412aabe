package fly

import (
	"context"
	"time"

	flygo "github.com/superfly/fly-go"
)

// The calls a deploy makes, as fly-go makes them: create a machine, update
// one to a new config (a new version), destroy one. Update and destroy run
// under the machine's lease (lease.go), so they wait for nobody and refuse
// with ErrLeaseHeld when someone else is changing the machine.

// MachineConfig is a machine's whole config (the API has no partial update).
type MachineConfig = flygo.MachineConfig

// deployDeadline covers an update or create: the API answers once the new
// version is accepted, not when it runs.
const deployDeadline = 30 * time.Second

// LaunchMachine creates a machine in app with cfg; region "" lets the API
// choose (the app's primary region). skipLaunch leaves it created, not started.
func (c *Client) LaunchMachine(ctx context.Context, app, region string, cfg *MachineConfig, skipLaunch bool) (*Machine, error) {
	if err := checkName("app", app); err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, deployDeadline)
	defer cancel()
	m, err := c.flaps.Launch(ctx, app, flygo.LaunchMachineInput{Config: cfg, Region: region, SkipLaunch: skipLaunch})
	if err != nil {
		return nil, c.fail(ctx, call{op: "create a machine in " + app, scope: appScope, app: app}, err)
	}
	return m, nil
}

// UpdateMachine gives app/id the config cfg: the machine goes replacing,
// then updating, and (unless skipLaunch and it was not running) boots the
// new version. It returns the machine as the API answered, new version
// included.
func (c *Client) UpdateMachine(ctx context.Context, app, id string, cfg *MachineConfig, skipLaunch bool) (*Machine, error) {
	k, err := machineCall("update machine", app, id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, deployDeadline)
	defer cancel()
	var out *Machine
	err = c.withLease(ctx, k, func(ctx context.Context, nonce string) error {
		out, err = c.flaps.Update(ctx, app, flygo.LaunchMachineInput{ID: id, Config: cfg, SkipLaunch: skipLaunch}, nonce)
		return c.fail(ctx, k, err)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DestroyMachine destroys app/id; force (fly-go's kill) destroys a running
// machine too, which the API otherwise refuses with ErrPrecondition.
func (c *Client) DestroyMachine(ctx context.Context, app, id string, force bool) error {
	k, err := machineCall("destroy machine", app, id)
	if err != nil {
		return err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	return c.withLease(ctx, k, func(ctx context.Context, nonce string) error {
		return c.fail(ctx, k, c.flaps.Destroy(ctx, app, flygo.RemoveMachineInput{ID: id, Kill: force}, nonce))
	})
}
