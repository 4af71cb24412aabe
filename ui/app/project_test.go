package app

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/panes/checklist"
	"github.com/flywake/flywake/ui/theme"
)

// The project files are read in a command, never in Update: a loader that
// blocks (a FIFO, a stuck mount) leaves the dashboard responsive, and the
// checklist gets the files when they arrive.
func TestProjectFilesLoadOutsideUpdate(t *testing.T) {
	release := make(chan struct{})
	loads := 0
	cfg := Config{
		Source: &watch.Source{Org: "org", Now: func() time.Time { return t0 }},
		App:    "app-a", Theme: theme.New(true),
		Project: func(app string) (*repo.Project, []error) {
			loads++
			<-release
			return &repo.Project{}, nil
		},
	}
	m := New(cfg)
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = send(m, runes("c")) // opens the checklist; must not block
	if loads != 0 {
		t.Fatal("the project was read while building the model or in Update")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "reading the project files") {
		t.Fatalf("the checklist does not say the files are on their way:\n%s", v)
	}
	if len(m.pending) != 1 {
		t.Fatalf("%d pending commands, want the project load", len(m.pending))
	}
	cmd := m.pending[0]
	close(release)
	msg := cmd()
	if loads != 1 {
		t.Fatalf("%d loads", loads)
	}
	m = send(m, msg)
	if v := ansi.Strip(m.View()); strings.Contains(v, "reading the project files") {
		t.Fatalf("the checklist still waits after the files arrived:\n%s", v)
	}
}

func TestProjectLoadHasADeadline(t *testing.T) {
	old := projectTimeout
	projectTimeout = 50 * time.Millisecond
	t.Cleanup(func() { projectTimeout = old })
	block := make(chan struct{})
	defer close(block)
	cmd := projectCmd(t.Context(), func(string) (*repo.Project, []error) { <-block; return nil, nil }, "app")
	done := make(chan checklist.ProjectMsg, 1)
	go func() { done <- cmd().(checklist.ProjectMsg) }()
	select {
	case msg := <-done:
		if msg.Err == nil {
			t.Fatal("a load past its deadline reported no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the project load outlived its deadline")
	}
}
