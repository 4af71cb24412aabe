package wake

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// host is the smallest root around the pane: it opens it, sizes it to the
// terminal and hands it every message, as the dashboard does an overlay.
type host struct {
	p    *Pane
	w, h int
}

func (m *host) Init() tea.Cmd { return m.p.Open() }

func (m *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
		m.p.SetSize(ws.Width, ws.Height)
		return m, nil
	}
	return m, m.p.Update(msg)
}

func (m *host) View() string { return uitest.View(m.p, m.w, m.h, true, t0) }

// frameAfter drives the pane in an 80×24 terminal: keys, each after the
// output shows its marker, then the final frame once it shows last.
func frameAfter(t *testing.T, th *theme.Theme, r Runner, steps []struct{ wait, key string }, last string) string {
	t.Helper()
	tm := teatest.NewTestModel(t, &host{p: newTestPane(t, th, r, false)}, teatest.WithInitialTermSize(80, 24))
	waitFor := func(s string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	for _, s := range steps {
		waitFor(s.wait)
		tm.Send(uitest.Key(s.key))
	}
	waitFor(last)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(*host)
	out := m.View()
	lines := strings.Split(out, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 80 {
			t.Errorf("line %d is %d cells wide: %q", i, w, ansi.Strip(l))
		}
	}
	return out
}

type steps = []struct{ wait, key string }

func TestSetupGolden(t *testing.T) {
	uitest.PinColorProfile(t)
	out := frameAfter(t, theme.New(false), &fakeRunner{}, nil, "TARGETS")
	for _, w := range []string{"148e3d5f2a9c01", "blocked: swap (512 MB)", "kept running (min_machines_running): 0a1b2c3d4e5f60", "/healthz"} {
		if !strings.Contains(ansi.Strip(out), w) {
			t.Errorf("setup lacks %q", w)
		}
	}
	golden.RequireEqual(t, []byte(out))
}

func TestLiveGolden(t *testing.T) {
	uitest.PinColorProfile(t)
	r := &fakeRunner{events: suspendEvents(), block: true, aborted: abortedReport()}
	out := frameAfter(t, theme.New(false), r, steps{{"TARGETS", "2"}, {"to suspend", "enter"}, {"y/N", "y"}}, "18/40 answered")
	for _, w := range []string{"suspend run", "200×16 502×1 timeout×1", "LATENCY", "WAKE TIMELINE", "serving 460ms"} {
		if !strings.Contains(ansi.Strip(out), w) {
			t.Errorf("live view lacks %q", w)
		}
	}
	golden.RequireEqual(t, []byte(out))
}

func TestComparisonGolden(t *testing.T) {
	uitest.PinColorProfile(t)
	r := &fakeRunner{report: bothReport()}
	out := frameAfter(t, theme.New(false), r, steps{{"TARGETS", "enter"}, {"y/N", "y"}}, "started → serving")
	for _, w := range []string{"stop", "suspend", "26.4s / 30.1s / 30.2s", "420ms / 880ms / 910ms"} {
		if !strings.Contains(ansi.Strip(out), w) {
			t.Errorf("comparison lacks %q", w)
		}
	}
	golden.RequireEqual(t, []byte(out))
}
