// Package uitest holds what the panes' tests share: a pinned colour profile
// and the exact-size check every View must pass. Import it from tests only.
package uitest

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// Sizes are the terminal sizes a pane's View is checked at, tiny ones included.
var Sizes = [][2]int{{1, 1}, {2, 1}, {5, 2}, {20, 3}, {20, 5}, {30, 8}, {40, 10}, {60, 16}, {80, 24}, {100, 30}, {120, 40}, {160, 48}}

// PinColorProfile renders colours as 256-colour SGR for the test, so
// assertions and goldens do not depend on the terminal running the tests.
func PinColorProfile(t *testing.T) {
	t.Helper()
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
}

// AssertSize fails unless out is exactly w cells wide on every one of its h lines.
func AssertSize(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("%d×%d: %d lines:\n%s", w, h, len(lines), ansi.Strip(out))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("%d×%d: line %d is %d wide: %q", w, h, i, got, ansi.Strip(l))
		}
	}
}

// AssertMentions fails for every string of want missing from out and every
// string of notWant present in it, showing out once per failure.
func AssertMentions(t *testing.T, out string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
	for _, w := range notWant {
		if strings.Contains(out, w) {
			t.Errorf("unexpected %q in\n%s", w, out)
		}
	}
}

var specialKeys = map[string]tea.KeyType{
	"ctrl+c": tea.KeyCtrlC, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
	"enter": tea.KeyEnter, "esc": tea.KeyEsc, "ctrl+u": tea.KeyCtrlU, "ctrl+d": tea.KeyCtrlD,
}

// Key is the tea.KeyMsg a terminal delivers for a key name ("enter",
// "pgdown", "shift+tab", or the typed text itself, e.g. "j" or "S").
func Key(name string) tea.KeyMsg {
	if t, ok := specialKeys[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// Sized is what View needs of a pane (pane.Pane has both methods).
type Sized interface {
	SetSize(width, height int)
	View(focused bool, now time.Time) string
}

// View sizes p to w×h, as the root's layout does, and draws it.
func View(p Sized, w, h int, focused bool, now time.Time) string {
	p.SetSize(w, h)
	return p.View(focused, now)
}
