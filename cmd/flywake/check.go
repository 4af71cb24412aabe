package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/repo"
)

func newCheckCmd(g *globalFlags) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Walk the pre-deploy checklist headless, for CI",
		Long: `check answers the pre-deploy checklist with evidence, one item at a time:
cold start until serving, release work run on every boot, bytecode cache, sleep
and wake, edge versus origin, crash loop, concurrency and backlog, health checks.

It reads fly.toml, the Dockerfile, .dockerignore and the entrypoint script from
--dir (default: the current directory; with --demo and no --dir, each demo app's
own project), and the app's machines, logs, probes and metrics from the
platform. It never changes a machine's state: an item that needs a running
machine and finds none says unknown.

Exit status: 0 nothing warns or fails (unknown and n/a don't count),
1 warnings, 2 failures, 3 could not check: auth, unknown app, API down, a
--dir that is missing or unreadable, or a project file an item needs that
could not be read (over 1 MB, a directory, a FIFO, unreadable). A failure
wins: 2 even when something else could not be read. An item unknown only
because no machine is running does not count.`,
		Args: cobra.NoArgs,
		RunE: g.runE(command{
			name: "check", cannotRun: checklist.ExitCannotCheck, needs: oneApp, timeout: 3 * time.Minute,
			validate: func() error {
				switch format {
				case "text", "markdown", "json":
				default:
					return fmt.Errorf("--format must be text, markdown or json, not %q", format)
				}
				// A --dir it cannot read is a check it cannot do: refused
				// before the platform is asked anything.
				if g.dir != "" {
					if err := repo.CheckDir(g.dir); err != nil {
						return fmt.Errorf("cannot read --dir %v; nothing was checked", err)
					}
				}
				return nil
			},
			run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
				project, projectErrs := p.project(g.dir, p.app)
				a, err := p.source.Collect(ctx, p.app)
				if err != nil {
					return err
				}
				report := checklist.Run(p.app, a.Evidence(p.source.Now(), project, projectErrs), g.checkOptions())
				out := cmd.OutOrStdout()
				switch format {
				case "json":
					b, err := report.JSON()
					if err != nil {
						return err
					}
					fmt.Fprintln(out, string(b))
				case "markdown":
					fmt.Fprint(out, report.Markdown())
				default:
					fmt.Fprint(out, report.Text())
				}
				if code := report.ExitCode(); code != checklist.ExitOK {
					return exitWith(code)
				}
				return nil
			},
		}),
	}
	cmd.Flags().StringVar(&format, "format", "text", "output: text, markdown (for a pull-request comment) or json")
	return cmd
}
