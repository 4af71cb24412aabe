package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/panes/wake"
	"github.com/flywake/flywake/ui/theme"
)

// A suspend wake test of the tuned demo app, driven by keys through the
// root model against a real flysim: every request is answered 200, and the
// report is saved to the state dir.
func TestWakeTestThroughTheDashboard(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	sim := flysim.New(flysim.Options{Seed: 1, Speed: 20})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	m := New(Config{
		Source: &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now},
		App:    flysim.DemoTuned, Demo: true, Theme: theme.New(true),
		EdgeURL: sim.EdgeURL, Speed: sim.Clock().Speed(), Secrets: []string{sim.Token()},
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	wait := func(s string, d time.Duration) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), s) },
			teatest.WithDuration(d), teatest.WithCheckInterval(20*time.Millisecond))
	}
	key := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	wait("Machines", 10*time.Second)
	key("w")
	wait("TARGETS", 10*time.Second)
	key("2")
	wait("machines to suspend", 10*time.Second)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	wait("machines of snappy-api:", 5*time.Second)
	key("y")
	wait("saved ", 90*time.Second)
	key("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)

	p := final.paneByID(wake.ID).(*wake.Pane)
	if p.Stage() != wake.StageDone {
		t.Fatalf("stage %s, want done", p.Stage())
	}
	rep := p.Report()
	if rep == nil || len(rep.Runs) != 1 || rep.Runs[0].Mode != waketest.ModeSuspend || rep.Aborted {
		t.Fatalf("report %+v", rep)
	}
	run := rep.Runs[0]
	if run.Requests < waketest.MinDefaultRequests || run.OK != run.Requests || len(run.Results) != run.Requests {
		t.Errorf("%d ok of %d, %d results (%v)", run.OK, run.Requests, len(run.Results), run.ByStatus)
	}
	for _, q := range run.Results {
		if q.Status != 200 {
			t.Errorf("request %d answered %d (%s)", q.Index, q.Status, q.ErrClass)
		}
	}
	if filepath.Dir(p.SavedPath()) != filepath.Join(state, "flywake", "wake") {
		t.Errorf("saved at %q, not under the state dir", p.SavedPath())
	}
	saved, err := os.ReadFile(p.SavedPath())
	if err != nil || strings.Contains(string(saved), sim.Token()) {
		t.Errorf("saved file: err %v, holds the token %v", err, strings.Contains(string(saved), sim.Token()))
	}
}

// In read-only mode w does nothing: the binding is off.
func TestWakeKeyOffWhenReadOnly(t *testing.T) {
	m := New(Config{App: "app", ReadOnly: true, Theme: theme.New(true)})
	m.width, m.height = 100, 30
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("w")})
	if nm := next.(Model); nm.open != nil {
		t.Error("w opened an overlay in read-only mode")
	}
	next, _ = New(Config{App: "app", Theme: theme.New(true)}).Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("w")})
	if nm := next.(Model); openOverlay(nm) != wake.ID {
		t.Error("w did not open the wake test")
	}
}

// A context a pane made for one command ends with the app generation's
// (an app switch, quitting), and on its own when the command is done.
func TestBoundEndsWithTheGeneration(t *testing.T) {
	gen, endGen := context.WithCancel(context.Background())
	ctx, done := bound(gen, context.Background())
	if ctx.Err() != nil {
		t.Fatal("ended before the generation did")
	}
	endGen()
	<-ctx.Done()
	other, done2 := bound(context.Background(), context.Background())
	done2()
	if other.Err() == nil {
		t.Error("done did not end the command's context")
	}
	done()
}
