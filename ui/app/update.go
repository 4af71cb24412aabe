package app

import (
	"errors"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/ui/panes/machines"
)

// Init starts the first fetches and the clock.
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.startFetching()...)
}

func (m *Model) startFetching() []tea.Cmd {
	return []tea.Cmd{m.listCmd(), m.logsCmd(), m.metricsCmd(), m.clockCmd()}
}

// Update routes one message. It never blocks: I/O runs in the commands.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	nm := next.(Model)
	nm.resize() // the banner or the switcher may have changed the body's size
	return nm, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyMsg:
		return m.updateKey(msg)
	case clockMsg:
		m.ticking = false
		if m.fatal == nil {
			return m, m.clockCmd()
		}
		return m, nil
	case machinesMsg:
		return m, tea.Batch(m.onMachines(msg)...)
	case waitMsg:
		return m, m.onWait(msg)
	case logsMsg:
		return m, m.onLogs(msg)
	case probeMsg:
		return m, tea.Batch(m.onProbe(msg)...)
	case metricsMsg:
		return m, m.onMetrics(msg)
	case appsMsg:
		if msg.gen == m.gen && m.switcher != nil {
			m.switcher.setApps(msg.apps, msg.err)
		}
		return m, nil
	case pollMsg:
		return m, m.onPoll(msg)
	case machines.ActionRequest:
		return m.onActionRequest(msg)
	case actionMsg:
		return m, m.onAction(msg)
	case noticeMsg:
		m.onNoticeTimer(msg)
		return m, nil
	}
	// Anything else (a pane's own messages) goes to every pane.
	var cmds []tea.Cmd
	for _, p := range m.allPanes() {
		cmds = append(cmds, p.Update(msg))
	}
	return m, tea.Batch(cmds...)
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	m.cancel() // ends every request in flight, long-polls included
	return m, tea.Quit
}

// updateKey routes a key: the y/N prompt, the switcher and typing panes first, then global keys,
// then the focused pane.
func (m Model) updateKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if msg.Type == tea.KeyCtrlC {
		return m.quit()
	}
	if m.fatal != nil || m.tooSmall() {
		if key.Matches(msg, k.Quit) {
			return m.quit()
		}
		return m, nil
	}
	if m.confirm != nil {
		return m.updateConfirm(msg)
	}
	if m.switcher != nil {
		return m.updateSwitcher(msg)
	}
	if m.help {
		switch {
		case key.Matches(msg, k.Quit):
			return m.quit()
		case key.Matches(msg, k.Help), key.Matches(msg, k.Back):
			m.help = false
		}
		return m, nil
	}
	if m.overlay != nil {
		return m.updateOverlayKey(msg)
	}
	focused := m.panes[m.focus]
	if focused.Capturing() {
		return m, focused.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.help = true
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % len(m.panes)
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + len(m.panes) - 1) % len(m.panes)
	case key.Matches(msg, k.Command):
		m.switcher = newSwitcher()
		return m, m.appsCmd()
	case key.Matches(msg, k.Checklist):
		m.openOverlay(m.checklist)
	case key.Matches(msg, k.WakeTest): // disabled in read-only mode
		m.openOverlay(m.wake)
		return m, m.wake.Open()
	case key.Matches(msg, k.Refresh):
		return m, tea.Batch(m.listCmd(), m.logsCmd())
	default:
		return m, focused.Update(msg)
	}
	return m, nil
}

// updateSwitcher types into the app switcher; enter switches, esc cancels.
func (m Model) updateSwitcher(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEsc:
		m.switcher = nil
	case tea.KeyTab:
		m.switcher.complete()
	case tea.KeyEnter:
		name := m.switcher.value()
		m.switcher = nil
		if name != "" && (name != m.cfg.App || m.fatal != nil) {
			return m.switchApp(name)
		}
	default:
		m.switcher.input.handle(msg)
	}
	return m, nil
}

// switchApp resets the model to app and starts fetching it.
func (m Model) switchApp(app string) (tea.Model, tea.Cmd) {
	m.resetApp(app)
	m.ticking = false
	return m, tea.Batch(m.startFetching()...)
}

// isFatal: errors no retry can fix; the user has to act.
func isFatal(err error) bool {
	return errors.Is(err, fly.ErrBadToken{}) || errors.Is(err, fly.ErrUnknownApp{})
}
