package app

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/watch"
)

// Every registered feed (watch.Feeds) runs here the same way: one fetch in
// flight at a time, its reply dropped when it belongs to another app
// generation, applied to the model, handed to the panes, and the next fetch
// armed after the feed's own interval. Nothing here knows what a feed reads.

// feedState is one feed's progress for the current app generation.
type feedState struct {
	busy   bool
	cursor string
	err    error // the last fetch's, nil when it succeeded
	timer  int   // id of the newest timer
}

// feedMsg answers one fetch of feed (an index into m.feeds).
type feedMsg struct {
	req
	feed int
	res  watch.Result
}

// feedPollMsg fires when a feed's refresh timer runs out.
type feedPollMsg struct {
	req
	feed int
}

// feedCmds starts every feed that has no fetch in flight.
func (m *Model) feedCmds() []tea.Cmd {
	var cmds []tea.Cmd
	for i := range m.feeds {
		cmds = append(cmds, m.feedCmd(i))
	}
	return cmds
}

// feedCmd fetches feed i, unless a fetch of it is in flight.
func (m *Model) feedCmd(i int) tea.Cmd {
	fs := &m.fetch.feeds[i]
	if !m.cfg.Source.Ready() || fs.busy || m.app.Name == "" {
		return nil
	}
	fs.busy = true
	f, r, ctx, src := m.feeds[i], m.nextReq(), m.genCtx, m.cfg.Source
	q := watch.Query{App: m.app.Name, Cursor: fs.cursor}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, f.Timeout)
		defer cancel()
		return feedMsg{req: r, feed: i, res: f.Fetch(ctx, src, q)}
	}
}

func (m *Model) onFeed(msg feedMsg) tea.Cmd {
	if msg.gen != m.gen || msg.feed >= len(m.fetch.feeds) {
		return nil
	}
	fs := &m.fetch.feeds[msg.feed]
	fs.busy = false
	fs.err = msg.res.Err
	if msg.res.Cursor != "" {
		fs.cursor = msg.res.Cursor
	}
	if msg.res.Apply != nil {
		msg.res.Apply(m.app)
		m.setData()
	}
	return m.feedAfter(msg.feed, m.feeds[msg.feed].Next(m.app, msg.res))
}

// feedAfter arms feed i's refresh timer; an older one is ignored when it fires.
func (m *Model) feedAfter(i int, d time.Duration) tea.Cmd {
	r := m.nextReq()
	m.fetch.feeds[i].timer = r.id
	return tea.Tick(d, func(time.Time) tea.Msg { return feedPollMsg{req: r, feed: i} })
}

func (m *Model) onFeedPoll(msg feedPollMsg) tea.Cmd {
	if msg.gen != m.gen || msg.feed >= len(m.fetch.feeds) || m.fetch.feeds[msg.feed].timer != msg.id || m.fatal != nil {
		return nil
	}
	return m.feedCmd(msg.feed)
}

// failingFeeds are the names of the feeds whose last fetch failed.
func (m *Model) failingFeeds() []string {
	var out []string
	for i, fs := range m.fetch.feeds {
		if fs.err != nil {
			out = append(out, m.feeds[i].Name)
		}
	}
	return out
}
