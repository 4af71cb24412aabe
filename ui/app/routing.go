package app

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/panes/overview"
)

// Init starts the first fetches and the clock. The clock starts here only:
// it outlives app switches and errors, so there is never a second one.
func (m Model) Init() tea.Cmd {
	return tea.Batch(append(m.startFetching(), m.clockCmd())...)
}

// startFetching is the first listing, every feed and whatever the panes
// were built with (the project files).
func (m *Model) startFetching() []tea.Cmd {
	if m.app.Name == "" { // no app named: the overview (open already) chooses one
		return []tea.Cmd{m.startOrg()}
	}
	cmds := append([]tea.Cmd{m.schedule()}, m.pending...)
	if m.open != nil && m.open.ID() == overview.ID { // --view overview over the app
		cmds = append(cmds, m.startOrg())
	}
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
		m.tickOrg()
		return m, tea.Batch(m.clockCmd(), m.onPlayTick())
	case watch.Reply:
		return m, m.onReply(msg)
	case replayReply:
		if msg.epoch != m.bar.epoch {
			return m, nil // asked before the clock moved back
		}
		return m, m.onReply(msg.Reply)
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

// updateKey routes a key: the y/N prompt, the switcher and typing panes
// first, then global keys, then the focused pane. A key that does nothing
// where it is pressed says why (inert.go).
func (m Model) updateKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if key.Matches(msg, k.Interrupt) {
		return m.quit()
	}
	if key.Matches(msg, k.Background) {
		return m, tea.Suspend // the SIGTSTP path's suspend (suspend_unix.go)
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
	if m.bar != nil && m.bar.entry != nil {
		return m.updateTimeEntry(msg)
	}
	if m.fatal != nil {
		return m.updateFatalKey(msg)
	}
	if m.help {
		return m.updateHelpKey(msg)
	}
	if m.open != nil {
		if m.open.ID() == overview.ID && !m.open.Capturing() {
			if next, cmd, ok := m.timebarKey(msg); ok {
				return next, cmd
			}
		}
		return m.updateOverlayKey(msg)
	}
	focused := m.panes[m.focus]
	if focused.Capturing() || claims(focused, msg) {
		// A key the pane lists as acting here now is its own, before any
		// overlay's: l in a drill-down shows that machine's logs, esc
		// backs out of it before it means "all apps".
		return m, m.keyToPane(focused, msg)
	}
	if next, cmd, ok := m.timebarKey(msg); ok {
		return next, cmd
	}
	if o, ok := m.overlayFor(msg); ok {
		if o.ID() == overview.ID {
			if m.notice.text != "" {
				m.notice = notice{} // esc pressed to dismiss a notice does not leave the app
				return m, nil
			}
			return m, m.showOverview()
		}
		return m, m.openOverlay(o)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.help, m.notice = true, notice{} // help takes the lines a notice would
	case key.Matches(msg, k.NextPane) && len(m.panes) > 1:
		m.focus = (m.focus + 1) % len(m.panes)
	case key.Matches(msg, k.PrevPane) && len(m.panes) > 1:
		m.focus = (m.focus + len(m.panes) - 1) % len(m.panes)
	case key.Matches(msg, k.Zoom) && m.canZoom():
		m.zoom = !m.zoom
	case key.Matches(msg, k.Command):
		return m.openSwitcher()
	case key.Matches(msg, k.Refresh):
		return m, m.refresh()
	default:
		if why := m.inertKey(focused, msg, false); why != "" {
			cmd := m.setNotice(noticeInfo, why)
			return m, cmd
		}
		return m, m.keyToPane(focused, msg)
	}
	return m, nil
}

// refresh asks for the open app's listing and feeds now, and says so
// (the header's age shows when it came).
func (m *Model) refresh() tea.Cmd {
	if m.cfg.App == "" {
		return m.setNotice(noticeInfo, m.keys.Refresh.Help().Key+" refreshes an open app now; the overview lists every app by itself (each every "+
			words.Duration(watch.OrgListEvery, words.Whole)+")")
	}
	m.sched.Refresh()
	return tea.Batch(m.schedule(), m.setNotice(noticeInfo, "refreshing "+m.cfg.App+": the machines and every feed are asked for now"))
}

// updateHelpKey: the help closes with ? or esc; : opens the command line
// over it; q quits; any other key says how to leave it.
func (m Model) updateHelpKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help), key.Matches(msg, k.Back):
		m.help = false
		return m, nil
	case key.Matches(msg, k.Command):
		m.help = false
		return m.openSwitcher()
	}
	return m, m.setNotice(noticeInfo, sanitize.Line(msg.String())+" does nothing in the help — "+
		k.Help.Help().Key+" or "+k.Back.Help().Key+" closes it, "+k.Command.Help().Key+" opens an app or a command")
}

// updateSwitcher types into the `:` prompt: enter opens the highlighted
// match or runs the command (or refuses in place, saying why), tab and
// shift+tab move the highlight, esc cancels.
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
		e, ok := s.choice()
		if !ok {
			return m, nil // refused in place: the hint says why
		}
		name := e.name
		if c, ok := m.commandNamed(name); ok && e.command {
			if c.refuse != nil {
				if why := c.refuse(&m); why != "" {
					s.refuse(why)
					return m, nil
				}
			}
			m.switcher = nil
			return c.run(m)
		}
		m.switcher = nil
		if name == m.cfg.App && m.fatal == nil {
			m.open, m.help = nil, false // already the app: its dashboard
			return m, nil
		}
		return m.switchApp(name)
	default:
		return m, s.update(msg)
	}
	return m, nil
}

// claims reports whether msg is one of the keys p says act in it now.
func claims(p pane.Pane, msg tea.KeyMsg) bool {
	for _, b := range p.Keys() {
		if b.Enabled() && key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// openSwitcher opens the `:` prompt and asks for the org's apps.
func (m Model) openSwitcher() (tea.Model, tea.Cmd) {
	ready := m.cfg.Source.Ready()
	m.switcher = newSwitcher(m.theme, m.width, m.commandWords(), ready)
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
// back to what was shown before (the org overview when nothing was),
// another app or a command, or quit.
func (m Model) updateFatalKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Back):
		return m.switchApp(m.back.app) // unset: "", the org overview
	case key.Matches(msg, k.Command):
		return m.openSwitcher()
	}
	return m, m.setNotice(noticeInfo, sanitize.Line(msg.String())+" does nothing here — "+fatalWays(m.keys, m.back))
}

// fatalWays names the keys out of an error only the user can fix.
func fatalWays(k *keys.KeyMap, back returnTo) string {
	return k.Back.Help().Key + " back to " + back.String() + " · " +
		k.Command.Help().Key + " open another app or a command · " + k.Quit.Help().Key + " quit"
}
