package app

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/panes/overview"
)

// Init starts the first fetches and the clock. The clock starts here only:
// it outlives app switches and errors, so there is never a second one.
func (m Model) Init() tea.Cmd {
	return tea.Batch(append(m.startFetching(), clockCmd())...)
}

// startFetching is the first listing, every feed and whatever the panes
// were built with (the project files).
func (m *Model) startFetching() []tea.Cmd {
	if m.app.Name == "" { // no app named: the overview (open already) chooses one
		return []tea.Cmd{m.startOrg()}
	}
	cmds := append([]tea.Cmd{m.schedule()}, m.pending...)
	m.pending = nil
	return cmds
}

// Update routes one message. It never blocks: I/O runs in the commands.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	nm := next.(Model)
	nm.relayout() // data, the banner, a prompt or a key may have changed what each pane needs
	return nm, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			return m.typeEach(msg)
		}
		return m.updateKey(msg)
	case tea.ResumeMsg: // back from a suspend (see suspender): bubbletea v1.3.10 leaves the mouse off
		return m, tea.EnableMouseCellMotion
	case tea.MouseMsg:
		cmd := m.onMouse(msg)
		return m, cmd
	case pane.Msg:
		return m.deliver(msg)
	case clockMsg:
		return m, clockCmd()
	case watch.Reply:
		return m, m.onReply(msg)
	case wakeMsg:
		return m, m.onWake(msg)
	case noticeMsg:
		m.onNoticeTimer(msg)
		return m, nil
	}
	return m, nil // nobody's: a message no pane asked for reaches no pane
}

// deliver hands an addressed message to its pane only, unless it is a
// request to the root (a machine action the machines pane asks for).
func (m Model) deliver(msg pane.Msg) (tea.Model, tea.Cmd) {
	if msg.Gen != m.gen {
		return m, nil // for the panes of an app no longer shown
	}
	switch r := msg.Msg.(type) {
	case machines.ActionRequest:
		if msg.To == machines.ID {
			return m.onActionRequest(r)
		}
	case machines.DescribeRequest:
		if msg.To == machines.ID {
			return m, m.describeCmd(r)
		}
	case pane.CopyText:
		cmd := m.onCopy(r)
		return m, cmd
	}
	if next, cmd, ok := m.onRequest(msg.Msg); ok {
		return next, cmd
	}
	p := m.paneByID(msg.To)
	if p == nil {
		return m, nil
	}
	return m, m.updatePane(p, msg.Msg)
}

// updatePane gives p a message; the command it returns answers to p.
func (m *Model) updatePane(p pane.Pane, msg tea.Msg) tea.Cmd {
	return m.addressed(p.ID(), p.Update(msg))
}

// addressed wraps cmd so its reply comes back to pane id of this generation.
func (m *Model) addressed(id pane.ID, cmd tea.Cmd) tea.Cmd {
	return pane.Address(id, m.gen, cmd)
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	m.cancel() // ends every request in flight, long-polls included
	return m, tea.Quit
}

// updateKey routes a key: the y/N prompt, the switcher and typing panes
// first, then global keys, then the focused pane.
// typeEach handles keys typed faster than the terminal is read: bubbletea
// hands the characters of one read over as one message ("ooo"), which
// matches no binding. Each is a key of its own, in order. (A paste says
// so, and stays whole.)
func (m Model) typeEach(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	var next tea.Model = m
	cmds := make([]tea.Cmd, 0, len(msg.Runes))
	for _, r := range msg.Runes {
		var cmd tea.Cmd
		next, cmd = next.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
		cmds = append(cmds, cmd)
	}
	return next, tea.Batch(cmds...)
}

func (m Model) updateKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if key.Matches(msg, k.Interrupt) {
		return m.quit()
	}
	if m.tooSmall() {
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
	if m.fatal != nil {
		return m.updateFatalKey(msg)
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
	if m.open != nil {
		return m.updateOverlayKey(msg)
	}
	focused := m.panes[m.focus]
	if focused.Capturing() || claims(focused, msg) {
		// A key the pane lists as acting here now is its own, before any
		// overlay's: l in a drill-down shows that machine's logs, esc
		// backs out of it before it means "all apps".
		return m, m.updatePane(focused, msg)
	}
	if o, ok := m.overlayFor(msg); ok {
		if o.ID() == overview.ID {
			return m, m.showOverview()
		}
		return m, m.openOverlay(o)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.help, m.notice = true, notice{} // help takes the lines a notice would
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % len(m.panes)
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + len(m.panes) - 1) % len(m.panes)
	case key.Matches(msg, k.Zoom) && m.canZoom():
		m.zoom = !m.zoom
	case key.Matches(msg, k.Command):
		return m.openSwitcher()
	case key.Matches(msg, k.Refresh):
		m.sched.Refresh()
		return m, m.schedule()
	default:
		if why := m.inertKey(focused, msg, false); why != "" {
			cmd := m.setNotice(noticeInfo, why)
			return m, cmd
		}
		return m, m.updatePane(focused, msg)
	}
	return m, nil
}

// updateSwitcher types into the app switcher: enter opens the highlighted
// match (or refuses in place), tab and shift+tab move the highlight, esc
// cancels.
func (m Model) updateSwitcher(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k, s := m.keys, m.switcher
	switch {
	case key.Matches(msg, k.Back):
		m.switcher = nil
	case key.Matches(msg, k.NextPane):
		s.cycle(1)
	case key.Matches(msg, k.PrevPane):
		s.cycle(-1)
	case key.Matches(msg, k.Enter):
		name, ok := s.choice()
		if !ok {
			return m, nil // refused in place: the hint says why
		}
		m.switcher = nil
		for _, c := range m.switchCommands() {
			if c.name == name {
				return c.run(m)
			}
		}
		if name == m.cfg.App && m.fatal == nil {
			return m, nil // already shown
		}
		return m.switchApp(name)
	default:
		return m, s.update(msg)
	}
	return m, nil
}

// appsCommand, typed in the switcher, opens the org overview (k9s's
// resource commands work the same way).
const appsCommand = "apps"

// claims reports whether msg is one of the keys p says act in it now.
func claims(p pane.Pane, msg tea.KeyMsg) bool {
	for _, b := range p.Keys() {
		if b.Enabled() && key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// switchCommand is a word the switcher takes besides an app name; the
// list is the one place a new one goes (the org overview's `apps`).
type switchCommand struct {
	name string
	run  func(m Model) (tea.Model, tea.Cmd)
}

func (m *Model) switchCommands() []switchCommand {
	return []switchCommand{
		{appsCommand, func(m Model) (tea.Model, tea.Cmd) {
			cmd := m.showOverview()
			return m, cmd
		}},
	}
}

// openSwitcher opens the `:` prompt and asks for the org's apps.
func (m Model) openSwitcher() (tea.Model, tea.Cmd) {
	var words []string
	for _, c := range m.switchCommands() {
		words = append(words, c.name)
	}
	ready := m.cfg.Source.Ready()
	m.switcher = newSwitcher(m.theme, m.width, words, ready)
	if !ready {
		return m, nil
	}
	m.sched.Ask(watch.Job{Kind: watch.AppsJob})
	return m, m.schedule()
}

// switchApp resets the model to app and starts fetching it; the app shown
// until now is where a failed switch comes back to.
func (m Model) switchApp(app string) (tea.Model, tea.Cmd) {
	if m.fatal == nil {
		m.back = returnTo{set: true, app: m.cfg.App}
	}
	m.resetApp(app)
	return m, tea.Batch(m.startFetching()...)
}

// updateFatalKey: an error no retry can fix is shown with the ways out:
// back to the app shown before, another app, or quit.
func (m Model) updateFatalKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Back) && m.back.set:
		return m.switchApp(m.back.app)
	case key.Matches(msg, k.Command):
		return m.openSwitcher()
	}
	return m, m.setNotice(noticeInfo, sanitize.Line(msg.String())+" does nothing here — "+fatalWays(m.keys, m.back))
}

// fatalWays names the keys out of an error only the user can fix.
func fatalWays(k *keys.KeyMap, back returnTo) string {
	s := k.Command.Help().Key + " open another app · " + k.Quit.Help().Key + " quit"
	if back.set {
		s = k.Back.Help().Key + " back to " + back.String() + " · " + s
	}
	return s
}
