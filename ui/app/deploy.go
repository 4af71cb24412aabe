package app

import (
	"context"
	"errors"

	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/deploy"
)

// buildDeploy creates the demo deploy overlay for the current app. Its
// rollouts are bounded by the generation's context too, so switching apps
// or quitting stops one between machines. Its key is off unless the
// platform is embedded (see newModel).
func (m *Model) buildDeploy(pctx pane.Context) *deploy.Pane {
	return deploy.New(pctx, m.cfg.App, deployRunner{source: m.cfg.Source, gen: m.genCtx})
}

// deployRunner is the overlay's Deployer: the same rollout `flywake deploy`
// runs, against the dashboard's platform.
type deployRunner struct {
	source *watch.Source
	gen    context.Context // the app generation's
}

// bound is the context a pane made for one command, ended too when the
// app generation's ends (an app switch, quitting): panes hold no context,
// the root's runners bound theirs.
func bound(gen, ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if gen == nil {
		return ctx, cancel
	}
	stop := context.AfterFunc(gen, cancel)
	return ctx, func() { stop(); cancel() }
}

func (r deployRunner) Plan(ctx context.Context, app string, rel rollout.Release) (rollout.Plan, error) {
	if !r.source.Ready() {
		return rollout.Plan{}, errors.New("no platform to deploy to")
	}
	ctx, done := bound(r.gen, ctx)
	defer done()
	return r.source.PlanDemoDeploy(ctx, app, rel)
}

func (r deployRunner) Run(ctx context.Context, plan rollout.Plan, onStep func(rollout.Step)) error {
	if !r.source.Ready() {
		return errors.New("no platform to deploy to")
	}
	ctx, done := bound(r.gen, ctx)
	defer done()
	return r.source.DemoDeploy(ctx, plan, onStep)
}
