package diagnose

// Level grades a verdict. The zero value is Unknown so that a verdict nobody
// filled in never reads as a pass.
type Level int

const (
	// Unknown: not enough data to judge (or the check does not apply).
	Unknown Level = iota
	// Pass: nothing to do.
	Pass
	// Warn: worth a look; it costs something but is not breaking.
	Warn
	// Fail: this is hurting users now.
	Fail
)

// String gives the word the UI shows next to the colour and glyph.
func (l Level) String() string {
	switch l {
	case Pass:
		return "pass"
	case Warn:
		return "warn"
	case Fail:
		return "fail"
	default:
		return "unknown"
	}
}

// Verdict is one judged line: a grade and a sentence that explains it.
type Verdict struct {
	Level Level
	Line  string
}

// Worst returns the most severe level among ls (Fail > Warn > Pass > Unknown).
// With no levels it returns Unknown.
func Worst(ls ...Level) Level {
	worst := Unknown
	for _, l := range ls {
		if l > worst {
			worst = l
		}
	}
	return worst
}
