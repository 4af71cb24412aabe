package bytecode

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
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
		out = append(out, cell.Wrap(l.text, width, hangingIndent)...)
	}
	return out
}
