package checklist

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// walkthrough is the smallest root around the pane: it sizes it to the
// terminal and hands it every key, as the dashboard does when it is focused.
type walkthrough struct {
	p    *Pane
	w, h int
}

func (m *walkthrough) Init() tea.Cmd { return nil }

func (m *walkthrough) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = ws.Width, ws.Height
		return m, nil
	}
	return m, m.p.Update(msg)
}

func (m *walkthrough) View() string { return uitest.View(m.p, m.w, m.h, true, t0) }

// runWalkthrough steps onto release work and opens it in an 80×24
// terminal, then returns the final frame.
func runWalkthrough(t *testing.T, th *theme.Theme) string {
	t.Helper()
	tm := teatest.NewTestModel(t, &walkthrough{p: newPane(t, th, demoDay)}, teatest.WithInitialTermSize(80, 24))
	tm.Send(uitest.Key("n"))
	tm.Send(uitest.Key("enter"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("entrypoint.sh:6")) },
		teatest.WithDuration(5*time.Second))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(*walkthrough)
	if m.w != 80 || m.h != 24 {
		t.Fatalf("terminal is %d×%d, want 80×24", m.w, m.h)
	}
	// The final frame, not the renderer's byte stream: it does not depend
	// on how the frames were batched.
	out := m.View()
	uitest.AssertSize(t, out, 80, 24)
	return out
}

// TestWalkthroughGolden is the walkthrough at 80×24 with release work
// expanded, in colour (ANSI 256). Update with `go test -update`.
func TestWalkthroughGolden(t *testing.T) {
	uitest.PinColorProfile(t)
	out := runWalkthrough(t, theme.New(false))
	if !strings.Contains(out, "\x1b[") {
		t.Error("the colour frame has no styling")
	}
	golden.RequireEqual(t, []byte(out))
}

// TestWalkthroughGoldenNoColor: with NO_COLOR the statuses still read by
// glyph and word, and no colour code is written.
func TestWalkthroughGoldenNoColor(t *testing.T) {
	uitest.PinColorProfile(t)
	out := runWalkthrough(t, theme.New(true))
	for _, s := range sgrParams(out) {
		if isColourParam(s) {
			t.Fatalf("NO_COLOR frame sets a colour: SGR %q", s)
		}
	}
	text := plain(out)
	for _, w := range []string{"✗ fail", "! warn", "✓ pass", "? unknown", "6 of 8 checked",
		"3 fail · 1 warn · 2 pass · 2 unknown — `flywake check` would exit 2"} {
		if !strings.Contains(text, w) {
			t.Errorf("NO_COLOR frame lacks %q:\n%s", w, text)
		}
	}
	golden.RequireEqual(t, []byte(out))
}

var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// sgrParams lists every parameter of every SGR sequence in s.
func sgrParams(s string) []string {
	var out []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		out = append(out, strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' })...)
	}
	return out
}

// isColourParam: 30–38/40–48 (incl. 256 and true colour), 90–97, 100–107.
func isColourParam(p string) bool {
	n := 0
	for _, r := range p {
		n = n*10 + int(r-'0')
	}
	return (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107)
}
