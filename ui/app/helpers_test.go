package app

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
)

// newInline is New for tests that call Update and run the commands it
// returns themselves: no timer waits (the notice's 5 or 15 s, the clock's
// second, the scheduler's next call) but each answers at once with a
// firing, which the root ignores. A test that means a timer to fire sends
// the firing's message.
func newInline(cfg Config) Model {
	m := New(cfg)
	m.timer = func(d time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg { return firing{after: d, msg: msg} }
	}
	return m
}

// firing is a timer of a newInline model: msg, due after d.
type firing struct {
	after time.Duration
	msg   tea.Msg
}

// machinesOf is the root's machines pane.
func machinesOf(m Model) *machines.Model { return m.paneByID(machines.ID).(*machines.Model) }

// feedReply is what a fetch of the named feed would answer, applying apply.
func feedReply(tb testing.TB, m Model, name, cursor string, apply func(*snapshot.App)) watch.Reply {
	tb.Helper()
	i := m.sched.FeedIndex(name)
	if i < 0 {
		tb.Fatalf("no feed %q registered", name)
	}
	return watch.Reply{Job: watch.Job{Gen: m.gen, Kind: watch.FeedJob, App: m.cfg.App, Feed: i}, Result: watch.Result{Apply: apply, Cursor: cursor}}
}

// logsReply and metricsReply answer the logs and edge/origin feeds.
func logsReply(tb testing.TB, m Model, fx fixtureData) watch.Reply {
	return feedReply(tb, m, "logs", "1", func(a *snapshot.App) { a.ApplyLogs(fx.logs) })
}

func metricsReply(tb testing.TB, m Model, fx fixtureData) watch.Reply {
	return feedReply(tb, m, "metrics", "", func(a *snapshot.App) { a.ApplyEdgeOrigin(fx.metrics) })
}

// openOverlay is the root's open overlay's ID, "" when none is open.
func openOverlay(m Model) pane.ID {
	if m.open == nil {
		return ""
	}
	return m.open.ID()
}

// focusTitle is tile i's title as a view that shows it alone draws it,
// "Swap · 4/N", N the registry's count of tiles.
func focusTitle(i int) string {
	titles := TileTitles()
	return fmt.Sprintf("%s · %d/%d", titles[i], i+1, len(titles))
}
