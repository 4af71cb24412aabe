package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/ui/components/prompt"
)

func newDeployCmd(g *globalFlags) *cobra.Command {
	var (
		demoRelease string
		yes         bool
	)
	cmd := &cobra.Command{
		Use:   "deploy --demo-release healthy|crashing",
		Short: "Roll a demo release out to an app of the embedded platform",
		Long: `deploy rolls a new release out to an app of the embedded platform over the
Machines API's update endpoint, the way ` + "`fly deploy`" + `'s rolling strategy does after it
pushed the image: machine by machine, under each machine's lease, each waited
for until it is back in the state it was in (a stopped machine stays
stopped). The release is the next fly_release_version. --demo-release healthy
runs like the app's own release (its boots included); crashing exits 1
2.5 s after every start: a release that crash-loops. deploy checks no
health: judge the release with ` + "`flywake verdict`" + `.

It only talks to the platform ` + "`flywake sim`" + ` runs, in the environment it prints
(FLY_FLAPS_BASE_URL on 127.0.0.1): against any other Machines API it refuses
before any call — deploy real apps with ` + "`fly deploy`" + `. With --demo the platform
would end with this command, so use ` + "`flywake verdict --demo --demo-release R`" + `
(deploy, then judge) or the dashboard's D key instead.

It asks for confirmation naming the app and its machines unless --yes;
--readonly refuses. Exit status: 0 rolled out, 1 it could not (refused, a
lease held by someone else, the API failed: the rest keep their release).`,
		Args: cobra.NoArgs,
		RunE: g.runE(command{
			// noOrg: no organization lookup, so the refusal of a platform
			// that is not embedded (PlanDemoDeploy) comes before any call.
			name: "deploy", cannotRun: 1, needs: oneApp, noOrg: true,
			validate: func() error {
				switch {
				case demoRelease == "":
					return errors.New("deploy needs --demo-release healthy or crashing")
				case g.readonly:
					return errors.New("--readonly: deploy updates machines, so it is off in read-only mode")
				case g.demo:
					return errors.New("with --demo the embedded platform ends with this command: run `flywake verdict --demo --demo-release " +
						demoRelease + "` (deploy, then judge), press D in `flywake --demo`, or run `flywake sim` in another terminal and deploy to it")
				}
				_, err := rollout.ParseRelease(demoRelease)
				return err
			},
			run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
				rel, _ := rollout.ParseRelease(demoRelease)
				plan, err := p.source.PlanDemoDeploy(ctx, p.app, rel)
				if err != nil {
					return err
				}
				if !yes {
					if err := confirmDeploy(cmd.InOrStdin(), cmd.ErrOrStderr(), plan); err != nil {
						return err
					}
				}
				if err := runDeploy(ctx, p, plan, cmd.ErrOrStderr()); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "rolled out release v%s (%s) to %s; judge it: flywake verdict -a %s\n",
					plan.To, plan.Release.Describe(), plan.App, plan.App)
				return nil
			},
		}),
	}
	cmd.Flags().StringVar(&demoRelease, "demo-release", "", "the release to roll out: healthy, or crashing (exits 1 2.5 s after every start)")
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask for confirmation")
	return cmd
}

// demoDeploy plans and runs a demo deploy without asking: `verdict --demo
// --demo-release` on its own private platform, where nothing else lives.
func demoDeploy(ctx context.Context, p *platform, rel rollout.Release, progress io.Writer) error {
	plan, err := p.source.PlanDemoDeploy(ctx, p.app, rel)
	if err != nil {
		return err
	}
	return runDeploy(ctx, p, plan, progress)
}

// runDeploy rolls the plan out, a line per machine on progress.
func runDeploy(ctx context.Context, p *platform, plan rollout.Plan, progress io.Writer) error {
	fmt.Fprintf(progress, "rolling out release v%s (%s) to %s, one machine at a time: %s\n",
		plan.To, plan.Release.Describe(), plan.App, plan.Image)
	return p.source.DemoDeploy(ctx, plan, func(s rollout.Step) {
		if s.Sent {
			return // the line comes when it settled
		}
		if s.Err != nil {
			fmt.Fprintf(progress, "  [%d/%d] %s: not updated: %v\n", s.Index, s.Total, s.Machine, s.Err)
			return
		}
		fmt.Fprintf(progress, "  [%d/%d] %s v%s → v%s, %s\n", s.Index, s.Total, s.Machine, s.From, s.To, s.State)
	})
}

// confirmDeploy asks y/N on w; without a terminal it refuses.
func confirmDeploy(in io.Reader, w io.Writer, p rollout.Plan) error {
	what := fmt.Sprintf("roll out release v%s (%s) to %d machines of %s (%s)", p.To, p.Release.Describe(),
		len(p.Machines), p.App, strings.Join(p.IDs(), ", "))
	if !isTerminal(in) {
		return fmt.Errorf("deploy would %s; there is no terminal to confirm on — pass --yes", what)
	}
	fmt.Fprint(w, prompt.Question{Text: "This will " + what + ". Continue?"}.Line())
	line, _ := bufio.NewReader(in).ReadString('\n')
	if prompt.Yes(line) {
		return nil
	}
	return errors.New("not confirmed; nothing was changed")
}
