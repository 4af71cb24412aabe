package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/ui/app"
	"github.com/flywake/flywake/ui/theme"
)

// escapedTokens are flyctl-style tokens, each two macaroons; the platform
// writes one piece of the token (the whole, a macaroon, a macaroon without
// its prefix) into every machine name, check output and log line, each
// character a JSON \u escape, so the answer's bytes never hold it.
func escapedTokens(seed uint64) (token string, pieces []string) {
	rng := rand.New(rand.NewPCG(seed, 25))
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	mac := func() string {
		var b strings.Builder
		b.WriteString("fm2_lJPE")
		for range 40 + rng.IntN(40) {
			b.WriteByte(b64[rng.IntN(len(b64))])
		}
		return b.String() + "=="
	}
	one, two := mac(), mac()
	token = "FlyV1 " + one + "," + two
	return token, []string{token, one, strings.TrimPrefix(two, "fm2_")}
}

// tokenLeaks names where a piece of the token shows: its first 12 bytes
// after "fm2_" are enough to give it away.
func tokenLeaks(t *testing.T, where, text, token string) {
	t.Helper()
	for _, mac := range strings.Split(strings.TrimPrefix(token, "FlyV1 "), ",") {
		body := strings.TrimPrefix(mac, "fm2_")
		if i := strings.Index(text, body[:12]); i >= 0 {
			t.Errorf("%s shows the token: …%s…", where, text[max(i-40, 0):min(i+60, len(text))])
		}
	}
}

// The property: whichever piece of the token the platform's text carries,
// written as JSON escapes, no command in any format, no debug log line and
// no dashboard frame shows it.
func TestEscapedTokenIsNowhere(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		// What it proves is in the bytes printed, which the detector does
		// not change; the same commands run under it in the tests beside
		// this one. Under it this one took over four minutes of CI.
		t.Skip("a property of the output, proven without -race")
	}
	seeds := uint64(3)
	if testing.Short() {
		seeds = 1
	}
	for seed := range seeds {
		token, pieces := escapedTokens(seed)
		piece := pieces[seed%uint64(len(pieces))]
		t.Run(fmt.Sprint("piece", seed), func(t *testing.T) {
			t.Parallel()
			// The platform accepts the first macaroon; flywake holds the whole.
			sim := simtest.StartSim(t, flysim.Options{Seed: 1, Speed: 50, Token: pieces[1]})
			env := simEnv(t, sim, token)
			sim.SetFault("*", flysim.Fault{Hostile: "-" + piece, EscapeHostile: true})
			debugLog := filepath.Join(t.TempDir(), "debug.log")
			for _, args := range [][]string{
				{"status", "-a", flysim.DemoScaleToZero},
				{"status", "-a", flysim.DemoScaleToZero, "--json"},
				{"check", "-a", flysim.DemoScaleToZero},
				{"check", "-a", flysim.DemoScaleToZero, "--format", "markdown"},
				{"check", "-a", flysim.DemoScaleToZero, "--format", "json"},
				{"verdict", "-a", flysim.DemoScaleToZero, "--timeout", "3s", "--settle", "1s", "--format", "json"},
				{"verdict", "-a", flysim.DemoScaleToZero, "--timeout", "3s", "--settle", "1s", "--format", "markdown"},
			} {
				name := strings.Join(args, " ")
				out, errOut, _ := runFlywakeEnv(t, env, nil, append(args, "--debug", debugLog)...)
				if !strings.Contains(out+errOut, "[REDACTED]") && strings.HasPrefix(name, "status") {
					t.Errorf("%s shows no machine name redacted: the platform's text did not reach it\n%.3000s", name, out)
				}
				tokenLeaks(t, name, out+errOut, token)
			}
			b, err := os.ReadFile(debugLog)
			if err != nil {
				t.Fatal(err)
			}
			tokenLeaks(t, "the debug log", string(b), token)
			if seed == 0 { // the views read the same model: one token's worth
				tokenLeaks(t, "the dashboard", dashboardScreen(t, env), token)
			}
		})
	}
}

// dashboardScreen is every byte the dashboard draws while it shows the
// machines, a drill-down, the logs view and a machine's describe view.
func dashboardScreen(t *testing.T, env map[string]string) string {
	t.Helper()
	g := &globalFlags{app: flysim.DemoScaleToZero, getenv: lookup(env)}
	p, err := connect(context.Background(), g, connectNeeds{org: true}, &session{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	m := app.New(app.Config{Source: p.source, App: p.app, Theme: theme.New(true)})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 50))
	var screen strings.Builder
	wait := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			screen.Write(b)
			return strings.Contains(screen.String(), what)
		}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	key := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	wait("of 10")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	wait("esc back")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	key("d")
	wait(`"name":`)
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	key("l")
	wait("ms-[REDACTED]") // an access log line of the logs view
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	key("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	rest, _ := io.ReadAll(tm.FinalOutput(t))
	screen.Write(rest)
	return screen.String()
}
