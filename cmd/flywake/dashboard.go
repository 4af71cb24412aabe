package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/ui/app"
	"github.com/flywake/flywake/ui/theme"
)

// dashboardCommand is `flywake [--demo] [-a APP]`: the TUI. Without
// credentials it fails with fly.ErrNoToken, whose text says how to log in and
// how to try --demo; it never falls back to simulated data on its own.
func dashboardCommand(g *globalFlags) command {
	return command{
		cannotRun: 1, needs: anyApp, tui: true,
		validate: app.CheckTerminal,
		run: func(ctx context.Context, _ *cobra.Command, p *platform) error {
			name := p.app // "" (no -a, FLY_APP or fly.toml): the org overview opens first
			cfg := app.Config{
				Source:   p.source,
				App:      name,
				Demo:     p.demo,
				ReadOnly: g.readonly,
				Theme:    theme.FromEnv(),
				Project: func(app string) (*repo.Project, []error) {
					return p.project(g.dir, app)
				},
				CheckOptions: g.checkOptions(),
				Secrets:      []string{p.token},
			}
			if p.demo { // the wake test goes through the demo's edge, on its clock
				cfg.EdgeURL, cfg.Speed = p.sim.EdgeURL, p.sim.Clock().Speed()
			}
			return app.Run(ctx, cfg)
		},
	}
}
