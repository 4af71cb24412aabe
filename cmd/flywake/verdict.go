package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/sources/watch"
)

func newVerdictCmd(g *globalFlags) *cobra.Command {
	var (
		format, releaseFlag, demoRelease string
		release                          string // as judged: "42" for --release v42
		timeout, settle                  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "verdict",
		Short: "Judge a release right after `fly deploy`, for CI: live, or roll back",
		Long: `verdict is the step after ` + "`fly deploy`" + `: it watches the release's machines and
says whether the release took. "Started" is not "serving": a machine the
platform reports started may die a second later and be restarted at once. So
verdict waits (with the Machines API's wait long-poll) until each machine of
the release looks started, looks again after --settle, fails at once when the
platform gave up restarting a machine, and when a machine crashed since the
deploy began, looks once more and compares the newest crash's timestamp. It
never counts crashes: the platform keeps only the newest five events per
machine, so a machine that crashes after every start shows the same number of
crashes at every look. A machine is live after two looks with nothing new,
started, with its health checks passing. Machines of older releases and
machines stopped on purpose (autostop, a deploy that left them stopped) are
not crashes. It only reads.

--release N (or vN, as every screen prints it) judges release N (default:
the highest fly_release_version among the machines). It prints its report in
the chosen format whatever the exit status; with --format json, stdout holds
only JSON, in the shape documented in sources/verdict/doc.go. What it could
not read — an entry of the machines answer it could not decode, a machine
naming no release, a crash event without a time — could hide a failure, so
it is never live then: it could not judge (bad_answer), with the counts.

With --demo, --demo-release healthy|crashing first rolls a demo release out to
the embedded platform (as ` + "`flywake deploy`" + ` does, standing in for ` + "`fly deploy`" + `), then judges it.

Exit status: 0 live, 2 failed — roll back ("the machine has crashed repeatedly
since the deploy and is still restarting", the machines, their exit codes, the
newest crash and the app's last log lines before the first crash),
3 could not judge (auth, unknown app, API down, rate limited, timeout, an
answer it could not read: the report says which), 1 usage (the usage is
printed instead of a report).`,
		Args: cobra.NoArgs,
		RunE: g.runE(command{
			name: "verdict", cannotRun: verdict.ExitCannotJudge, needs: oneApp, noOrg: true,
			validate: func() (err error) {
				if release, err = verdict.ParseRelease(releaseFlag); err != nil {
					return usage(err)
				}
				if err := validateVerdict(g, format, demoRelease, timeout, settle); err != nil {
					return usage(err)
				}
				return nil
			},
			run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
				if demoRelease != "" {
					rel, _ := rollout.ParseRelease(demoRelease)
					if err := demoDeploy(ctx, p, rel, cmd.ErrOrStderr()); err != nil {
						return err
					}
				}
				rep := p.source.Verdict(ctx, p.app, watch.VerdictOptions{Release: release, Settle: settle, Timeout: timeout})
				if err := writeVerdict(cmd.OutOrStdout(), format, rep); err != nil {
					return err
				}
				if format != "json" { // the JSON shape is a contract; the history is for people
					crashHistory(cmd.OutOrStdout(), p, rep, format == "markdown")
				}
				if code := rep.ExitCode(); code != verdict.ExitLive {
					return exitWith(code)
				}
				return nil
			},
			// When the gate could not even start (no token, a deploy that
			// failed): the same report, could not judge, with the cause.
			report: func(out io.Writer, p *platform, cause diagnose.Cause, detail string) (int, error) {
				rep := verdict.Report{App: g.app, Cause: cause, Detail: detail, Settle: settle, Timeout: timeout}
				if p != nil {
					rep.App = p.app
				}
				rep.Result.Release = release
				return rep.ExitCode(), writeVerdict(out, format, rep)
			},
		}),
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output: text, markdown (for a pull-request or deploy-log comment) or json")
	f.StringVar(&releaseFlag, "release", "", "release to judge: 42 or v42, its fly_release_version (default: the highest among the machines)")
	f.DurationVar(&timeout, "timeout", watch.DefaultVerdictTimeout, "give up (exit 3) when there is no verdict by then")
	f.DurationVar(&settle, "settle", verdict.DefaultSettle, "least time between two looks at a machine; raise it for an app that crashes later after a start")
	f.StringVar(&demoRelease, "demo-release", "", "with --demo: first roll out a demo release, healthy or crashing (2.5 s after every start), then judge it")
	return cmd
}

func validateVerdict(g *globalFlags, format, demoRelease string, timeout, settle time.Duration) error {
	switch format {
	case "text", "markdown", "json":
	default:
		return fmt.Errorf("--format must be text, markdown or json, not %q", format)
	}
	switch {
	case timeout <= 0:
		return fmt.Errorf("--timeout must be positive, not %s", timeout)
	case settle <= 0:
		return fmt.Errorf("--settle must be positive, not %s", settle)
	case settle >= timeout:
		return fmt.Errorf("--settle %s leaves no room for a second look within --timeout %s", settle, timeout)
	}
	if demoRelease != "" {
		if !g.demo {
			return fmt.Errorf("--demo-release rolls out to the embedded platform only: add --demo (against `flywake sim`, run `flywake deploy --demo-release %s` first)", demoRelease)
		}
		if g.readonly {
			return fmt.Errorf("--readonly: --demo-release updates machines, so it is off in read-only mode")
		}
		if _, err := rollout.ParseRelease(demoRelease); err != nil {
			return fmt.Errorf("--demo-release: %w", err)
		}
	}
	return nil
}

func writeVerdict(out io.Writer, format string, rep verdict.Report) error {
	switch format {
	case "json":
		b, err := verdict.JSON(rep)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(out, string(b))
		return err
	case "markdown":
		_, err := fmt.Fprint(out, verdict.Markdown(rep))
		return err
	}
	_, err := fmt.Fprint(out, verdict.Text(rep))
	return err
}
