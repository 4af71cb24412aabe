package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

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
			name := p.app
			if name == "" {
				var err error
				if name, err = firstApp(ctx, p); err != nil {
					return err
				}
			}
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

// firstApp picks the org's first app (by name) when none was named.
func firstApp(ctx context.Context, p *platform) (string, error) {
	lookup, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	apps, err := p.source.Client.ListApps(lookup, p.source.Org)
	if err != nil {
		return "", fmt.Errorf("no app selected and listing apps failed: %w — pass -a APP", err)
	}
	if len(apps) == 0 {
		return "", errors.New("no app selected and the token sees no apps — pass -a APP, set FLY_APP, or run flywake next to a fly.toml")
	}
	names := make([]string, len(apps))
	for i, a := range apps {
		names[i] = a.Name
	}
	sort.Strings(names)
	return names[0], nil
}
