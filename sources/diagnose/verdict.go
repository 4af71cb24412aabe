package diagnose

import "fmt"

// Level grades a verdict, a checklist item or a health check: the one scale
// every pane, report and exit code reads, and the theme styles directly.
// The zero value is Unknown so that a verdict nobody filled in never reads
// as a pass.
type Level int

const (
	// Unknown: not enough data to judge.
	Unknown Level = iota
	// NA: the question does not apply (no Python, no service, …).
	NA
	// Pass: nothing to do.
	Pass
	// Warn: worth a look; it costs something but is not breaking.
	Warn
	// Fail: this is hurting users now.
	Fail
)

// Levels lists every level, least severe first.
var Levels = []Level{NA, Unknown, Pass, Warn, Fail}

// String gives the word shown next to the colour and glyph, and written in
// JSON: pass, warn, fail, unknown, n/a.
func (l Level) String() string {
	switch l {
	case NA:
		return "n/a"
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

// Glyph is the level's single-cell mark; it carries the level without colour.
func (l Level) Glyph() string {
	switch l {
	case NA:
		return "–"
	case Pass:
		return "✓"
	case Warn:
		return "!"
	case Fail:
		return "✗"
	default:
		return "?"
	}
}

// MarshalText writes the level's word, so JSON reads "pass", not 2.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a word MarshalText wrote.
func (l *Level) UnmarshalText(b []byte) error {
	for _, c := range Levels {
		if c.String() == string(b) {
			*l = c
			return nil
		}
	}
	return fmt.Errorf("unknown level %q (want pass, warn, fail, unknown or n/a)", b)
}

// Levels are ordered two ways, for two questions:
//
//   - Combining answers into one (Worse): the worst answer wins, and any
//     real answer beats unknown, which beats n/a — one check that could not
//     be read does not hide the others' pass. Fail > Warn > Pass > Unknown > NA.
//   - Listing worst first (WorstFirst): what needs a look comes first, and
//     a row nobody could judge needs one more than a passing row.
//     Fail > Warn > Unknown > Pass > NA.

// combining is a level's rank for Worse.
func (l Level) combining() int {
	switch l {
	case Fail:
		return 4
	case Warn:
		return 3
	case Pass:
		return 2
	case NA:
		return 0
	}
	return 1
}

// Attention is a level's rank in WorstFirst, as a number for a sort by
// several figures: the higher, the sooner it needs someone's attention.
func (l Level) Attention() int {
	switch l {
	case Fail:
		return 4
	case Warn:
		return 3
	case Pass:
		return 1
	case NA:
		return 0
	}
	return 2
}

// Worse combines two answers into one: the more severe, where any real
// answer beats unknown (Fail > Warn > Pass > Unknown > NA).
func Worse(a, b Level) Level {
	if b.combining() > a.combining() {
		return b
	}
	return a
}

// WorstFirst compares two levels for a list read worst first (the org
// overview's rows, a machine's alerts): negative when a comes before b
// (Fail, Warn, Unknown, Pass, NA).
func WorstFirst(a, b Level) int { return b.Attention() - a.Attention() }

// CheckLevel grades a health check's status as the platform reports it
// (Consul's passing, warning, critical); anything else is Unknown.
func CheckLevel(status string) Level {
	switch status {
	case "passing":
		return Pass
	case "warning":
		return Warn
	case "critical":
		return Fail
	}
	return Unknown
}

// Verdict is one judged line: a grade and a sentence that explains it.
type Verdict struct {
	Level Level
	Line  string
}
