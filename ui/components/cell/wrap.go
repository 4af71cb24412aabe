package cell

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// minWrapIndent is the narrowest text a continuation line is indented
// for; narrower, continuation lines start at the left edge.
const minWrapIndent = 8

// Wrap breaks one line of text into lines of at most width cells, at
// spaces where it can (a word longer than the width is split). The first
// line keeps its leading spaces; continuation lines sit hang cells right of
// them, so a wrapped sentence reads as one. A line that carries styling is
// closed with a reset where it is broken, so no style bleeds into what
// follows it on screen.
func Wrap(s string, width, hang int) []string {
	if width <= 0 {
		return nil
	}
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	lead := len(s) - len(body)
	if width-lead < minWrapIndent {
		lead = 0
	}
	first := strings.Split(ansi.Wrap(body, width-lead, " "), "\n")
	out := []string{strings.Repeat(" ", lead) + first[0]}
	if len(first) == 1 {
		return closeStyles(out)
	}
	// The rest is wrapped again from the body itself, not from the first
	// wrap's lines joined with spaces: those lines split a long word (a
	// digest, a URL) where it met the width, and the join put a space in it.
	rest := trimLeadingSpaces(ansi.TruncateLeft(body, ansi.StringWidth(first[0]), ""))
	pad := lead + hang
	if width-pad < minWrapIndent {
		pad = 0
	}
	for _, l := range strings.Split(ansi.Wrap(rest, width-pad, " "), "\n") {
		out = append(out, strings.Repeat(" ", pad)+l)
	}
	return closeStyles(out)
}

// leadingSGR is the styling a cut string starts with (TruncateLeft keeps
// every sequence before the cut), then the spaces after it.
var leadingSGR = regexp.MustCompile(`^((?:\x1b\[[0-9;:]*m)*) *`)

// trimLeadingSpaces drops the spaces a line break consumed and, of the
// styling before them, what a reset already ended: what stays is the
// style in force where the line was cut.
func trimLeadingSpaces(s string) string {
	m := leadingSGR.FindStringSubmatchIndex(s)
	seqs := s[m[2]:m[3]]
	if i := max(strings.LastIndex(seqs, "\x1b[0m"), strings.LastIndex(seqs, "\x1b[m")); i >= 0 {
		seqs = seqs[i+strings.Index(seqs[i:], "m")+1:]
	}
	return seqs + s[m[1]:]
}

// WrapAll wraps every line of lines (see Wrap).
func WrapAll(lines []string, width, hang int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, Wrap(l, width, hang)...)
	}
	return out
}

func closeStyles(lines []string) []string {
	if len(lines) < 2 {
		return lines
	}
	for i, l := range lines {
		if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, reset) {
			lines[i] = l + reset
		}
	}
	return lines
}
