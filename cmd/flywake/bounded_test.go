package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/ui/app"
	"github.com/flywake/flywake/ui/theme"
)

// A 50 MB error page from the platform (every Machines API call answered
// 500 with it, the logs and metrics APIs too) is quoted, never copied:
// stderr, stdout (check's and verdict's reports in each format) and the
// --debug log each hold less than 4 KB of it.
func TestHugeErrorBodyIsQuotedEverywhere(t *testing.T) {
	t.Parallel()
	sim := simtest.StartSim(t, flysim.Options{Seed: 1, Speed: 50, Token: secretsCanary, NoTraffic: true})
	env := simEnv(t, sim, secretsCanary)
	page := "<html>" + strings.Repeat("x", 50<<20) + "</html>"
	sim.SetFault("*", flysim.Fault{Body: page, Status: 500})
	debugLog := filepath.Join(t.TempDir(), "debug.log")
	quoted := regexp.MustCompile(`x{64,}`) // the page's own bytes, however they are cut
	for _, args := range [][]string{
		{"status", "-a", flysim.DemoScaleToZero},
		{"status", "-a", flysim.DemoScaleToZero, "--json"},
		{"status"},
		{"check", "-a", flysim.DemoScaleToZero},
		{"check", "-a", flysim.DemoScaleToZero, "--format", "json"},
		{"check", "-a", flysim.DemoScaleToZero, "--format", "markdown"},
		{"verdict", "-a", flysim.DemoScaleToZero, "--timeout", "4s", "--settle", "1s"},
		{"verdict", "-a", flysim.DemoScaleToZero, "--timeout", "4s", "--settle", "1s", "--format", "json"},
	} {
		name := strings.Join(args, " ")
		out, errOut, code := runFlywakeEnv(t, env, nil, append(args, "--debug", debugLog)...)
		if code == 0 {
			t.Errorf("%s: exit 0 with every API answering 500", name)
		}
		total := 0
		for _, m := range quoted.FindAllString(out+errOut, -1) {
			total += len(m)
		}
		if total == 0 {
			t.Errorf("%s quotes nothing of the error page: the test proves nothing\nstdout %.300s\nstderr %.300s", name, out, errOut)
		}
		if total >= 4<<10 || len(out)+len(errOut) > 64<<10 {
			t.Errorf("%s: %d bytes of the page quoted, %d bytes printed", name, total, len(out)+len(errOut))
		}
	}
	b, err := os.ReadFile(debugLog)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if n := len(strings.Join(quoted.FindAllString(line, -1), "")); n >= 4<<10 {
			t.Errorf("debug log line %d quotes %d bytes of the page", i+1, n)
		}
	}
	if len(b) > 1<<20 {
		t.Errorf("the debug log holds %d bytes", len(b))
	}
}

// The dashboard against the same platform: its header names the last
// error in a few hundred bytes, and no frame it draws holds 4 KB of the
// page.
func TestHugeErrorBodyInTheDashboardHeader(t *testing.T) {
	t.Parallel()
	sim := simtest.StartSim(t, flysim.Options{Seed: 1, Speed: 50, Token: secretsCanary, NoTraffic: true})
	sim.SetFault("*", flysim.Fault{Body: "<html>" + strings.Repeat("x", 50<<20) + "</html>", Status: 500})
	g := &globalFlags{app: flysim.DemoScaleToZero, getenv: lookup(simEnv(t, sim, secretsCanary))}
	p, err := connect(context.Background(), g, connectNeeds{org: true}, &session{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	m := app.New(app.Config{Source: p.source, App: p.app, Theme: theme.New(true)})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(400, 40))
	var screen strings.Builder
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		screen.Write(b)
		return strings.Contains(screen.String(), "last error") && strings.Contains(screen.String(), "machines: 500 Internal Server Error")
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if last := p.source.Client.Stats().LastError; len(last) >= 1<<10 || !strings.Contains(last, "500") {
		t.Errorf("the header's last error: %d bytes (%.120s…)", len(last), last)
	}
	for _, run := range regexp.MustCompile(`x{64,}`).FindAllString(screen.String(), -1) {
		if len(run) >= 4<<10 {
			t.Fatalf("a frame holds %d bytes of the page", len(run))
		}
	}
}
