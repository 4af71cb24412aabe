package cell

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// minWrapIndent is the narrowest text a continuation line is indented
// for; narrower, continuation lines start at the left edge.
const minWrapIndent = 8

// nbsp joins what must not be broken apart; ansi.Wrap never breaks at it,
// and Wrap gives the lines back with plain spaces.
const nbsp = "\u00a0"

// nbhyphen stands in for "-" while wrapping: ansi.Wrap breaks after every
// hyphen, which splits names and terms ("wild-wind-" / "8057",
// "site-" / "packages") rather than sentences.
const nbhyphen = "\u2011"

// keep is s ready for ansi.Wrap: figures joined to their units, hyphens
// unbreakable.
func keep(s string) string { return strings.ReplaceAll(joinFigures(s), "-", nbhyphen) }

// unkeep undoes keep on a wrapped line.
var unkeep = strings.NewReplacer(nbsp, " ", nbhyphen, "-")

// figure is a number and the unit after it ("28.4 s", "19.9 %", "2048 MB",
// "23 h 30 m"): the unit must end there (a space, punctuation or the end),
// so "3 machines" is a number and a word, not "3 m" and "achines".
var figure = regexp.MustCompile(`\d ((?:ms|µs|ns|s|m|min|h|d|%|B|kB|KB|MB|GB|TB|KiB|MiB|GiB|req/s|/s|/h)(?:[^\pL\pN]|$))`)

// release is a release as words.Release spells it after the word naming
// it ("release v42", "rolled out v43"): one unit too.
var release = regexp.MustCompile(`\pL v\d`)

// joinFigures puts a non-breaking space between each number and its unit,
// and before a release.
func joinFigures(s string) string {
	if !strings.Contains(s, " ") {
		return s
	}
	// A match takes the cell after its unit; that cell is never a digit, so
	// the next figure ("1 h 2 m") still matches.
	s = figure.ReplaceAllStringFunc(s, func(m string) string { return m[:1] + nbsp + m[2:] })
	return release.ReplaceAllStringFunc(s, func(m string) string { return strings.Replace(m, " ", nbsp, 1) })
}

// Wrap breaks one line of text into lines of at most width cells, at
// spaces where it can (a word longer than the width is split), never
// between a number and its unit. The first line keeps its leading spaces;
// continuation lines sit hang cells right of them, so a wrapped sentence
// reads as one. A line that carries styling is closed with a reset where
// it is broken, so no style bleeds into what follows it on screen. Names
// with hyphens are not broken either. This is the one place text is
// wrapped: every pane's sentences go through it.
func Wrap(s string, width, hang int) []string {
	if width <= 0 {
		return nil
	}
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	body := keep(strings.TrimLeft(s, " "))
	lead := len(s) - len(strings.TrimLeft(s, " "))
	if width-lead < minWrapIndent {
		lead = 0
	}
	first := strings.Split(ansi.Wrap(body, width-lead, " "), "\n")
	out := []string{strings.Repeat(" ", lead) + first[0]}
	if len(first) > 1 {
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
	}
	for i, l := range out {
		out[i] = unkeep.Replace(l)
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

// WrapText wraps text that may hold several lines: each is wrapped on its
// own (see Wrap), with no hanging indent.
func WrapText(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l == "" {
			out = append(out, "")
			continue
		}
		out = append(out, Wrap(l, width, 0)...)
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
