package theme

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
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

// tone names a state's colour; buildStates turns it into a style.
type tone int

const (
	toneStarted tone = iota
	toneFaint
	toneSuspended
	toneMoving
	toneReplacing
	toneFail
	toneCreated
)

type drawing struct {
	glyph string
	tone  tone
}

// phaseDrawings draw a state by its phase (diagnose.States is the one list
// of states and their phases), so a state added there is drawn at once.
var phaseDrawings = map[diagnose.Phase]drawing{
	diagnose.Awake:    {GlyphStarted, toneStarted},
	diagnose.Asleep:   {GlyphStopped, toneFaint},
	diagnose.Waking:   {GlyphRising, toneMoving},
	diagnose.Sleeping: {GlyphFalling, toneMoving},
	diagnose.Troubled: {GlyphFailed, toneFail},
	diagnose.Gone:     {GlyphDestroyed, toneFaint},
}

// stateDrawings are the states drawn apart from the rest of their phase:
// persistent states must differ by glyph alone, and a deploy's moves
// (replacing, updating) or a superseded version are not a boot or a fault.
var stateDrawings = map[string]drawing{
	"suspended":  {GlyphSuspended, toneSuspended},
	"restarting": {GlyphRestarting, toneMoving},
	"replacing":  {GlyphReplacing, toneReplacing},
	"updating":   {GlyphReplacing, toneReplacing},
	"created":    {GlyphCreated, toneCreated},
	"creating":   {GlyphCreated, toneCreated},
	"replaced":   {GlyphSuperseded, toneFaint},
	"migrated":   {GlyphSuperseded, toneFaint},
}

func buildStates(p palette, t *Theme) map[string]StateLook {
	styles := map[tone]lipgloss.Style{
		toneStarted:   p.fg(p.style().Bold(true), colorGreen),
		toneFaint:     p.fg(p.style().Faint(true), colorGray),
		toneSuspended: p.fg(p.style(), colorCyan),
		toneMoving:    p.fg(p.style(), colorYellow),
		toneReplacing: p.fg(p.style(), colorBlue),
		toneFail:      t.Fail,
		toneCreated:   p.fg(p.style(), colorWhite),
	}
	m := make(map[string]StateLook, len(diagnose.States))
	for _, s := range diagnose.States {
		d, ok := stateDrawings[s.Name]
		if !ok {
			d = phaseDrawings[s.Phase]
		}
		m[s.Name] = StateLook{Glyph: d.glyph, Word: s.Name, Style: styles[d.tone]}
	}
	return m
}

// State returns the look for a Fly machine state, matched exactly as
// diagnose.Classify matches it; an unknown state shows "?" with its own
// word (already inert: it comes from the model) capped in length, so new
// platform states are visible rather than hidden.
func (t *Theme) State(state string) StateLook {
	if look, ok := t.states[state]; ok {
		return look
	}
	word := capWord(state)
	if word == "" {
		word = "unknown"
	}
	return StateLook{Glyph: GlyphUnknown, Word: word, Style: t.Unknown}
}

// maxWordCells caps an unknown word so a hostile or broken value cannot
// push a table apart.
const maxWordCells = 24

// capWord trims s and cuts it to maxWordCells.
func capWord(s string) string {
	s = strings.TrimSpace(s)
	if ansi.StringWidth(s) > maxWordCells {
		s = ansi.Truncate(s, maxWordCells, "…")
	}
	return s
}
