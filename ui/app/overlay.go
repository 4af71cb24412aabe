package app

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/checklist"
)

// An overlay is a pane that takes the whole body while it is open (see
// buildOverlays). It keeps receiving data while closed, so reopening it
// shows the current state at once. The root treats every overlay alike.

// buildChecklist creates the checklist pane for the current app; its
// project files are read by a command (see projectCmd), not here.
func (m *Model) buildChecklist(pctx pane.Context) *checklist.Pane {
	p := checklist.New(pctx, nil, nil, m.cfg.CheckOptions)
	if m.cfg.Project != nil {
		p.ReadingProject()
		m.pending = append(m.pending, m.addressed(checklist.ID, projectCmd(m.genCtx, m.cfg.Project, m.cfg.App)))
	}
	return p
}

// overlayFor is the overlay a key opens, if any.
func (m *Model) overlayFor(msg tea.KeyMsg) (pane.Overlay, bool) {
	for _, o := range m.overlays {
		if key.Matches(msg, o.key) {
			return o.pane, true
		}
	}
	return nil, false
}

// openOverlay shows o over the tiles.
func (m *Model) openOverlay(o pane.Overlay) tea.Cmd {
	m.open = o
	m.relayout()
	return m.addressed(o.ID(), o.Open())
}

// updateOverlayKey routes a key while an overlay is open: esc closes it
// (when it can close), q quits, ? shows help, : opens the command line,
// r refreshes (unless the overlay reads r itself), the rest goes to it. An
// overlay that captures keys gets them all.
func (m Model) updateOverlayKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.open.Capturing() {
		return m, m.updatePane(m.open, msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.help, m.notice = true, notice{}
		return m, nil
	case key.Matches(msg, k.Back) && m.open.CanClose():
		m.open = nil
		return m, nil
	case key.Matches(msg, k.Command):
		return m.openSwitcher()
	case key.Matches(msg, k.Refresh) && !claims(m.open, msg) && keys.Reads(m.placeOf(m.open), "refresh"):
		return m, m.refresh()
	}
	if why := m.inertKey(m.open, msg, true); why != "" {
		cmd := m.setNotice(noticeInfo, why)
		return m, cmd
	}
	return m, m.keyToPane(m.open, msg)
}
