package waketest

import (
	"context"
	"time"

	fly "github.com/superfly/fly-go"
)

// observer reads the machine list during the burst and notes when each
// machine began to wake and reached started. The start events' own
// timestamps are used (platform time, to the millisecond) — polling alone
// would be as coarse as the API's rate limit (1 list per second) times the
// demo's speed.
type observer struct {
	r     *runner
	since time.Time // platform time: start events before it belong to the sleep phase
	tl    timeline  // provisional, for live events
}

// poll reads the list once and applies it.
func (ob *observer) poll(ctx context.Context) error {
	ms, err := ob.r.api().ListMachines(ctx, ob.r.app())
	if err != nil {
		return err
	}
	ob.apply(ms, ob.r.env.Now())
	return nil
}

// loop polls until ctx ends.
func (ob *observer) loop(ctx context.Context) {
	for {
		_ = ob.poll(ctx) // a failed poll only loses resolution; the final read catches up
		if sleepCtx(ctx, ob.r.env.PollEvery) != nil {
			return
		}
	}
}

// apply updates the observations from one list read at platform time at.
func (ob *observer) apply(ms []*fly.Machine, at time.Time) {
	for _, m := range ms {
		if m == nil {
			continue
		}
		o := ob.r.obs[m.ID]
		if o == nil {
			continue
		}
		if m.State != o.last {
			o.last = m.State
			ob.r.emit(Event{Kind: EventMachineState, Machine: m.ID, State: m.State, At: ob.tl.sincePlat(at),
				Text: m.ID + " " + m.State})
		}
		wasStarted := !o.startedAt.IsZero()
		applyStartEvents(o, m.Events, ob.since)
		if o.startedAt.IsZero() && m.State == fly.MachineStateStarted && o.atBurst != fly.MachineStateStarted {
			// The start event fell out of the kept events: the poll time is
			// the best bound we have.
			o.startedAt = at
		}
		if !wasStarted && !o.startedAt.IsZero() {
			text := m.ID + " started"
			if o.wake != "" { // no start event said how it woke (it fell out of the kept events)
				text += " (" + o.wake + ")"
			}
			ob.r.emit(Event{Kind: EventMachineStarted, Machine: m.ID, State: fly.MachineStateStarted,
				At: ob.tl.sincePlat(o.startedAt), Text: text})
		}
	}
}

// applyStartEvents keeps the earliest wake begin and started at or after
// since. Pure.
func applyStartEvents(o *machineObs, events []*fly.MachineEvent, since time.Time) {
	for _, ev := range events {
		if ev == nil || ev.Type != "start" {
			continue
		}
		t := time.UnixMilli(ev.Timestamp)
		if t.Before(since) {
			continue
		}
		switch ev.Status {
		case "starting", "resuming":
			if o.wakeAt.IsZero() || t.Before(o.wakeAt) {
				o.wakeAt, o.wokenBy = t, ev.Source
				o.wake = "cold boot"
				if ev.Status == "resuming" {
					o.wake = "resume"
				}
			}
		case fly.MachineStateStarted:
			if o.startedAt.IsZero() || t.Before(o.startedAt) {
				o.startedAt = t
			}
		}
	}
}
