package app

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
)

// Every command here captures what it needs by value and runs under the
// generation's context with its own deadline, so quitting or switching apps
// ends it promptly and its reply can be matched to its request.

func (m *Model) nextReq() req {
	m.seq++
	return req{gen: m.gen, id: m.seq}
}

// listCmd lists the app's machines, or asks for a relist when one is in flight.
func (m *Model) listCmd() tea.Cmd {
	if m.cfg.Source == nil || m.cfg.Source.Client == nil {
		return nil
	}
	if m.fetch.listing {
		m.fetch.relist = true
		return nil
	}
	m.fetch.listing = true
	delete(m.fetch.timers, pollMachines) // the reply arms the next timer
	r, ctx, src, app := m.nextReq(), m.genCtx, m.cfg.Source, m.app.Name
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, listTimeout)
		defer cancel()
		l, err := src.Machines(ctx, app)
		return machinesMsg{req: r, listing: l, err: err}
	}
}

// logsCmd pages the logs forward from the last token.
func (m *Model) logsCmd() tea.Cmd {
	if m.cfg.Source == nil || m.cfg.Source.Client == nil || m.fetch.logsBusy {
		return nil
	}
	m.fetch.logsBusy = true
	r, ctx, src, app, token := m.nextReq(), m.genCtx, m.cfg.Source, m.app.Name, m.fetch.logsToken
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, logsTimeout)
		defer cancel()
		lines, next, err := src.Logs(ctx, app, token)
		return logsMsg{req: r, lines: lines, token: next, err: err}
	}
}

// metricsCmd queries the edge and origin response counts.
func (m *Model) metricsCmd() tea.Cmd {
	if m.cfg.Source == nil || m.cfg.Source.Client == nil || m.fetch.metricsBusy {
		return nil
	}
	m.fetch.metricsBusy = true
	r, ctx, src, app := m.nextReq(), m.genCtx, m.cfg.Source, m.app.Name
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, metricTimeout)
		defer cancel()
		return metricsMsg{req: r, metrics: src.EdgeOrigin(ctx, app)}
	}
}

// waitCmds starts one wait long-poll for every transient machine that has
// none in flight (and did not just finish one), at most maxWaits at once:
// each holds a connection, and a large app mid-deploy would otherwise open
// one per machine. The fast list refresh covers the rest.
func (m *Model) waitCmds() []tea.Cmd {
	if m.cfg.Source == nil || m.cfg.Source.Client == nil {
		return nil
	}
	var cmds []tea.Cmd
	wall := m.wall()
	for _, mc := range m.app.Machines {
		id := mc.ID
		if len(m.fetch.waits) >= maxWaits {
			break
		}
		if !diagnose.IsTransient(mc.State) || m.fetch.waits[id] || wall.Sub(m.fetch.waitEnded[id]) < waitCooldown {
			continue
		}
		m.fetch.waits[id] = true
		r, ctx, client, app, instance := m.nextReq(), m.genCtx, m.cfg.Source.Client, m.app.Name, mc.InstanceID
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := context.WithTimeout(ctx, waitPoll+10*time.Second)
			defer cancel()
			err := client.Wait(ctx, app, id, instance, waitPoll, "started", "stopped", "suspended")
			return waitMsg{req: r, machine: id, err: err}
		})
	}
	return cmds
}

// probeCmds starts the probes the snapshot wants, within the budget.
func (m *Model) probeCmds() []tea.Cmd {
	if m.cfg.Source == nil || m.cfg.Source.Client == nil {
		return nil
	}
	wall := m.wall()
	budget := m.fetch.probeBudget(wall)
	var cmds []tea.Cmd
	for _, p := range orderProbes(m.app.ProbesDue(m.now())) {
		if budget <= 0 {
			break
		}
		k := probeKey(p)
		if m.fetch.probes[k] {
			continue
		}
		m.fetch.probes[k] = true
		m.fetch.probeLaunches = append(m.fetch.probeLaunches, wall)
		budget--
		r, ctx, src, app, probe := m.nextReq(), m.genCtx, m.cfg.Source, m.app.Name, p
		cmds = append(cmds, func() tea.Msg {
			return probeMsg{req: r, probe: probe, result: src.Probe(ctx, app, probe)}
		})
	}
	return cmds
}

// orderProbes runs the once-per-image and once-per-boot probes before the
// socket refreshes, so the swap and bytecode panes fill first.
func orderProbes(ps []snapshot.ProbeRequest) []snapshot.ProbeRequest {
	rank := func(k snapshot.ProbeKind) int {
		switch k {
		case snapshot.ProbeBytecode:
			return 0
		case snapshot.ProbeMeminfo:
			return 1
		default:
			return 2
		}
	}
	out := append([]snapshot.ProbeRequest(nil), ps...)
	for i := 1; i < len(out); i++ { // insertion sort: stable and the list is short
		for j := i; j > 0 && rank(out[j].Kind) < rank(out[j-1].Kind); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// appsCmd lists the org's apps for the switcher's completion.
func (m *Model) appsCmd() tea.Cmd {
	if m.cfg.Source == nil || m.cfg.Source.Client == nil {
		return nil
	}
	r, ctx, client, org := m.nextReq(), m.ctx, m.cfg.Source.Client, m.cfg.Source.Org
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, appsTimeout)
		defer cancel()
		apps, err := client.ListApps(ctx, org)
		names := make([]string, 0, len(apps))
		for _, a := range apps {
			names = append(names, a.Name)
		}
		return appsMsg{req: r, apps: names, err: err}
	}
}

// pollAfter arms the refresh timer of kind; an older timer of that kind is
// ignored when it fires.
func (m *Model) pollAfter(kind pollKind, d time.Duration) tea.Cmd {
	r := m.nextReq()
	m.fetch.timers[kind] = r.id
	return tea.Tick(d, func(time.Time) tea.Msg { return pollMsg{req: r, kind: kind} })
}

// clockCmd is the 1 s tick; only one runs at a time.
func (m *Model) clockCmd() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return clockMsg{at: t} })
}
