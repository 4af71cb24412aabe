package wake

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/waketest"
)

// Every message names the pane that asked (the root builds a new pane per
// app, and routes non-key messages to all panes) and the request or run it
// answers; anything else is stale and dropped.

// preparedMsg answers one Prepare.
type preparedMsg struct {
	from *Pane
	id   int
	plan *waketest.Plan
	err  error
}

// feedMsg is one batch of a run's events; done carries the report.
type feedMsg struct {
	from *Pane
	run  int
	feedBatch
}

// savedMsg answers storeCmd: the previous saved result of the app (read
// first, so it is never the run's own) and where the run's report went.
type savedMsg struct {
	from         *Pane
	run          int
	previous     *waketest.Report
	previousPath string
	previousErr  error
	path         string
	err          error
}

// The commands below are the only places the Runner is called.

func (p *Pane) prepareCmd(id int, s waketest.Setup) tea.Cmd {
	r := p.runner
	return func() tea.Msg {
		ctx, cancel := contextWithTimeout(context.Background(), prepareTimeout)
		defer cancel()
		plan, err := r.Prepare(ctx, s)
		return preparedMsg{from: p, id: id, plan: plan, err: err}
	}
}

// runCmd runs the plan to its end (or abort, ctx cancelled) and closes
// the feed; the events travel separately through waitCmd.
func (p *Pane) runCmd(ctx context.Context, plan *waketest.Plan, f *feed) tea.Cmd {
	r := p.runner
	return func() tea.Msg {
		rep, err := r.Run(ctx, plan, f.add)
		f.finish(rep, err)
		return nil
	}
}

// waitCmd returns the next batch of the feed; the pane re-issues it after
// each batch until the run is done.
func (p *Pane) waitCmd(run int, f *feed) tea.Cmd {
	return func() tea.Msg {
		return feedMsg{from: p, run: run, feedBatch: f.take()}
	}
}

// storeCmd reads the app's previous result, then saves rep beside it.
func (p *Pane) storeCmd(run int, rep *waketest.Report) tea.Cmd {
	r := p.runner
	return func() tea.Msg {
		msg := savedMsg{from: p, run: run}
		msg.previous, msg.previousPath, msg.previousErr = r.LoadLast(rep.App)
		msg.path, msg.err = r.Save(rep)
		return msg
	}
}
