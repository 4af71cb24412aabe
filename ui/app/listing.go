package app

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/components/cell"
)

// The machines listing and what it drives: wait long-polls for machines in
// transition and exec probes on started ones. Every command here captures
// what it needs by value and runs under the generation's context with its
// own deadline, so quitting or switching apps ends it promptly and its reply
// can be matched to its request.

func (m *Model) nextReq() req {
	m.seq++
	return req{gen: m.gen, id: m.seq}
}

// listCmd lists the app's machines, or asks for a relist when one is in flight.
func (m *Model) listCmd() tea.Cmd {
	if !m.cfg.Source.Ready() || m.app.Name == "" {
		return nil
	}
	if m.fetch.listing {
		m.fetch.relist = true
		return nil
	}
	m.fetch.listing = true
	m.fetch.listTimer = 0 // the reply arms the next timer
	r, ctx, src, app := m.nextReq(), m.genCtx, m.cfg.Source, m.app.Name
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, listTimeout)
		defer cancel()
		l, err := src.Machines(ctx, app)
		if err != nil {
			return machinesMsg{req: r, err: err}
		}
		// Copying 10,000 machines into the model's plain form takes tens of
		// milliseconds: here, not in Update, where it would freeze the keys.
		return machinesMsg{req: r, listing: snapshot.Convert(l)}
	}
}

// waitCmds starts one wait long-poll for every transient machine that has
// none in flight (and did not just finish one), at most maxWaits at once:
// each holds a connection, and a large app mid-deploy would otherwise open
// one per machine. The fast list refresh covers the rest.
func (m *Model) waitCmds() []tea.Cmd {
	if !m.cfg.Source.Ready() {
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
		r, ctx, src, app, instance := m.nextReq(), m.genCtx, m.cfg.Source, m.app.Name, mc.InstanceID
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := context.WithTimeout(ctx, waitPoll+10*time.Second)
			defer cancel()
			err := src.WaitSettled(ctx, app, id, instance, waitPoll)
			return waitMsg{req: r, machine: id, err: err}
		})
	}
	return cmds
}

// probeCmds starts the probes the snapshot wants, within the budget.
func (m *Model) probeCmds() []tea.Cmd {
	if !m.cfg.Source.Ready() {
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
	if !m.cfg.Source.Ready() {
		return nil
	}
	r, ctx, src := m.nextReq(), m.ctx, m.cfg.Source
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, appsTimeout)
		defer cancel()
		names, err := src.Apps(ctx)
		return appsMsg{req: r, apps: names, err: err}
	}
}

// listAfter arms the listing's refresh timer; an older one is ignored
// when it fires.
func (m *Model) listAfter(d time.Duration) tea.Cmd {
	r := m.nextReq()
	m.fetch.listTimer = r.id
	return tea.Tick(d, func(time.Time) tea.Msg { return listPollMsg{req: r} })
}

// onListPoll lists again when the listing's current timer fired.
func (m *Model) onListPoll(msg listPollMsg) tea.Cmd {
	if msg.gen != m.gen || m.fetch.listTimer != msg.id || m.fatal != nil {
		return nil
	}
	return m.listCmd()
}

// clockCmd is the 1 s tick; Init starts it and each tick arms the next.
func clockCmd() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return clockMsg{at: t} })
}

// Each reply handler drops replies from another app generation, applies
// the data, hands it to the panes and arms what comes next.

func (m *Model) onMachines(msg machinesMsg) []tea.Cmd {
	if msg.gen != m.gen || msg.id < m.fetch.listApplied {
		return nil
	}
	m.fetch.listing = false
	m.fetch.listApplied = msg.id
	if msg.err != nil {
		if isFatal(msg.err) {
			return m.onFatal(msg.err)
		}
		delay := m.fail.next(msg.err)
		m.fail = failure{err: msg.err, delay: delay, retryAt: m.wall().Add(delay)}
		m.setStale(true)
		m.fetch.relist = false
		return []tea.Cmd{m.listAfter(delay)}
	}
	m.fail = failure{}
	m.setStale(false)
	m.listedWall = m.wall()
	m.app.ApplyConverted(msg.listing, m.now())
	m.setData()
	var cmds []tea.Cmd
	if m.fetch.relist {
		m.fetch.relist = false
		cmds = append(cmds, m.listCmd())
	} else {
		cmds = append(cmds, m.listAfter(m.listInterval()))
	}
	cmds = append(cmds, m.waitCmds()...)
	return append(cmds, m.probeCmds()...)
}

// onFatal shows an error no retry can fix; a switch to an app the platform
// does not have goes back to the app shown before, saying so.
func (m *Model) onFatal(err error) []tea.Cmd {
	back, failed := m.back, m.cfg.App
	if !back.set || !watch.IsUnknownApp(err) || !m.app.ListedAt.IsZero() {
		m.fatal = err
		return nil
	}
	m.back = returnTo{}
	m.resetApp(back.app)
	cmds := m.startFetching()
	return append(cmds, m.setNotice(noticeWarn, "could not open "+failed+": "+m.redact(cell.OneLine(err.Error()))+" — back on "+back.String()))
}

// listInterval adapts to what the machines are doing.
func (m *Model) listInterval() time.Duration {
	if m.app.Transitioning() {
		return listFast
	}
	return listSteady
}

func (m *Model) onWait(msg waitMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	delete(m.fetch.waits, msg.machine)
	m.fetch.waitEnded[msg.machine] = m.wall()
	if m.ctx.Err() != nil {
		return nil // quitting
	}
	// Reached, timed out or failed: the listing says what the machine is now.
	// (waitCooldown keeps a wait that fails at once from spinning.)
	return m.listCmd()
}

func (m *Model) onProbe(msg probeMsg) []tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	delete(m.fetch.probes, probeKey(msg.probe))
	m.app.ApplyProbe(msg.probe, msg.result, m.now())
	m.setData()
	return m.probeCmds()
}
