package app

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	fly "github.com/superfly/fly-go"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// The data layer's replies as the runtime would deliver them, for tests
// that drive Update by hand.

// listJob is the listing the scheduler has in flight, asked for now when
// none is.
func listJob(m Model) watch.Job {
	if id, ok := m.sched.Listing(); ok {
		return watch.Job{ID: id, Gen: m.gen, Kind: watch.ListJob, App: m.cfg.App}
	}
	m.sched.ListNow()
	for _, j := range m.sched.Due(m.clock(), m.app, m.org) {
		if j.Kind == watch.ListJob {
			return j
		}
	}
	return watch.Job{Gen: m.gen, Kind: watch.ListJob, App: m.cfg.App}
}

// listReply answers the listing with ms.
func listReply(m Model, ms []*fly.Machine) watch.Reply {
	return watch.Reply{Job: listJob(m), Listing: snapshot.Convert(flyc.Listing{Machines: ms})}
}

// convReply answers the listing with a listing converted already.
func convReply(m Model, c snapshot.Converted) watch.Reply {
	return watch.Reply{Job: listJob(m), Listing: c}
}

// listFailed answers the listing with err.
func listFailed(m Model, err error) watch.Reply {
	return watch.Reply{Job: listJob(m), Err: err}
}

// probeReply answers one probe.
func probeReply(m Model, p snapshot.ProbeRequest, res snapshot.ExecResult) watch.Reply {
	return watch.Reply{Job: watch.Job{Gen: m.gen, Kind: watch.ProbeJob, App: m.cfg.App, Machine: p.Machine, Probe: p}, Exec: res}
}

// actionReply answers the action in flight.
func actionReply(m Model, err error) watch.Reply {
	return watch.Reply{Job: watch.Job{ID: m.acting.id, Gen: m.gen, Kind: watch.ActJob, App: m.cfg.App, Machine: m.acting.machine}, Err: err}
}

// appsReply answers the switcher's apps listing.
func appsReply(m Model, apps []string) watch.Reply {
	return watch.Reply{Job: watch.Job{Gen: m.gen, Kind: watch.AppsJob}, Apps: apps}
}

// dueNow reports whether a job of kind is due or in flight right after an
// Update that returned cmd: the scheduler has it in flight (the listing),
// or asked for it to go out again as soon as the one in flight returns.
func dueNow(m Model, kind watch.Kind, cmd tea.Cmd) bool {
	if kind == watch.ListJob {
		_, busy := m.sched.Listing()
		return busy && cmd != nil
	}
	return cmd != nil
}

// volumesReply answers the volumes feed: one 1 GB volume "data" on each
// of the fixture's first two machines, and one not attached.
func volumesReply(tb testing.TB, m Model, fx fixtureData) watch.Reply {
	var vs []fly.Volume
	for i, fm := range fx.machines[:min(2, len(fx.machines))] {
		id := fm.ID
		vs = append(vs, fly.Volume{ID: fmt.Sprintf("vol_%016d", i), Name: "data", State: "created", Region: fm.Region, SizeGb: 1, AttachedMachine: &id})
	}
	vs = append(vs, fly.Volume{ID: "vol_spare000000000", Name: "spare", State: "created", Region: "ams", SizeGb: 3})
	list := snapshot.ConvertVolumes(vs)
	return feedReply(tb, m, "volumes", "", func(a *snapshot.App) { a.ApplyVolumes(list, nil, t0) })
}
