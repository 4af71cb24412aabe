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
// rollouts live under the generation's context, so switching apps or
// quitting stops one between machines. Its key is off unless the platform
// is embedded (see newModel).
func (m *Model) buildDeploy(pctx pane.Context) *deploy.Pane {
	return deploy.New(pctx, m.cfg.App, deployRunner{source: m.cfg.Source}, m.genCtx)
}

// deployRunner is the overlay's Deployer: the same rollout `flywake deploy`
// runs, against the dashboard's platform.
type deployRunner struct {
	source *watch.Source
}

func (r deployRunner) Plan(ctx context.Context, app string, rel rollout.Release) (rollout.Plan, error) {
	if !r.source.Ready() {
		return rollout.Plan{}, errors.New("no platform to deploy to")
	}
	return r.source.PlanDemoDeploy(ctx, app, rel)
}

func (r deployRunner) Run(ctx context.Context, plan rollout.Plan, onStep func(rollout.Step)) error {
	if !r.source.Ready() {
		return errors.New("no platform to deploy to")
	}
	return r.source.DemoDeploy(ctx, plan, onStep)
}
