// Package uitest holds what the UI's tests share: a pinned colour profile,
// the exact-size check every View must pass, the colour check of the
// NO_COLOR theme, and the keys a terminal delivers. Import it from tests
// only.
package uitest

import (
	"regexp"
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

// keyTypes are bubbletea's names for the keys it tells apart ("enter",
// "ctrl+n", "pgdown", …), read from bubbletea, so Key delivers what a
// terminal would for any of them.
var keyTypes = func() map[string]tea.KeyType {
	out := map[string]tea.KeyType{}
	for t := tea.KeyType(-128); t < 128; t++ {
		if name := t.String(); name != "" && name != "runes" && name != " " {
			if _, dup := out[name]; !dup {
				out[name] = t
			}
		}
	}
	return out
}()

// Key is the tea.KeyMsg a terminal delivers for a key name ("enter",
// "pgdown", "ctrl+n", "shift+tab", "alt+x", or the typed text itself, e.g.
// "j" or "S").
func Key(name string) tea.KeyMsg {
	if rest, ok := strings.CutPrefix(name, "alt+"); ok && rest != "" {
		k := Key(rest)
		k.Alt = true
		return k
	}
	if t, ok := keyTypes[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// colourSGR is an SGR sequence that sets a colour (foreground, background,
// 256-colour or true colour); bold, faint and reverse are not colours.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-8]|4[0-8]|9[0-7])[;m]`)

// HasColour reports whether out sets any colour.
func HasColour(out string) bool { return colourSGR.MatchString(out) }

// AssertNoColour fails when out sets a colour (the NO_COLOR theme must
// carry everything in glyphs and words).
func AssertNoColour(t *testing.T, out string) {
	t.Helper()
	if loc := colourSGR.FindStringIndex(out); loc != nil {
		t.Errorf("colour code %q under NO_COLOR in\n%s", out[loc[0]:loc[1]], ansi.Strip(out))
	}
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

// PlainView is View without its styling, for assertions on the text.
func PlainView(p Sized, w, h int, focused bool, now time.Time) string {
	return ansi.Strip(View(p, w, h, focused, now))
}
