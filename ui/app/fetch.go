package app

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/components/cell"
)

// The data flow: the data layer's one scheduler (watch.Scheduler) decides
// every call and when; the root runs each job it hands out in a tea.Cmd
// (watch.Source.Do, under the job's deadline), gives each reply back to it
// (Done applies the data), hands the panes what changed, and keeps one
// timer armed for the next call that comes due. Nothing here knows what a
// feed reads or when a listing is due.

// wakeMsg fires when the scheduler's next call comes due.
type wakeMsg struct{ id int }

// wakeTimer is the one timer armed for the scheduler: shared by every copy
// of the model, so an app switch or a reply never arms a second one for
// the same moment.
type wakeTimer struct {
	id int
	at time.Time // wall; zero: none armed
}

// clock is the scheduler's view of time: the wall, the platform's, and
// the demo's speed.
func (m *Model) clock() watch.Clock {
	return watch.Clock{Wall: m.wall(), Now: m.now(), Speed: m.cfg.Speed}
}

// schedule starts whatever is due and arms the timer for what comes due
// next, when that is sooner than the timer already armed.
func (m *Model) schedule() tea.Cmd {
	if !m.cfg.Source.Ready() || m.ctx.Err() != nil {
		return nil
	}
	c := m.clock()
	var cmds []tea.Cmd
	for _, j := range m.sched.Due(c, m.app, m.org) {
		cmds = append(cmds, m.run(j))
	}
	if at, ok := m.sched.NextWake(c); ok && (m.wake.at.IsZero() || at.Before(m.wake.at)) {
		m.wake.id++
		m.wake.at = at
		id := m.wake.id
		cmds = append(cmds, m.after(at.Sub(c.Wall), wakeMsg{id: id}))
	}
	return tea.Batch(cmds...)
}

// run makes one job's call: an app's jobs under the generation's context
// (an app switch ends them, long-polls included), the org's under the
// program's.
func (m *Model) run(j watch.Job) tea.Cmd {
	ctx := m.genCtx
	if j.Gen == 0 {
		ctx = m.ctx
	}
	src := m.cfg.Source
	if m.bar != nil { // a replay: a reply made before the clock moved back is dropped
		epoch := m.bar.epoch
		return func() tea.Msg { return replayReply{epoch: epoch, Reply: src.Do(ctx, j)} }
	}
	return func() tea.Msg { return src.Do(ctx, j) }
}

// onWake: the armed timer fired (an older one is ignored: the armed one
// is never later than what it replaced).
func (m *Model) onWake(msg wakeMsg) tea.Cmd {
	if msg.id != m.wake.id {
		return nil
	}
	m.wake.at = time.Time{}
	return m.schedule()
}

// onReply gives a reply to the scheduler and acts on what it says: fresh
// or stale data, a fatal error, and the replies the user waits for.
func (m *Model) onReply(r watch.Reply) tea.Cmd {
	if m.ctx.Err() != nil {
		return nil // quitting
	}
	out := m.sched.Done(r, m.clock(), m.app, m.org)
	if out.Dropped {
		return nil
	}
	var cmds []tea.Cmd
	switch {
	case out.Fatal != nil:
		return tea.Batch(m.onFatal(out.Fatal)...)
	case out.ListFailed:
		m.setStale(true)
	case out.Listed:
		m.setStale(false)
	}
	if out.App {
		m.setData()
	}
	if out.Org {
		m.setOrgData(m.now())
	}
	switch r.Kind {
	case watch.AppsJob:
		if m.switcher != nil {
			m.switcher.setApps(r.Apps, r.Err)
		}
	case watch.ActJob:
		cmds = append(cmds, m.onAction(r))
	case watch.DescribeJob:
		cmds = append(cmds, m.onDescribed(r))
	}
	return tea.Batch(append(cmds, m.schedule())...)
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

// clockCmd is the 1 s tick; Init starts it and each tick arms the next.
func (m *Model) clockCmd() tea.Cmd {
	if m.timer != nil {
		return m.timer(time.Second, clockMsg{})
	}
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return clockMsg{at: t} })
}

// after is msg once d has passed: the runtime's tea.Tick, or the model's
// timer when it has one.
func (m *Model) after(d time.Duration, msg tea.Msg) tea.Cmd {
	if m.timer != nil {
		return m.timer(d, msg)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}
