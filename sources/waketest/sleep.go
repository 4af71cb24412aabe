package waketest

import (
	"context"
	"errors"
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	flyc "github.com/flywake/flywake/sources/fly"
)

// errWokenAgain: another request woke the machine while we waited for it to
// go to sleep.
var errWokenAgain = errors.New("woken again by other traffic while going to sleep")

// sleepOne puts one target to sleep the way mode says and records what
// happened in o. It returns an error only when the machine did not get there.
func (r *runner) sleepOne(ctx context.Context, o *machineObs, m *fly.Machine, blockers []string) error {
	ctx, cancel := context.WithTimeout(ctx, r.env.SleepLimit)
	defer cancel()
	if r.mode == ModeStop {
		return r.stop(ctx, o, m)
	}
	return r.suspend(ctx, o, m, blockers)
}

// stop stops the machine with SIGINT (as autostop does) and waits for stopped.
func (r *runner) stop(ctx context.Context, o *machineObs, m *fly.Machine) error {
	for attempt := 0; ; attempt++ {
		switch m.State {
		case fly.MachineStateStopped, fly.MachineStateCreated:
			r.reached(o, m.State)
			return nil
		case "stopping":
		default:
			err := r.api().Stop(ctx, r.app(), m.ID, "SIGINT", 0)
			if errors.As(err, &flyc.ErrPrecondition{}) && attempt == 0 {
				// Still starting (or suspending): let it settle, then stop.
				if m, err = r.settle(ctx, m); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
		}
		err := r.waitFor(ctx, m, fly.MachineStateStopped)
		if errors.Is(err, errWokenAgain) && attempt == 0 {
			if m, err = r.get(ctx, m.ID); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		r.reached(o, fly.MachineStateStopped)
		return nil
	}
}

// suspend suspends the machine, starting it first when it is stopped (only
// a running machine can be suspended). When the API refuses with 412 its
// text is kept verbatim and the machine is stopped instead, as Fly's own
// autosuspend falls back to autostop.
func (r *runner) suspend(ctx context.Context, o *machineObs, m *fly.Machine, blockers []string) error {
	var err error
	for range 4 { // a few state changes by others are tolerated
		switch m.State {
		case fly.MachineStateSuspended:
			r.reached(o, m.State)
			return nil
		case "suspending":
			if err := r.waitFor(ctx, m, fly.MachineStateSuspended); err != nil {
				return err
			}
			r.reached(o, fly.MachineStateSuspended)
			return nil
		case "stopping", "starting", "restarting":
			if m, err = r.settle(ctx, m); err != nil {
				return err
			}
		case fly.MachineStateStarted:
			if len(blockers) > 0 {
				return r.suspendNow(ctx, o, m)
			}
			// Snapshot a serving app, not one still booting.
			if m, err = r.ready(ctx, m.ID); err != nil {
				return err
			}
			if m.State == fly.MachineStateStarted {
				return r.suspendNow(ctx, o, m)
			}
		default: // stopped, created
			if len(blockers) > 0 {
				// Ask anyway: the API's own words are the record.
				return r.suspendNow(ctx, o, m)
			}
			// A stopped machine has no memory to snapshot: boot it first.
			r.emit(Event{Kind: EventMachineState, Machine: m.ID, State: "starting",
				Text: fmt.Sprintf("starting %s so it can be suspended", m.ID)})
			if _, err := r.api().Start(ctx, r.app(), m.ID); err != nil {
				return fmt.Errorf("starting %s to suspend it: %w", m.ID, err)
			}
			if err := r.waitFor(ctx, m, fly.MachineStateStarted); err != nil {
				return err
			}
			if m, err = r.get(ctx, m.ID); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("%s kept changing state (now %s) while being suspended", m.ID, m.State)
}

// suspendNow asks for the suspend and waits; a 412 becomes a stop.
func (r *runner) suspendNow(ctx context.Context, o *machineObs, m *fly.Machine) error {
	err := r.api().Suspend(ctx, r.app(), m.ID)
	var pe flyc.ErrPrecondition
	if errors.As(err, &pe) {
		o.refused, o.fellBack = pe.Text, true
		r.emit(Event{Kind: EventSuspendRefused, Machine: m.ID, Text: pe.Text})
		if m, err = r.get(ctx, m.ID); err != nil {
			return err
		}
		return r.stop(ctx, o, m)
	}
	if err != nil {
		return err
	}
	if err := r.waitFor(ctx, m, fly.MachineStateSuspended); err != nil {
		return err
	}
	r.reached(o, fly.MachineStateSuspended)
	return nil
}

func (r *runner) reached(o *machineObs, state string) {
	o.slept = state
	r.emit(Event{Kind: EventMachineState, Machine: o.id, State: state, Text: o.id + " " + state})
}

// waitFor long-polls /wait until the machine is in state, noticing a
// machine that other traffic started meanwhile.
func (r *runner) waitFor(ctx context.Context, m *fly.Machine, state string) error {
	instance := ""
	if state == fly.MachineStateStopped {
		instance = m.InstanceID // the API wants the version for a wait on stopped
	}
	for {
		err := r.api().Wait(ctx, r.app(), m.ID, instance, waitPoll, state)
		if err == nil {
			return nil
		}
		if !errors.Is(err, flyc.ErrWaitTimeout{}) {
			if ctx.Err() != nil {
				return fmt.Errorf("%s did not reach %s in time: %w", m.ID, state, ctx.Err())
			}
			return err
		}
		cur, gerr := r.get(ctx, m.ID)
		if gerr != nil {
			return gerr
		}
		if state != fly.MachineStateStarted && cur.State == fly.MachineStateStarted {
			return fmt.Errorf("%s: %w", m.ID, errWokenAgain)
		}
	}
}

// settle waits until a machine in a passing state is started or stopped.
func (r *runner) settle(ctx context.Context, m *fly.Machine) (*fly.Machine, error) {
	for {
		cur, err := r.get(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		switch cur.State {
		case fly.MachineStateStarted, fly.MachineStateStopped, fly.MachineStateSuspended, fly.MachineStateCreated:
			return cur, nil
		}
		if err := sleepCtx(ctx, readyPoll); err != nil {
			return nil, fmt.Errorf("%s stayed %s: %w", m.ID, cur.State, err)
		}
	}
}

// ready waits until a started machine passes its checks (or has none).
func (r *runner) ready(ctx context.Context, id string) (*fly.Machine, error) {
	for {
		m, err := r.get(ctx, id)
		if err != nil {
			return nil, err
		}
		if m.State == fly.MachineStateStarted && allPassing(m.Checks) {
			return m, nil
		}
		if phase := diagnose.Classify(m.State); phase == diagnose.Asleep || phase == diagnose.Sleeping {
			return m, nil // put to sleep by someone else: the caller decides again
		}
		if err := sleepCtx(ctx, readyPoll); err != nil {
			return nil, fmt.Errorf("%s never passed its health checks: %w", id, err)
		}
	}
}

func allPassing(checks []*fly.MachineCheckStatus) bool {
	for _, c := range checks {
		if c != nil && c.Status != fly.Passing {
			return false
		}
	}
	return true
}

func (r *runner) get(ctx context.Context, id string) (*fly.Machine, error) {
	m, err := r.api().GetMachine(ctx, r.app(), id)
	if err != nil {
		return nil, err
	}
	if o := r.obs[id]; o != nil {
		o.last = m.State
	}
	return m, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
