// Package recordtest writes the benchmarks' recordings: a day of a large,
// busy org, as sources/record's and sources/replay's benchmarks read it.
// Import it from tests only.
package recordtest

import (
	"fmt"
	"math/rand/v2"
	"time"

	flygo "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/record"
)

// A busy day: each machine stops and starts again about every Cycle
// (autostop and the next request), with its events, and every app is
// listed every Listing (the overview lists each every 30 s; the changes
// stored are the same, their times rounded to the listing).
const (
	Listing = 5 * time.Minute
	Cycle   = 40 * time.Minute
)

// WriteBusyDay records into path the 24 hours from begin of an org of apps
// apps ("app-00"…) with machines machines each.
func WriteBusyDay(path string, begin time.Time, apps, machines int) error {
	now := begin
	w, err := record.Create(path, record.Options{Org: "steady-org", Scope: "org steady-org", Now: func() time.Time { return now }, FlushEvery: time.Hour})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	type mach struct {
		m      *fly.Machine
		flipAt time.Time
	}
	org := make([][]*mach, apps)
	for a := range org {
		for i := 0; i < machines; i++ {
			id := fmt.Sprintf("%02x%012x", a, i)
			m := machine(begin, id, "started", "12", begin, event("start", "started", begin.Add(-time.Hour)))
			org[a] = append(org[a], &mach{m: m, flipAt: begin.Add(time.Duration(rng.Int64N(int64(Cycle))))})
		}
	}
	for at := begin; at.Before(begin.Add(24 * time.Hour)); at = at.Add(Listing) {
		now = at
		for a, ms := range org {
			l := fly.Listing{}
			for _, mc := range ms {
				if !at.Before(mc.flipAt) {
					cp := *mc.m
					ev := event("start", "started", mc.flipAt)
					if cp.State == "started" {
						cp.State, ev = "stopped", event("exit", "stopped", mc.flipAt)
					} else {
						cp.State = "started"
					}
					cp.UpdatedAt = mc.flipAt.Format(time.RFC3339)
					cp.Events = append(append(cp.Events[:0:0], ev), cp.Events...)
					if len(cp.Events) > 5 {
						cp.Events = cp.Events[:5]
					}
					mc.m = &cp
					mc.flipAt = mc.flipAt.Add(Cycle/2 + time.Duration(rng.Int64N(int64(Cycle))))
				}
				l.Machines = append(l.Machines, mc.m)
			}
			w.Listing(at, fmt.Sprintf("app-%02d", a), l)
		}
	}
	return w.Close()
}

func machine(begin time.Time, id, state, release string, at time.Time, events ...*flygo.MachineEvent) *fly.Machine {
	return &fly.Machine{ID: id, Name: "m-" + id, State: state, Region: "iad", InstanceID: "inst-" + release,
		CreatedAt: begin.Add(-time.Hour).Format(time.RFC3339), UpdatedAt: at.Format(time.RFC3339),
		Config: &flygo.MachineConfig{Image: "registry.fly.io/app:" + release, Metadata: map[string]string{"fly_release_version": release}},
		Events: events}
}

func event(typ, status string, at time.Time) *flygo.MachineEvent {
	e := &flygo.MachineEvent{Type: typ, Status: status, Source: "flyd", Timestamp: at.UnixMilli()}
	if typ == "exit" {
		e.Request = &flygo.MachineRequest{ExitEvent: &flygo.MachineExitEvent{ExitCode: 0, ExitedAt: at}}
	}
	return e
}
