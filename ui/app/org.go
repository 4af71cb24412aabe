package app

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/logs"
	"github.com/flywake/flywake/ui/panes/overview"
)

// The org overview's data (watch.OrgFeeds) is scheduled with the rest
// (fetch.go); the org model outlives app switches, so its jobs are tied to
// the program's context, not to an app generation. They start the first
// time the overview opens and run from then on.

// showOverview opens the overview, starting the org feeds the first time.
func (m *Model) showOverview() tea.Cmd {
	cmds := []tea.Cmd{m.startOrg()}
	if p := m.overviewPane(); p != nil {
		m.setOrgData(m.now())
		cmds = append(cmds, m.openOverlay(p))
	}
	return tea.Batch(cmds...)
}

// tickOrg re-hands the org model to the open overview on the clock's
// tick, so its ages count on between data arrivals.
func (m *Model) tickOrg() {
	if op, ok := m.open.(pane.OrgPane); ok {
		op.SetOrgData(m.org, m.now())
	}
}

// startOrg starts the org feeds, once (the scheduler is shared by every
// copy of the model, so this holds from Init too).
func (m *Model) startOrg() tea.Cmd {
	if !m.cfg.Source.Ready() || !m.sched.StartOrg() {
		return nil
	}
	return m.schedule()
}

func (m *Model) overviewPane() pane.Overlay {
	for _, o := range m.overlays {
		if o.pane.ID() == overview.ID {
			return o.pane
		}
	}
	return nil
}

// onRequest acts on what a pane asked of the root (see ui/pane requests).
// ok is false for a message that is not a request.
func (m Model) onRequest(msg tea.Msg) (tea.Model, tea.Cmd, bool) {
	switch r := msg.(type) {
	case pane.OpenApp:
		if r.App == m.cfg.App && m.fatal == nil {
			m.open = nil
			return m, nil, true
		}
		next, cmd := m.switchApp(r.App)
		return next, cmd, true
	case pane.ShowLogs:
		for _, o := range m.overlays {
			if o.pane.ID() == logs.ID {
				cmd := m.updatePane(o.pane, r)
				return m, tea.Batch(cmd, m.openOverlay(o.pane)), true
			}
		}
		return m, nil, true
	case pane.Relist:
		m.sched.ListNow()
		return m, m.schedule(), true
	}
	return m, nil, false
}
