package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/textfile"
	"github.com/flywake/flywake/sources/watch"
)

func newCheckCmd(g *globalFlags) *cobra.Command {
	var (
		format string
		dirErr error // why --dir could not be read: nothing else was read
	)
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

It prints its report in the chosen format whatever the exit status, even
when it could not check at all: the items the project answers are still
judged, the others say why they could not be checked, and the JSON's
could_not_check names the cause (auth, unknown_app, api_down, rate_limited,
timeout, bad_answer, could_not_read).

Exit status: 0 nothing warns or fails (unknown and n/a don't count),
1 warnings (an unknown fly.toml key is one) — or a usage error (an unknown
flag, a --format it does not write), which prints the usage instead of a
report — 2 failures, 3 could not check: auth, unknown app, an API that
failed (the Machines API and its exec probes, or the logs or Prometheus an
item needs), an answer it could not read (a machine entry skipped could be
the crash loop), a --dir that is missing or unreadable, or a project file
an item needs that could not be read (over 1 MB, a directory, a FIFO,
unreadable). A failure wins: 2 even when something else could not be
read. An item unknown only because no machine is running does not count.`,
		Args: cobra.NoArgs,
		RunE: g.runE(command{
			name: "check", cannotRun: checklist.ExitCannotCheck, needs: oneApp, timeout: 3 * time.Minute,
			validate: func() error {
				switch format {
				case "text", "markdown", "json":
				default:
					return usage(fmt.Errorf("--format must be text, markdown or json, not %q", format))
				}
				// A --dir it cannot read is a check it cannot do: refused
				// before the platform is asked anything.
				if g.dir != "" {
					if dirErr = repo.CheckDir(g.dir); dirErr != nil {
						return &causedError{cause: diagnose.CauseCouldNotRead,
							err: fmt.Errorf("cannot read --dir %v; nothing was checked", dirErr)}
					}
				}
				return nil
			},
			run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
				a, err := p.source.Collect(ctx, p.app, watch.Feeds()...)
				if err != nil {
					return err // the report says why, with what the project answers
				}
				project, projectErrs := loadProject(g.dir, p.demo, p.app)
				code, err := writeCheck(cmd.OutOrStdout(), format, p.app, a.Evidence(p.source.Now(), project, projectErrs), g.checkOptions())
				if err != nil {
					return err
				}
				if code != checklist.ExitOK {
					return exitWith(code)
				}
				return nil
			},
			// When nothing could be read from the platform: the project
			// is still judged, every platform item says why it could not
			// be checked.
			report: func(out io.Writer, p *platform, cause diagnose.Cause, detail string) (int, error) {
				app, demo := g.app, g.demo
				if p != nil {
					app, demo = p.app, p.demo
				}
				ev := checklist.Evidence{Unread: map[checklist.Input]checklist.Unread{
					checklist.InputMachines: {Cause: cause, Detail: detail}}}
				var fe *textfile.FileError
				if errors.As(dirErr, &fe) {
					ev.ProjectErrors = []error{fe}
				} else {
					ev.Project, ev.ProjectErrors = loadProject(g.dir, demo, app)
				}
				return writeCheck(out, format, app, ev, g.checkOptions())
			},
		}),
	}
	cmd.Flags().StringVar(&format, "format", "text", "output: text, markdown (for a pull-request comment) or json")
	return cmd
}

// writeCheck runs the checklist and prints its report in format; it
// returns the exit status the report states.
func writeCheck(out io.Writer, format, app string, ev checklist.Evidence, opts checklist.Options) (int, error) {
	if app == "" {
		app = "(no app)"
	}
	report := checklist.Run(app, ev, opts)
	var err error
	switch format {
	case "json":
		var b []byte
		if b, err = report.JSON(); err == nil {
			_, err = out.Write(b)
		}
	case "markdown":
		_, err = fmt.Fprint(out, report.Markdown())
	default:
		_, err = fmt.Fprint(out, report.Text())
	}
	return report.ExitCode(), err
}
