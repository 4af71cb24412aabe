package cell

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Align says where a string sits inside a wider cell.
type Align int

const (
	Left Align = iota
	Right
	Center
)

// Ellipsis marks text that was cut to fit.
const Ellipsis = "…"

// reset ends any SGR state a cut-off styled string may leave open, so the
// padding after it never inherits a background or reverse attribute.
const reset = "\x1b[0m"

// Fit returns s cut (with an ellipsis) or padded to exactly w cells.
// s must be a single line; styled input keeps its escape codes.
func Fit(s string, w int, align Align) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, Ellipsis)
		if strings.Contains(s, "\x1b[") {
			s += reset
		}
		sw = ansi.StringWidth(s)
	}
	return Pad(s, sw, w, align)
}

// Cut returns s cut to at most w cells without a tail, padded to exactly w.
// It suits drawings (bars, borders) where an ellipsis would lie.
func Cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "")
		if strings.Contains(s, "\x1b[") {
			s += reset
		}
		sw = ansi.StringWidth(s)
	}
	return Pad(s, sw, w, Left)
}

// Pad pads s, whose width sw the caller already knows, to w cells.
func Pad(s string, sw, w int, align Align) string {
	gap := w - sw
	if gap <= 0 {
		return s
	}
	switch align {
	case Right:
		return strings.Repeat(" ", gap) + s
	case Center:
		left := gap / 2
		return strings.Repeat(" ", left) + s + strings.Repeat(" ", gap-left)
	default:
		return s + strings.Repeat(" ", gap)
	}
}

// Block returns s as exactly h lines of exactly w cells each: long lines are
// cut with an ellipsis, short ones padded, missing lines added blank and
// extra lines dropped. w or h below 1 yields "".
func Block(s string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow((w + 1) * h)
	blank := strings.Repeat(" ", w)
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			b.WriteString(Fit(strings.TrimRight(lines[i], "\r"), w, Left))
		} else {
			b.WriteString(blank)
		}
	}
	return b.String()
}

// OneLine folds s onto one line: every run of white space (newlines
// included) becomes one space. Error texts go on one-line notices with it.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Width is the cells s takes, as ansi.StringWidth counts them, without
// parsing printable ASCII (ids, regions, names): what a pass measuring
// every row of a big table mostly meets.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}
