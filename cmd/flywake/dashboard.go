package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/ui/app"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// dashboardCommand is `flywake [--demo] [-a APP]`: the TUI. Without
// credentials it fails with fly.ErrNoToken, whose text says how to log in and
// how to try --demo; it never falls back to simulated data on its own. A key
// file with any problem stops it before anything starts.
func dashboardCommand(g *globalFlags, view *string) command {
	var km keys.KeyMap
	return command{
		cannotRun: 1, needs: anyApp, tui: true,
		validate: func() error {
			if *view != "" && !slices.Contains(app.Views, *view) {
				return usage(app.CheckView(*view, "", g.readonly))
			}
			var err error
			if km, err = keys.LoadUser(); err != nil {
				return fmt.Errorf("%w\nnothing was started: fix the key file, or move it away to use the default keys", err)
			}
			return app.CheckTerminal()
		},
		run: func(ctx context.Context, _ *cobra.Command, p *platform) error {
			name := p.app // "" (no -a, FLY_APP or fly.toml): the org overview opens first
			if *view != "" {
				if err := app.CheckView(*view, name, g.readonly); err != nil {
					return usage(err)
				}
			}
			cfg := app.Config{
				View:     *view,
				Source:   p.source,
				App:      name,
				Demo:     p.demo,
				ReadOnly: g.readonly,
				Keys:     &km,
				Theme:    theme.FromEnv(),
				Project: func(app string) (*repo.Project, []error) {
					return loadProject(g.dir, p.demo, app)
				},
				CheckOptions: g.checkOptions(),
				Secrets:      []string{p.token},
			}
			if p.replay != nil { // a recording: nothing changes; the time bar moves its clock
				cfg.Replay, cfg.ReplaySpeed, cfg.ReadOnly = p.replay, g.speed, true
			}
			if p.demo { // the wake test goes through the demo's edge, on its clock
				cfg.EdgeURL, cfg.Speed = p.sim.EdgeURL, p.sim.Clock().Speed()
			}
			return app.Run(ctx, cfg)
		},
	}
}
