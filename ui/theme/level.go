package theme

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/diagnose"
)

// Glyphs for check levels (see the note on machine-state glyphs); the level
// owns its glyph so text reports draw the same mark as the screen.
var (
	GlyphPass = diagnose.Pass.Glyph()
	GlyphFail = diagnose.Fail.Glyph()
)

func buildLevels(t *Theme) map[diagnose.Level]StateLook {
	styles := map[diagnose.Level]lipgloss.Style{
		diagnose.Pass: t.Pass, diagnose.Warn: t.Warn, diagnose.Fail: t.Fail,
		diagnose.Unknown: t.Unknown, diagnose.NA: t.Dim,
	}
	m := make(map[diagnose.Level]StateLook, len(diagnose.Levels))
	for _, l := range diagnose.Levels {
		m[l] = StateLook{Glyph: l.Glyph(), Word: l.String(), Style: styles[l]}
	}
	return m
}

// Level returns the look of a level: its glyph, its word and its colour.
func (t *Theme) Level(l diagnose.Level) StateLook {
	if look, ok := t.levels[l]; ok {
		return look
	}
	return t.levels[diagnose.Unknown]
}
