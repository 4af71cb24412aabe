package theme

import "strings"

// Glyphs for check levels (see the note on machine-state glyphs).
const (
	GlyphPass = "✓"
	GlyphWarn = "!"
	GlyphFail = "✗"
)

// Check levels used by verdicts and the pre-deploy checklist.
const (
	LevelPass    = "pass"
	LevelWarn    = "warn"
	LevelFail    = "fail"
	LevelUnknown = "unknown"
	LevelNA      = "n/a"
)

func buildLevels(t *Theme) map[string]StateLook {
	return map[string]StateLook{
		LevelPass:    {Glyph: GlyphPass, Word: LevelPass, Style: t.Pass},
		LevelWarn:    {Glyph: GlyphWarn, Word: LevelWarn, Style: t.Warn},
		LevelFail:    {Glyph: GlyphFail, Word: LevelFail, Style: t.Fail},
		LevelUnknown: {Glyph: "?", Word: LevelUnknown, Style: t.Unknown},
		LevelNA:      {Glyph: "–", Word: LevelNA, Style: t.Dim},
	}
}

// levelAliases accepts the spellings other packages are likely to use.
var levelAliases = map[string]string{
	"ok": LevelPass, "passing": LevelPass, "passed": LevelPass,
	"warning": LevelWarn, "warnings": LevelWarn,
	"failed": LevelFail, "failing": LevelFail, "critical": LevelFail, "error": LevelFail,
	"na": LevelNA, "n-a": LevelNA, "none": LevelNA, "skip": LevelNA, "skipped": LevelNA,
	"": LevelUnknown,
}

// Level returns the look for pass / warn / fail / unknown / n/a (and common
// aliases such as "ok", "warning", "critical", "n-a"). Anything else reads
// as unknown with its raw word.
func (t *Theme) Level(level string) StateLook {
	key := strings.ToLower(strings.TrimSpace(level))
	if alias, ok := levelAliases[key]; ok {
		key = alias
	}
	if look, ok := t.levels[key]; ok {
		return look
	}
	look := t.levels[LevelUnknown]
	look.Word = cleanWord(level)
	return look
}
