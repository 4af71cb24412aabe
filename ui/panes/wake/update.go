package wake

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/ui/components/prompt"
	"github.com/flywake/flywake/ui/keys"
)

// modes are the choices of the setup, left to right.
var modes = []waketest.Mode{waketest.ModeStop, waketest.ModeSuspend, waketest.ModeBoth}

// Update handles keys (the root forwards them while the overlay is open)
// and the pane's own replies.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	defer p.settle()
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return p.updateKey(msg)
	case preparedMsg:
		if msg.from != p || msg.id != p.prepID {
			return nil
		}
		p.preparing = false
		p.plan, p.prepErr = msg.plan, msg.err
		if msg.err != nil {
			p.plan = nil // a plan of another mode must never be confirmed
		}
	case feedMsg:
		return p.onFeed(msg)
	case savedMsg:
		if msg.from != p || msg.run != p.runID {
			return nil
		}
		p.saving = false
		p.savedPath, p.saveErr = msg.path, msg.err
		p.previous, p.prevPath, p.prevErr = msg.previous, msg.previousPath, msg.previousErr
	}
	return nil
}

func (p *Pane) updateKey(msg tea.KeyMsg) tea.Cmd {
	switch p.stage {
	case StageSetup:
		return p.setupKey(msg)
	case StageConfirm:
		if prompt.YesKey(msg, &p.keys) {
			return p.start()
		}
		p.stage = StageSetup // anything else is "no"
		p.notice = "not started; nothing was changed"
	case StageRunning:
		switch {
		case key.Matches(msg, p.keys.Back):
			p.abort()
		case key.Matches(msg, p.keys.Quit):
			p.notice = keys.Short(p.keys.Back) + " aborts the test first (" + keys.Short(p.keys.Interrupt) +
				" quits at once and leaves the machines as they are)"
		}
	case StageAborting:
		if key.Matches(msg, p.keys.Back) || key.Matches(msg, p.keys.Quit) {
			p.notice = "already aborting: reading where each machine was left"
		}
	case StageDone:
		switch {
		case key.Matches(msg, p.keys.Enter):
			return p.toSetup()
		case key.Matches(msg, p.keys.Compare):
			p.toggleCompare()
		default:
			p.scroll(msg)
		}
	}
	return nil
}

func (p *Pane) setupKey(msg tea.KeyMsg) tea.Cmd {
	p.notice = ""
	k := p.keys
	switch {
	case key.Matches(msg, k.WakeModePrev):
		return p.setMode(modeIndex(p.mode) - 1)
	case key.Matches(msg, k.WakeModeNext):
		return p.setMode(modeIndex(p.mode) + 1)
	case key.Matches(msg, k.WakeModeStop):
		return p.setMode(modeIndex(waketest.ModeStop))
	case key.Matches(msg, k.WakeModeSuspend):
		return p.setMode(modeIndex(waketest.ModeSuspend))
	case key.Matches(msg, k.WakeModeBoth):
		return p.setMode(modeIndex(waketest.ModeBoth))
	case key.Matches(msg, k.WakeMore):
		p.setRequests(p.shownRequests() + requestStep)
	case key.Matches(msg, k.WakeFewer):
		p.setRequests(p.shownRequests() - requestStep)
	case key.Matches(msg, k.WakeDefault):
		p.requests = 0
	case key.Matches(msg, k.Refresh):
		if p.preparing {
			p.notice = "already reading the machines: the plan follows"
			return nil
		}
		return p.prepare()
	case key.Matches(msg, k.Enter):
		switch {
		case p.preparing:
			p.notice = "still reading the machines"
		case p.plan == nil:
			p.notice = "no plan to run: " + keys.Short(k.Refresh) + " reads the machines again"
		default:
			p.stage = StageConfirm
		}
	default:
		p.scroll(msg)
	}
	return nil
}

func modeIndex(m waketest.Mode) int {
	for i, v := range modes {
		if v == m {
			return i
		}
	}
	return len(modes) - 1
}

// setMode picks a mode (wrapping around) and re-reads the plan: the
// warnings depend on it.
func (p *Pane) setMode(i int) tea.Cmd {
	i = (i%len(modes) + len(modes)) % len(modes)
	if modes[i] == p.mode && (p.plan != nil || p.preparing) {
		return nil
	}
	p.mode = modes[i]
	return p.prepare()
}

// shownRequests is the count on screen: the user's, else the plan's default.
func (p *Pane) shownRequests() int {
	if n := p.plannedRequests(); n > 0 {
		return n
	}
	return waketest.MinDefaultRequests
}

func (p *Pane) setRequests(n int) {
	p.requests = min(max(n, 1), waketest.MaxRequests)
}

func (p *Pane) toggleCompare() {
	if p.previous == nil {
		switch {
		case p.saving:
			p.notice = "still reading the previous result"
		case p.prevErr != nil:
			p.notice = "could not read the previous result: " + p.errLine(p.prevErr)
		default:
			p.notice = "no earlier result of " + p.base.App + " is saved"
		}
		return
	}
	p.compare = !p.compare
	p.body.Top()
}

// scroll moves the scrollable views, up to the last line.
func (p *Pane) scroll(msg tea.KeyMsg) {
	p.settle() // the lines as they are now, before moving over them
	p.body.HandleKey(msg, p.keys)
}
