package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
)

// runCommand runs c as a subcommand of a fresh root, as flywake would.
func runCommand(t *testing.T, g *globalFlags, c command, args ...string) (stderr string, code int) {
	t.Helper()
	root := &cobra.Command{Use: "flywake", SilenceUsage: true, SilenceErrors: true}
	g.bind(root.PersistentFlags())
	root.AddCommand(&cobra.Command{Use: c.name, RunE: g.runE(c)})
	var out, errOut bytes.Buffer
	root.SetArgs(append([]string{c.name}, args...))
	root.SetOut(&out)
	root.SetErr(&errOut)
	code = execute(root, &errOut)
	return errOut.String(), code
}

// A panic in any command ends in a short, redacted report and the
// command's own "could not run" exit code, never in a raw stack; the debug
// log gets the stack, redacted too.
func TestPanicBecomesReport(t *testing.T) {
	t.Parallel()
	// One platform (without its day of traffic: the commands panic before
	// reading anything) for the three commands, its token the canary.
	sim := simtest.StartSim(t, flysim.Options{Seed: 1, Token: secretsCanary, NoTraffic: true})
	env := simEnv(t, sim, secretsCanary)
	debugFile := filepath.Join(t.TempDir(), "debug.log")
	for _, tc := range []struct {
		name string
		code int
	}{{"check", checklist.ExitCannotCheck}, {"wake", 1}, {"status", 1}} {
		c := command{name: tc.name, cannotRun: tc.code, needs: oneApp,
			run: func(_ context.Context, _ *cobra.Command, p *platform) error {
				var m map[string]int
				explode(m, p.token) // a nil-map write: a runtime panic, as a bug would cause
				return nil
			},
		}
		stderr, code := runCommand(t, &globalFlags{getenv: lookup(env)}, c, "-a", flysim.DemoTuned, "--debug", debugFile)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d", tc.name, code, tc.code)
		}
		for _, want := range []string{"internal error: flywake " + tc.name, "version " + version, "crashed at cmd/flywake.explode", "--debug FILE"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: report lacks %q:\n%s", tc.name, want, stderr)
			}
		}
		if strings.Contains(stderr, "goroutine ") {
			t.Errorf("%s: a raw stack in the report:\n%s", tc.name, stderr)
		}
		assertNoSecret(t, tc.name+": stderr", stderr)
	}
	log, err := os.ReadFile(debugFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "panic: ") || !strings.Contains(string(log), "goroutine ") {
		t.Errorf("the debug log lacks the panic and its stack:\n%s", log)
	}
	assertNoSecret(t, "debug log", string(log))
}

//go:noinline
func explode(m map[string]int, token string) { m[token] = 1 }

func TestErrorsAreRedactedAndCoded(t *testing.T) {
	isolateEnv(t)
	c := command{name: "check", cannotRun: checklist.ExitCannotCheck, needs: oneApp,
		run: func(_ context.Context, _ *cobra.Command, p *platform) error {
			return errors.New("the API said: bad token " + p.token)
		}}
	stderr, code := runCommand(t, &globalFlags{}, c, "--demo")
	if code != checklist.ExitCannotCheck || !strings.Contains(stderr, "flywake: the API said: bad token [REDACTED]") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	assertNoSecret(t, "stderr", stderr)
	c.needs = noPlatform
	c.run = func(context.Context, *cobra.Command, *platform) error { return exitWith(checklist.ExitWarnings) }
	if stderr, code := runCommand(t, &globalFlags{}, c); code != checklist.ExitWarnings || stderr != "" {
		t.Errorf("a result code: exit %d, stderr %q", code, stderr)
	}
}

// A command's failure quotes what the user gave it (an app name, a path)
// inert: the clear-screen and clipboard sequences in it reach stderr as
// text.
func TestErrorsQuoteInert(t *testing.T) {
	isolateEnv(t)
	hostile := "evil\x1b[2J\x1b]52;c;UFdO\x07"
	c := command{name: "status", cannotRun: 1, needs: noPlatform,
		run: func(context.Context, *cobra.Command, *platform) error {
			return errors.New(hostile + ": list machines of " + hostile + "\nsecond line")
		}}
	stderr, _ := runCommand(t, &globalFlags{}, c)
	if strings.ContainsAny(stderr, "\x1b\x07") || !strings.Contains(stderr, "evil␛[2J") || !strings.Contains(stderr, "\nsecond line") {
		t.Errorf("stderr %q: want the sequences inert and the lines kept", stderr)
	}
}

// Usage errors exit 1 with the usage, for every command: check's 3 means
// "could not check", which CI must be able to tell from a typo.
func TestUsageErrorsExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"check", "--no-such-flag"}, 1},
		{[]string{"check", "--format", "yaml"}, 1},
		{[]string{"check", "--phase", "no-equals-sign"}, 1},
		{[]string{"verdict", "--release", "abc"}, 1},
		{[]string{"status", "--no-such-flag"}, 1},
		{[]string{"wake", "--mode", "sideways"}, 1},
		{[]string{"--no-such-flag"}, 1},
		{[]string{"no-such-command"}, 1},
	} {
		out, stderr, code := runFlywake(t, nil, tc.args...)
		if code != tc.code || !strings.HasPrefix(stderr, "flywake: ") || !strings.Contains(stderr, "\nUsage:\n") || out != "" {
			t.Errorf("%v: exit %d, want %d with the usage; stdout %q, stderr %q", tc.args, code, tc.code, out, stderr)
		}
	}
	if out, _, code := runFlywake(t, nil, "--version"); code != 0 || !strings.Contains(out, version) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}
