package bytecode

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// line is one derived line; verdicts and fixes wrap (their end matters),
// the count table is cut instead (wrapping would break its columns).
type line struct {
	text   string
	narrow string // a shorter form for when text does not fit ("": none)
	wrap   bool
}

// hangingIndent is how far continuation lines sit right of the first.
const hangingIndent = 2

// layoutLines turns derived lines into screen lines of at most width cells.
func layoutLines(lines []line, width int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l.narrow != "" && ansi.StringWidth(l.text) > width {
			l.text = l.narrow
		}
		if !l.wrap || ansi.StringWidth(l.text) <= width {
			out = append(out, l.text)
			continue
		}
		lead := len(l.text) - len(strings.TrimLeft(l.text, " "))
		pad := strings.Repeat(" ", lead+hangingIndent)
		first := ansi.Wrap(strings.TrimLeft(l.text, " "), max(width-lead, 1), " ")
		parts := strings.Split(first, "\n")
		out = append(out, strings.Repeat(" ", lead)+parts[0])
		if len(parts) == 1 {
			continue
		}
		rest := strings.Join(parts[1:], " ")
		if width-len(pad) < 8 { // too narrow to indent: cut instead
			out = append(out, rest)
			continue
		}
		for _, p := range strings.Split(ansi.Wrap(rest, width-len(pad), " "), "\n") {
			out = append(out, pad+p)
		}
	}
	return out
}
