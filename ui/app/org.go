package app

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/logs"
	"github.com/flywake/flywake/ui/panes/overview"
)

// The org overview's data flow: every watch.OrgFeed runs here the same way
// (one fetch in flight, applied to the org model, the next after the feed's
// own wait). The org model outlives app switches, so these are tied to the
// program's context, not to an app generation; they start the first time
// the overview opens and run from then on.

// orgRun is the org feeds' progress.
type orgRun struct {
	started bool
	feeds   []watch.OrgFeed
	st      []orgFeedState
	seq     int
}

type orgFeedState struct {
	busy  bool
	idle  bool // the last look found nothing due: new data may change that
	err   error
	timer int
}

type orgFeedMsg struct {
	feed int
	res  watch.OrgResult
}

type orgPollMsg struct{ feed, timer int }

// showOverview opens the overview, starting the org feeds the first time.
func (m *Model) showOverview() tea.Cmd {
	cmds := []tea.Cmd{m.startOrg()}
	if p := m.overviewPane(); p != nil {
		p.SetData(m.app, m.now())
		cmds = append(cmds, m.openOverlay(p))
	}
	return tea.Batch(cmds...)
}

// startOrg starts the org feeds, once (m.orgs is shared by every copy of
// the model, so this holds from Init too).
func (m *Model) startOrg() tea.Cmd {
	if m.orgs.started || !m.cfg.Source.Ready() {
		return nil
	}
	m.orgs.started = true
	var cmds []tea.Cmd
	for i := range m.orgs.feeds {
		cmds = append(cmds, m.orgCmd(i))
	}
	return tea.Batch(cmds...)
}

func (m *Model) overviewPane() pane.Overlay {
	for _, o := range m.overlays {
		if o.pane.ID() == overview.ID {
			return o.pane
		}
	}
	return nil
}

func (m *Model) orgClock() watch.OrgClock {
	return watch.OrgClock{Now: m.now(), Speed: m.cfg.Speed}
}

// orgCmd fetches org feed i when it has something due, else waits.
func (m *Model) orgCmd(i int) tea.Cmd {
	st := &m.orgs.st[i]
	if st.busy || m.ctx.Err() != nil {
		return nil
	}
	f := m.orgs.feeds[i]
	q, due := f.Due(m.org, m.orgClock())
	st.idle = !due
	if !due {
		return m.orgAfter(i, f.Next(m.org, m.orgClock(), watch.OrgResult{}))
	}
	st.busy = true
	ctx, src := m.ctx, m.cfg.Source
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, f.Timeout)
		defer cancel()
		return orgFeedMsg{feed: i, res: f.Fetch(ctx, src, q)}
	}
}

func (m *Model) onOrgFeed(msg orgFeedMsg) tea.Cmd {
	st := &m.orgs.st[msg.feed]
	st.busy, st.err = false, msg.res.Err
	cmds := []tea.Cmd{}
	if msg.res.Apply != nil {
		msg.res.Apply(m.org)
		if p := m.paneByID(overview.ID); p != nil {
			p.SetData(m.app, m.now())
		}
		// The apps listing makes listings and logs due at once: feeds that
		// found nothing to do look again now rather than after their wait.
		for i := range m.orgs.st {
			if i != msg.feed && m.orgs.st[i].idle && !m.orgs.st[i].busy {
				cmds = append(cmds, m.orgCmd(i))
			}
		}
	}
	cmds = append(cmds, m.orgAfter(msg.feed, m.orgs.feeds[msg.feed].Next(m.org, m.orgClock(), msg.res)))
	return tea.Batch(cmds...)
}

// orgAfter arms feed i's timer (no wait: fetch again now).
func (m *Model) orgAfter(i int, d time.Duration) tea.Cmd {
	if d <= 0 {
		return m.orgCmd(i)
	}
	m.orgs.seq++
	id := m.orgs.seq
	m.orgs.st[i].timer = id
	return tea.Tick(d, func(time.Time) tea.Msg { return orgPollMsg{feed: i, timer: id} })
}

func (m *Model) onOrgPoll(msg orgPollMsg) tea.Cmd {
	if m.orgs.st[msg.feed].timer != msg.timer {
		return nil
	}
	return m.orgCmd(msg.feed)
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
		return m, m.listCmd(), true
	}
	return m, nil, false
}
