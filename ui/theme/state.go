package theme

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// StateLook is how one machine state or check level is shown: a single-cell
// glyph, a word, and a style. All three are always drawn together.
type StateLook struct {
	Glyph string
	Word  string
	Style lipgloss.Style
}

// Plain is "● started" without styling (for widths, tests, --json-free text).
func (l StateLook) Plain() string { return l.Glyph + " " + l.Word }

// Render is the styled "● started".
func (l StateLook) Render() string { return l.Style.Render(l.Plain()) }

// Glyphs for machine states. Each is one terminal cell wide and present in
// common monospace fonts (JetBrains Mono, the screenshots' font, lacks the
// heavier dingbats such as ✔ ✖ ◐ ↻), so no state renders as a missing-glyph box.
const (
	GlyphStarted    = "●"
	GlyphStopped    = "○"
	GlyphSuspended  = "◎"
	GlyphRising     = "▲" // starting, resuming
	GlyphFalling    = "▼" // stopping, suspending
	GlyphRestarting = "◔"
	GlyphReplacing  = "◇" // replacing, updating
	GlyphFailed     = "✗"
	GlyphCreated    = "◌" // created, creating
	GlyphDestroyed  = "†" // destroying, destroyed
	GlyphSuperseded = "·" // replaced, migrated: an old version, not a fault
	GlyphUnknown    = "?"
)

// MachineStates lists every state the Machines API documents (plus
// "resuming", which some clients report), in lifecycle order.
var MachineStates = []string{
	"created", "creating", "starting", "resuming", "started",
	"stopping", "stopped", "suspending", "suspended", "restarting",
	"updating", "replacing", "failed", "launch_failed",
	"destroying", "destroyed", "replaced", "migrated",
}

func buildStates(p palette, t *Theme) map[string]StateLook {
	started := p.fg(p.style().Bold(true), colorGreen)
	faint := p.fg(p.style().Faint(true), colorGray)
	suspended := p.fg(p.style(), colorCyan)
	moving := p.fg(p.style(), colorYellow)
	replacing := p.fg(p.style(), colorBlue)
	created := p.fg(p.style(), colorWhite)

	m := map[string]StateLook{}
	add := func(style lipgloss.Style, glyph string, words ...string) {
		for _, w := range words {
			m[w] = StateLook{Glyph: glyph, Word: w, Style: style}
		}
	}
	add(started, GlyphStarted, "started")
	add(faint, GlyphStopped, "stopped")
	add(suspended, GlyphSuspended, "suspended")
	add(moving, GlyphRising, "starting", "resuming")
	add(moving, GlyphFalling, "stopping", "suspending")
	add(moving, GlyphRestarting, "restarting")
	add(replacing, GlyphReplacing, "replacing", "updating")
	add(t.Fail, GlyphFailed, "failed", "launch_failed")
	add(created, GlyphCreated, "created", "creating")
	add(faint, GlyphDestroyed, "destroying", "destroyed")
	add(faint, GlyphSuperseded, "replaced", "migrated")
	return m
}

// State returns the look for a Fly machine state. Matching ignores case and
// surrounding space; an unknown state shows "?" with its raw word (cleaned of
// control characters and capped in length), so new platform states are
// visible rather than hidden.
func (t *Theme) State(state string) StateLook {
	key := strings.ToLower(strings.TrimSpace(state))
	if look, ok := t.states[key]; ok {
		return look
	}
	word := cleanWord(state)
	if word == "" {
		word = "unknown"
	}
	return StateLook{Glyph: GlyphUnknown, Word: word, Style: t.Unknown}
}

// maxWordCells caps an unknown word so a hostile or broken value cannot
// push a table apart.
const maxWordCells = 24

// cleanWord keeps printable characters only: the value comes from outside.
func cleanWord(s string) string {
	s = ansi.Strip(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, strings.TrimSpace(s))
	if ansi.StringWidth(s) > maxWordCells {
		s = ansi.Truncate(s, maxWordCells, "…")
	}
	return s
}
