package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/status"
	"github.com/flywake/flywake/sources/watch"
)

func newStatusCmd(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Print one snapshot of what the dashboard shows, without a terminal",
		Long: `status takes one look at an app (or, without -a and without a fly.toml, at
every app the token can see) and prints what the panes show: machine states
and their alerts (crash loops, unreachable hosts), cold starts from a day of
logs, swap, bytecode cache, crash-loop verdicts and edge-versus-origin errors.
One look cannot tell a crash loop from one crash: when a machine crashed
since its release, status looks again once the next look is due, up to four
times (about 20 s), as the dashboard does; a machine still undecided after
them says so.
It never changes a machine; probes run only on machines that are already
started. With --json, stdout holds only JSON, in the shape documented in
sources/status/doc.go: structured fields, RFC 3339 timestamps, null for
what is not known.`,
		Args: cobra.NoArgs,
		RunE: g.runE(command{
			name: "status", cannotRun: 1, needs: anyApp, timeout: 2 * time.Minute, oneLook: true,
			run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
				apps := []string{p.app}
				if p.app == "" { // none named with -a, FLY_APP or a fly.toml: every app
					list, err := p.source.Client.ListApps(ctx, p.source.Org)
					if err != nil {
						return fmt.Errorf("listing apps: %w", err)
					}
					apps = apps[:0]
					for _, a := range list {
						apps = append(apps, a.Name)
					}
					sort.Strings(apps)
				}
				report := status.Report{GeneratedAt: time.Now().UTC(), Org: p.source.Org, Demo: p.demo, Apps: []status.App{}}
				for _, app := range apps {
					a, err := p.source.Collect(ctx, app, watch.Feeds()...)
					if err != nil {
						return fmt.Errorf("%s: %w", app, err)
					}
					report.Apps = append(report.Apps, status.BuildApp(a, p.source.Now()))
				}
				out := cmd.OutOrStdout()
				if asJSON {
					enc := json.NewEncoder(out)
					enc.SetIndent("", "  ")
					return enc.Encode(report)
				}
				report.WriteText(out)
				return nil
			},
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON only (diagnostics go to stderr); shape in sources/status/doc.go")
	return cmd
}
