package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/ui/app"
	"github.com/flywake/flywake/ui/theme"
)

// A recognisable token and the guest's secret env value: neither may reach
// a screen, an error, a report, a saved result or a log line.
const (
	secretsCanary = "flysim_CANARY_5e3f9a0c1d2b4e6f8a7c5b3d1e0f2a4c"
	guestSecret   = "flysim-secret-do-not-show"
)

// testEnv is isolateEnv as an environment of the test's own, for
// runFlywakeEnv: a variable not in it reads as unset. Tests that use it
// instead of t.Setenv run in parallel.
func testEnv(t *testing.T) map[string]string {
	t.Helper()
	return map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir(),
		"FLYWAKE_DEMO_TOKEN": secretsCanary}
}

// simEnv is testEnv with sim as the Fly platform and token as the user's,
// as simtest.UseAsFly sets them in the process's.
func simEnv(t *testing.T, sim *flysim.Sim, token string) map[string]string {
	t.Helper()
	env := testEnv(t)
	env["FLY_FLAPS_BASE_URL"], env["FLY_API_BASE_URL"] = sim.URL(), sim.URL()
	env["FLY_API_TOKEN"], env["FLY_ORG"] = token, sim.Org()
	return env
}

// lookup reads env as a command's environment (globalFlags.getenv).
func lookup(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

// isolateEnv points every place flywake reads credentials or writes state
// at the test, so nothing leaks in from (or out to) the machine running it.
func isolateEnv(t *testing.T) (state string) {
	t.Helper()
	state = t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no key file of the machine's
	t.Setenv("HOME", t.TempDir())
	for _, k := range []string{"FLY_ACCESS_TOKEN", "FLY_API_TOKEN", "FLY_APP", "FLY_ORG", "FLY_FLAPS_BASE_URL", "FLY_API_BASE_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("FLYWAKE_DEMO_TOKEN", secretsCanary)
	return state
}

func assertNoSecret(t *testing.T, where, text string) {
	t.Helper()
	for _, s := range []string{secretsCanary, strings.TrimPrefix(secretsCanary, "flysim_"), guestSecret} {
		if strings.Contains(text, s) {
			i := strings.Index(text, s)
			t.Errorf("%s holds a secret (%q…) at byte %d: …%s…", where, s[:12], i, text[max(i-60, 0):min(i+len(s)+20, len(text))])
		}
	}
}

// Every headless command, in every format, with the canary as the demo
// platform's token; the wake test's saved result too.
func TestSecretsStayOutOfCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("ten runs of status, check and wake on the demo: skipped under -short")
	}
	t.Parallel()
	env := testEnv(t)
	state := env["XDG_STATE_HOME"]
	runs := [][]string{
		{"status", "--demo", "--speed", "50", "-a", flysim.DemoScaleToZero},
		{"status", "--demo", "--speed", "50", "-a", flysim.DemoScaleToZero, "--json"},
		{"check", "--demo", "--speed", "50", "-a", flysim.DemoScaleToZero, "--format", "text"},
		{"check", "--demo", "--speed", "50", "-a", flysim.DemoScaleToZero, "--format", "markdown"},
		{"check", "--demo", "--speed", "50", "-a", flysim.DemoScaleToZero, "--format", "json"},
		{"wake", "--demo", "--speed", "30", "--seed", "3", "-a", flysim.DemoTuned, "--mode", "suspend", "--yes", "--json"},
		{"wake", "--demo", "--speed", "30", "--seed", "3", "-a", flysim.DemoTuned, "--mode", "suspend", "--yes"},
		// errors: an app the platform does not have
		{"status", "--demo", "-a", "no-such-app"},
		{"check", "--demo", "-a", "no-such-app", "--format", "json"},
		{"wake", "--demo", "-a", "no-such-app", "--yes"},
	}
	// Each run writes a debug log of its own under the state directory,
	// which the walk below reads like every other file flywake left there.
	// The runs go side by side, but for the two wake tests, one after the
	// other: each saves a result named by the wall clock's second.
	type result struct {
		out, errOut string
		code        int
	}
	results := make([]result, len(runs))
	var wg sync.WaitGroup
	var chains [][]int
	var saving []int // the wake tests that save a result
	for i, args := range runs {
		if args[0] == "wake" && !slices.Contains(args, "no-such-app") {
			saving = append(saving, i)
		} else {
			chains = append(chains, []int{i})
		}
	}
	for _, chain := range append(chains, saving) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range chain {
				debugLog := filepath.Join(state, fmt.Sprintf("debug-%d.log", i))
				r := &results[i]
				r.out, r.errOut, r.code = runFlywakeEnv(t, env, nil, append(runs[i], "--debug", debugLog)...)
			}
		}()
	}
	wg.Wait()
	for i, args := range runs {
		name := strings.Join(args, " ")
		out, errOut, code := results[i].out, results[i].errOut, results[i].code
		failed := code != 0 && code != checklist.ExitFailures // check exits 2 for failed items
		if strings.Contains(name, "no-such-app") != failed {
			t.Errorf("%s: exit %d (stderr %q)", name, code, errOut)
		}
		if len(out)+len(errOut) == 0 {
			t.Errorf("%s printed nothing: the test would prove nothing", name)
		}
		assertNoSecret(t, name+": stdout", out)
		assertNoSecret(t, name+": stderr", errOut)
	}
	var b []byte
	for i := range runs {
		log, err := os.ReadFile(filepath.Join(state, fmt.Sprintf("debug-%d.log", i)))
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, log...)
	}
	for _, want := range []string{"api GET /v1/apps/" + flysim.DemoScaleToZero + "/machines → 200 in ",
		"api GET /v1/apps/" + flysim.DemoTuned + "/machines → 200 in ", "exit 1: ", "exit 2"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the debug log lacks %q", want)
		}
	}
	files, _ := filepath.Glob(filepath.Join(state, "flywake", "wake", "*.json"))
	if len(files) != 2 {
		t.Fatalf("saved wake results %v, want 2", files)
	}
	// Everything flywake left under its state directory (results, logs).
	_ = filepath.Walk(state, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		assertNoSecret(t, path, string(b))
		if strings.Contains(strings.ToLower(string(b)), "authorization") {
			t.Errorf("%s records an Authorization header", path)
		}
		return nil
	})
}

// A real (non-demo) set-up whose token the platform refuses (401), and one
// whose app does not exist: the errors say what to do, never the token.
func TestSecretsStayOutOfErrors(t *testing.T) {
	t.Parallel()
	sim := simtest.StartSim(t, flysim.Options{Seed: 1, Speed: 50, Token: "flysim_the_right_token_0123456789", NoTraffic: true})
	env := simEnv(t, sim, secretsCanary) // wrong for this platform: 401
	for _, args := range [][]string{
		{"status", "-a", flysim.DemoScaleToZero},
		{"status", "-a", flysim.DemoScaleToZero, "--json"},
		{"check", "-a", flysim.DemoScaleToZero, "--format", "json"},
		{"wake", "-a", flysim.DemoTuned, "--yes", "--url", sim.EdgeURL(flysim.DemoTuned)},
	} {
		name := "wrong token: " + strings.Join(args, " ")
		out, errOut, code := runFlywakeEnv(t, env, nil, args...)
		if code == 0 || !strings.Contains(out+errOut, "refused the token") {
			t.Errorf("%s: exit %d, output %q %q; want the 401 explained", name, code, out, errOut)
		}
		assertNoSecret(t, name+": stdout", out)
		assertNoSecret(t, name+": stderr", errOut)
	}

	// The same canary as a good token, naming an app the org lacks.
	sim2 := simtest.StartSim(t, flysim.Options{Seed: 1, Speed: 50, Token: secretsCanary, NoTraffic: true})
	out, errOut, code := runFlywakeEnv(t, simEnv(t, sim2, secretsCanary), nil, "status", "-a", "no-such-app")
	if code == 0 || !strings.Contains(out+errOut, "not found") {
		t.Errorf("unknown app: exit %d, output %q %q", code, out, errOut)
	}
	assertNoSecret(t, "unknown app: stdout", out)
	assertNoSecret(t, "unknown app: stderr", errOut)
}

// The TUI on the demo platform with the canary token: every byte it drew —
// panes, help, the checklist, the machine drill-down, the app switcher and
// the refusal of an unknown app's name — is free of both secrets.
func TestSecretsStayOffTheScreen(t *testing.T) {
	t.Parallel()
	g := &globalFlags{demo: true, speed: 20, seed: 1, app: flysim.DemoScaleToZero, getenv: lookup(testEnv(t))}
	p, err := connect(context.Background(), g, connectNeeds{org: true}, &session{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	if p.sim.Token() != secretsCanary {
		t.Fatal("FLYWAKE_DEMO_TOKEN did not set the demo platform's token")
	}
	m := app.New(app.Config{Source: p.source, App: p.app, Demo: true, Theme: theme.New(false),
		Project: func(a string) (*repo.Project, []error) { return loadProject("", p.demo, a) }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	var screen strings.Builder
	waitScreen := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			screen.Write(b)
			return strings.Contains(screen.String(), what)
		}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	key := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	special := func(k tea.KeyType) { tm.Send(tea.KeyMsg{Type: k}) }

	waitScreen("of 10")
	key("?")
	waitScreen("help")
	key("?")
	special(tea.KeyEnter) // drill into the selected machine
	for range 3 {         // every pane in turn
		special(tea.KeyTab)
	}
	key("c")
	waitScreen("Pre-deploy checklist")
	special(tea.KeyEsc)
	key(":")
	waitScreen("backlog-web  crashy-api") // the org's apps listed: a name typed before them is tried as typed
	for _, r := range "no-such-app" {
		key(string(r))
	}
	special(tea.KeyEnter)
	waitScreen("no app or command matches") // the org's apps are known: refused in place
	special(tea.KeyEsc)
	key("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	rest, _ := io.ReadAll(tm.FinalOutput(t))
	screen.Write(rest)
	final := tm.FinalModel(t).(app.Model)
	if final.Err() != nil || final.AppName() == "no-such-app" {
		t.Errorf("a switch to an unknown app did not come back: app %q, error %v", final.AppName(), final.Err())
	}
	assertNoSecret(t, "the screen", screen.String())
	if screen.Len() < 10_000 {
		t.Errorf("only %d bytes drawn: the test saw too little to prove anything", screen.Len())
	}
}
