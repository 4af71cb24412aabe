package app

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/checklist"
)

// An overlay is a pane that takes the whole body while it is open: the
// pre-deploy checklist (c) and the wake test (w). It keeps receiving data
// while hidden, so reopening it shows the current state at once.

// buildChecklist creates the checklist pane for the current app.
func (m *Model) buildChecklist(pctx pane.Context) *checklist.Pane {
	var project = m.cfg.projectFor(m.cfg.App)
	return checklist.New(pctx, project.project, project.errs, m.cfg.CheckOptions)
}

// openOverlay shows p over the tiles.
func (m *Model) openOverlay(p pane.Pane) {
	m.overlay = p
	m.resize()
}

// updateOverlayKey routes a key while an overlay is open: esc closes it
// (unless it is taking text), q quits, ? shows help, the rest goes to it.
func (m Model) updateOverlayKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.overlay.Capturing() {
		return m, m.overlay.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.help = true
		return m, nil
	case key.Matches(msg, k.Back):
		if !closable(m.overlay) {
			return m, m.overlay.Update(msg)
		}
		m.overlay = nil
		m.resize()
		return m, nil
	}
	return m, m.overlay.Update(msg)
}

// closer is implemented by overlays that must handle esc themselves while
// busy (the wake test aborts a run on esc before it can be closed).
type closer interface{ CanClose() bool }

// closable reports whether esc closes the overlay now.
func closable(p pane.Pane) bool {
	c, ok := p.(closer)
	return !ok || c.CanClose()
}
