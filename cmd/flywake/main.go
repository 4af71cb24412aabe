// Command flywake is a terminal dashboard for apps on Fly.io Machines: machine
// states, cold starts, swap, bytecode cache, crash loops, a suspend-vs-stop
// wake test through the public edge, and a pre-deploy checklist.
//
// This file holds flags and wiring only; the work lives in ui/ and sources/,
// and command.go runs every command the same way.
package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/waketest"
)

// version names this build in the User-Agent, --version and crash reports
// (set with -ldflags "-X main.version=…").
var version = "0.1"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is the whole process: it parses args, runs one command and returns the
// exit code. Tests call it as main would.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(nil, args, stdin, stdout, stderr)
}

// runEnv is run with the environment getenv reads (nil: the process's),
// so that tests of commands against platforms of their own run side by side.
func runEnv(getenv func(string) string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(getenv)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return execute(root, stderr)
}

// globalFlags are accepted by every command.
type globalFlags struct {
	demo     bool
	app      string
	org      string
	speed    float64
	seed     uint64
	readonly bool
	dir      string
	debug    string // --debug FILE: the debug log, "" for none
	frozen   bool   // set by a oneLook command (status): the demo platform's clock stands still
	tui      bool   // set by the dashboard: a replay's clock is the time bar's
	command  string // the command running ("" the dashboard), for what a replay allows it
	replay   string // --replay FILE: a recording served as the platform ("--demo": the demo's)
	at       string // --at TIME: the replayed instant
	// Checklist thresholds, shared by `check` and the dashboard's checklist.
	proxyPatience time.Duration
	cdnTimeout    time.Duration
	// Boot phase markers of the user's own entrypoint, NAME=REGEX.
	phases, releasePhases []string
	// getenv is the environment the command reads; nil: the process's.
	getenv func(string) string
}

// env is the command's environment variable key.
func (g *globalFlags) env(key string) string {
	if g.getenv != nil {
		return g.getenv(key)
	}
	return os.Getenv(key)
}

// wakeDir is where wake test results are kept, in the command's
// environment (waketest.UserStateDir for the process's).
func (g *globalFlags) wakeDir() (string, error) {
	if g.getenv == nil {
		return waketest.UserStateDir()
	}
	if dir := waketest.StateDir(g.getenv, g.homeDir()); filepath.IsAbs(dir) {
		return dir, nil
	}
	return "", errors.New("no directory for wake test results: set XDG_STATE_HOME or HOME")
}

// homeDir is the user's home directory, "" when there is none.
func (g *globalFlags) homeDir() string {
	if g.getenv != nil {
		return g.getenv("HOME")
	}
	home, _ := os.UserHomeDir()
	return home
}

// markers are the boot phase markers: the user's first, then the defaults.
func (g *globalFlags) markers() ([]diagnose.Marker, error) {
	var user []diagnose.Marker
	for _, group := range []struct {
		specs   []string
		release bool
	}{{g.phases, false}, {g.releasePhases, true}} {
		for _, spec := range group.specs {
			m, err := diagnose.ParseMarker(spec, group.release)
			if err != nil {
				return nil, err
			}
			user = append(user, m)
		}
	}
	return diagnose.WithMarkers(user), nil
}

func (g *globalFlags) checkOptions() checklist.Options {
	return checklist.Options{ProxyPatience: g.proxyPatience, CDNOriginTimeout: g.cdnTimeout}
}

func newRootCmd(getenv func(string) string) *cobra.Command {
	g := &globalFlags{getenv: getenv}
	var view string
	root := &cobra.Command{
		Use:   "flywake",
		Short: "A terminal dashboard for apps on Fly.io Machines",
		Long: `flywake shows what each Fly Machine of an app is doing: its state, how long
its boots take and which phase dominates, the swap it has versus uses, whether
its image caches Python bytecode, and whether the current release is
crash-looping.

  flywake --demo          the dashboard on an embedded Fly platform (no account, no network)
  flywake -a APP          the dashboard for a real app (token: FLY_ACCESS_TOKEN,
                          FLY_API_TOKEN or ~/.fly/config.yml; app: -a, FLY_APP or fly.toml)
  flywake -a APP --view logs
                          open straight on a view of the app: logs, checklist, wake
                          (the wake test's setup), overview (every app) or machines
  flywake verdict -a APP  after ` + "`fly deploy`" + `: exit 0 live, 2 failed (roll back), 3 could not judge`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE:          g.runE(dashboardCommand(g, &view)),
	}
	g.bind(root.PersistentFlags())
	root.Flags().StringVar(&view, "view", "", "open on this view: machines (the dashboard), logs, checklist, wake (the wake test's setup) or overview (every app of the org)")
	root.AddCommand(newSimCmd(g), newStatusCmd(g), newCheckCmd(g), newWakeCmd(g), newVerdictCmd(g), newDeployCmd(g), newRecordCmd(g))
	return root
}

// bind declares the global flags on pf.
func (g *globalFlags) bind(pf *pflag.FlagSet) {
	pf.BoolVar(&g.demo, "demo", false, "run against a fresh embedded Fly platform (no account, no network)")
	pf.StringVarP(&g.app, "app", "a", "", "app name (default: FLY_APP, then app in ./fly.toml)")
	pf.StringVar(&g.org, "org", "", "organization slug (default: FLY_ORG, then the app's org)")
	pf.Float64Var(&g.speed, "speed", 1, "with --demo: run the platform's clock this many times faster than wall time; with --replay: the time bar's first playing speed")
	pf.Uint64Var(&g.seed, "seed", 1, "with --demo: seed for boot times and traffic, so runs reproduce")
	pf.BoolVar(&g.readonly, "readonly", false, "remove every action that changes machines (stop, suspend, start, wake test, demo deploy)")
	pf.StringVar(&g.dir, "dir", "", "project directory the checklist reads: fly.toml, Dockerfile, .dockerignore, entrypoint (default: current directory; with --demo, the demo app's own)")
	pf.DurationVar(&g.proxyPatience, "proxy-patience", 30*time.Second, "checklist: how long the edge holds a request for a waking machine")
	pf.DurationVar(&g.cdnTimeout, "cdn-timeout", 0, "checklist: origin timeout of a CDN in front of the app (0: none)")
	pf.StringArrayVar(&g.phases, "phase", nil, "boot phase marker of your entrypoint, NAME=REGEX matched against app log lines (repeatable)")
	pf.StringArrayVar(&g.releasePhases, "release-phase", nil, "like --phase, for work that belongs to a deploy (migrations, asset builds): flagged when it runs on every boot")
	pf.StringVar(&g.replay, "replay", "", "answer from a recording (flywake record) instead of a platform: the dashboard, status, verdict and check as they were; --replay --demo opens the demo's day")
	pf.StringVar(&g.at, "at", "", "with --replay: the instant to open at (2026-03-01T03:12:00Z, 2026-03-01 03:12, 03:12, -2h, start; default: the recording's end)")
	pf.StringVar(&g.debug, "debug", "", "append a debug log to FILE: every API call (method, path, status, duration), retries and errors; the token is redacted (attach it to a problem report)")
}
