package app

import (
	"context"
	"errors"
	"time"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/wake"
)

// buildWake creates the wake test overlay for the current app. Its runs
// are bounded by the generation's context too, so switching apps or
// quitting aborts a run in flight.
func (m *Model) buildWake(pctx pane.Context) *wake.Pane {
	setup := waketest.Setup{App: m.cfg.App, Speed: m.cfg.Speed, Secrets: m.cfg.Secrets}
	if m.cfg.EdgeURL != nil {
		setup.AppURL = m.cfg.EdgeURL(m.cfg.App)
	}
	return wake.New(pctx, wake.Options{Setup: setup, Runner: engineRunner{source: m.cfg.Source, gen: m.genCtx}})
}

// engineRunner is the wake pane's Runner: the same engine `flywake wake`
// drives, against the dashboard's platform, saving under the state dir.
type engineRunner struct {
	source *watch.Source
	gen    context.Context // the app generation's
}

var errNoPlatform = errors.New("no platform to test against")

func (r engineRunner) env() (waketest.Env, error) {
	if !r.source.Ready() {
		return waketest.Env{}, errNoPlatform
	}
	return r.source.WakeEnv()
}

// Prepare lists the app's machines once and resolves the plan.
func (r engineRunner) Prepare(ctx context.Context, s waketest.Setup) (*waketest.Plan, error) {
	env, err := r.env()
	if err != nil {
		return nil, err
	}
	ctx, done := bound(r.gen, ctx)
	defer done()
	return waketest.Prepare(ctx, env, s)
}

// Run runs the plan; cancelling ctx aborts it with a partial report.
func (r engineRunner) Run(ctx context.Context, plan *waketest.Plan, onEvent func(waketest.Event)) (*waketest.Report, error) {
	ctx, done := bound(r.gen, ctx)
	defer done()
	return plan.Run(ctx, onEvent)
}

// Save writes the report under the state dir, named by the wall clock as
// the headless command names it.
func (r engineRunner) Save(rep *waketest.Report) (string, error) {
	dir, err := waketest.UserStateDir()
	if err != nil {
		return "", err
	}
	return rep.Save(dir, time.Now())
}

// LoadLast reads the app's newest saved report.
func (r engineRunner) LoadLast(app string) (*waketest.Report, string, error) {
	dir, err := waketest.UserStateDir()
	if err != nil {
		return nil, "", err
	}
	return waketest.LoadLast(dir, app)
}
