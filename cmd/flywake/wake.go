package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/prompt"
)

// wakeFlags are the flags of `flywake wake`.
type wakeFlags struct {
	mode          string
	requests      int
	path          string
	timeout       time.Duration
	all           bool
	yes           bool
	asJSON        bool
	forceInstance string
	allowForced   bool
	url           string
}

// isTerminal reports whether r is an interactive terminal (tests replace
// it): a real isatty, since /dev/null is a character device too.
var isTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

func newWakeCmd(g *globalFlags) *cobra.Command {
	w := &wakeFlags{}
	cmd := &cobra.Command{
		Use:   "wake",
		Short: "Run the suspend-vs-stop wake test headless",
		Long: `wake puts the app's machines to sleep through the Machines API (stop, suspend,
or both one after the other), then sends a burst of concurrent requests to the
app's public hostname the way users arrive — through the edge, which must wake
the machines itself — and reports what the requests saw next to what the
platform did: when each machine reached "started" and when it first served.

By default it sleeps the machines autostop would put to sleep (all but
min_machines_running; --all takes every one) and sends max(40, running ×
soft_limit + 1) requests to the service's HTTP check path. It asks for
confirmation naming the machines unless --yes. Times are platform time.

Exit status: 0 the test ran to its end (whatever the requests answered),
1 it could not run (refused, preflight failed, aborted). With --json, stdout
holds only JSON; progress goes to stderr. Results are also saved under
$XDG_STATE_HOME/flywake/wake (else ~/.local/state/flywake/wake).`,
		Args: cobra.NoArgs,
	}
	var setup waketest.Setup
	cmd.RunE = g.runE(command{
		name: "wake", cannotRun: 1, needs: oneApp,
		validate: func() (err error) { setup, err = w.setup(g); return err },
		run: func(ctx context.Context, cmd *cobra.Command, p *platform) error {
			return runWake(ctx, cmd, p, setup, w, g.wakeDir)
		},
	})
	f := cmd.Flags()
	f.StringVar(&w.mode, "mode", "both", "stop, suspend, or both (stop run, then suspend run, side by side)")
	f.IntVar(&w.requests, "requests", 0, "requests in the burst (default max(40, running × soft_limit + 1); at most 2000)")
	f.StringVar(&w.path, "path", "", "path to request (default: the service's HTTP check path, else /)")
	f.DurationVar(&w.timeout, "timeout", waketest.DefaultTimeout, "per-request timeout, platform time")
	f.BoolVar(&w.all, "all", false, "put every machine of the service to sleep, min_machines_running ones too")
	f.BoolVar(&w.yes, "yes", false, "do not ask for confirmation")
	f.BoolVar(&w.asJSON, "json", false, "print JSON only (progress goes to stderr)")
	f.StringVar(&w.forceInstance, "force-instance", "", "pin every request to this machine with fly-force-instance-id (refused unless --allow-forced-instance)")
	f.BoolVar(&w.allowForced, "allow-forced-instance", false, "run a --force-instance test anyway; the result is marked not representative")
	f.StringVar(&w.url, "url", "", "send the requests here instead of https://<app>.fly.dev")
	return cmd
}

// setup checks what needs no platform (a forced instance is refused before
// any API call) and builds the test's setup from the flags.
func (w *wakeFlags) setup(g *globalFlags) (waketest.Setup, error) {
	if g.readonly {
		return waketest.Setup{}, errors.New("--readonly: the wake test stops or suspends machines, so it is off in read-only mode")
	}
	mode, err := waketest.ParseMode(w.mode)
	if err != nil {
		return waketest.Setup{}, usage(err)
	}
	setup := waketest.Setup{
		App: g.app, Mode: mode, All: w.all, Requests: w.requests, Path: w.path, Timeout: w.timeout,
		URL: w.url, ForceInstance: w.forceInstance, AllowForcedInstance: w.allowForced, Speed: 1,
	}
	probe := setup
	if probe.App == "" {
		probe.App = "app"
	}
	return setup, probe.Validate()
}

func runWake(ctx context.Context, cmd *cobra.Command, p *platform, setup waketest.Setup, w *wakeFlags, stateDir func() (string, error)) error {
	stderr := cmd.ErrOrStderr()
	setup.App = p.app
	setup.Secrets = []string{p.token}
	if p.demo {
		setup.AppURL = p.sim.EdgeURL(p.app)
		setup.Speed = p.sim.Clock().Speed()
	}
	env := waketest.Env{API: p.source.Client, Now: p.source.Now}
	plan, err := waketest.Prepare(ctx, env, setup)
	if err != nil {
		return fmt.Errorf("preflight: %w", err)
	}
	writePlan(stderr, plan)
	if !w.yes {
		if err := confirm(cmd.InOrStdin(), stderr, plan); err != nil {
			return err
		}
	}

	dir, dirErr := stateDir()
	if dirErr != nil {
		fmt.Fprintln(stderr, "flywake: the result will not be saved:", dirErr)
	}
	var previous *waketest.Report
	if dir != "" {
		previous, _, _ = waketest.LoadLast(dir, p.app)
	}

	progress := newWakeProgress(stderr)
	report, runErr := plan.Run(ctx, progress.event)
	if report == nil {
		return runErr
	}
	if dir != "" {
		if path, err := report.Save(dir, time.Now()); err != nil {
			fmt.Fprintln(stderr, "flywake: could not save the result:", err)
		} else {
			fmt.Fprintln(stderr, "saved", path)
		}
	}
	out := cmd.OutOrStdout()
	if w.asJSON {
		b, err := report.Encode()
		if err != nil {
			return err
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	} else {
		writeWakeText(out, report, previous)
	}
	return runErr
}

// writePlan says what the test is about to do.
func writePlan(w io.Writer, p *waketest.Plan) {
	fmt.Fprintf(w, "wake test of %s (%s): %d requests to %s%s\n", p.Setup.App, p.Setup.Mode, p.Requests, p.URL, p.Path)
	// One aligned row per target: id, region, state, then what blocks
	// suspend; tabwriter leaves a line's last cell unpadded, so a row
	// without blockers ends at its state.
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range p.Targets {
		region := t.Region
		if region == "" {
			region = "-" // the API gave none
		}
		row := "  " + t.ID + "\t" + region + "\t" + t.State
		if len(t.Blockers) > 0 {
			row += "\tsuspend blocked by " + strings.Join(t.Blockers, ", ")
		}
		fmt.Fprintln(tw, row)
	}
	_ = tw.Flush()
	if len(p.Kept) > 0 {
		fmt.Fprintf(w, "  kept running (min_machines_running): %s\n", strings.Join(p.Kept, ", "))
	}
	for _, warn := range p.Warnings {
		fmt.Fprintln(w, "  warning:", warn)
	}
	if advice := p.WakeAdvice(p.Requests); advice != "" {
		fmt.Fprintln(w, "  warning:", advice)
	}
}

// confirm asks y/N on stderr; without a terminal it refuses.
func confirm(in io.Reader, w io.Writer, p *waketest.Plan) error {
	verb := map[waketest.Mode]string{waketest.ModeStop: "stop", waketest.ModeSuspend: "suspend", waketest.ModeBoth: "stop, then suspend,"}[p.Setup.Mode]
	if !isTerminal(in) {
		return fmt.Errorf("the wake test would %s %d machines of %s; there is no terminal to confirm on — pass --yes to run it",
			verb, len(p.Targets), p.Setup.App)
	}
	q := prompt.Question{Text: fmt.Sprintf("This will %s %d machines of %s (%s). Continue?", verb, len(p.Targets), p.Setup.App,
		strings.Join(p.TargetIDs(), ", "))}
	fmt.Fprint(w, q.Line())
	line, _ := bufio.NewReader(in).ReadString('\n')
	if prompt.Yes(line) {
		return nil
	}
	return errors.New("not confirmed; nothing was changed")
}

// wakeProgress prints the test's steps on stderr.
type wakeProgress struct {
	w        io.Writer
	lastTick int
}

func newWakeProgress(w io.Writer) *wakeProgress { return &wakeProgress{w: w} }

func (p *wakeProgress) event(e waketest.Event) {
	switch e.Kind {
	case waketest.EventPhase:
		fmt.Fprintf(p.w, "[%s] %s\n", e.Mode, e.Text)
		p.lastTick = 0
	case waketest.EventSuspendRefused:
		fmt.Fprintf(p.w, "[%s] %s: suspend refused: %s — stopping it instead\n", e.Mode, e.Machine, e.Text)
	case waketest.EventMachineStarted:
		fmt.Fprintf(p.w, "[%s] %s at %s\n", e.Mode, e.Text, waketest.FormatMS(e.At))
	case waketest.EventMachineServing:
		fmt.Fprintf(p.w, "[%s] %s first served at %s\n", e.Mode, e.Machine, waketest.FormatMS(e.At))
	case waketest.EventRequest:
		pr := e.Progress
		step := max(pr.Planned/4, 1)
		if pr.Done == pr.Planned || pr.Done-p.lastTick >= step {
			p.lastTick = pr.Done
			fmt.Fprintf(p.w, "[%s] requests %d/%d done: %d ok, %d failed\n", e.Mode, pr.Done, pr.Planned, pr.OK, pr.Failed)
		}
	case waketest.EventRunDone:
		fmt.Fprintf(p.w, "[%s] %s\n", e.Mode, e.Text)
	}
}

// writeWakeText prints the side-by-side table and what the reader must know.
func writeWakeText(w io.Writer, r *waketest.Report, previous *waketest.Report) {
	fmt.Fprintf(w, "wake test of %s, release %s, %s%s (times are platform time, speed %g)\n", r.App, words.Release(r.Release), r.URL, r.Path, r.Speed)
	if !r.Representative {
		fmt.Fprintln(w, "NOT REPRESENTATIVE: every request was pinned with fly-force-instance-id, a path no user takes")
	}
	if ok, because, fix := r.Comparison(); !ok {
		for _, why := range because {
			fmt.Fprintln(w, "NOT COMPARABLE:", why)
		}
		if fix != "" {
			fmt.Fprintln(w, "to compare them:", fix)
		}
	}
	header, rows := waketest.Table(r.Runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, row := range rows {
		fmt.Fprintln(tw, row.Label+"\t"+strings.Join(row.Cells, "\t"))
	}
	tw.Flush()
	for _, run := range r.Runs {
		for _, n := range run.Notes {
			fmt.Fprintf(w, "note (%s): %s\n", run.Mode, n)
		}
		for _, id := range run.WokenUnserved {
			fmt.Fprintf(w, "note (%s): %s woke but served none of our requests (other traffic woke it, or it was still booting when ours gave up)\n", run.Mode, id)
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintln(w, "warning:", warn)
	}
	if r.Aborted {
		fmt.Fprintln(w, "ABORTED: machines were left as last seen:")
		if len(r.Runs) > 0 {
			for _, m := range lastRunWithMachines(r).Machines {
				if m.Target {
					fmt.Fprintf(w, "  %s %s\n", m.ID, m.After)
				}
			}
		}
	}
	if previous != nil {
		for _, run := range previous.Runs {
			mark := ""
			if run.Coverage().Absorbed() {
				mark = " (not comparable)"
			}
			fmt.Fprintf(w, "previous test (saved %s, release %s): %s%s %d ok / %d failed, p95 %s, first 200 %s\n",
				previous.SavedWhen(), words.Release(previous.Release), run.Mode, mark, run.OK, run.Failed,
				waketest.FormatMS(run.P95MS), waketest.FormatMS(run.First200MS))
		}
	}
}

func lastRunWithMachines(r *waketest.Report) waketest.Run {
	for i := len(r.Runs) - 1; i >= 0; i-- {
		if len(r.Runs[i].Machines) > 0 {
			return r.Runs[i]
		}
	}
	return r.Runs[0]
}
