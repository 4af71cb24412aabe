package frame

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

// Box draws body inside a bordered pane with the title set into the top
// border. The result is exactly w×h cells (nothing for w or h below 1).
// A focused box uses the heavier border and the focused title style, so
// focus shows without colour. Body lines are cut with an ellipsis or padded;
// extra lines are dropped.
func Box(t *theme.Theme, title string, focused bool, body string, w, h int) string {
	return BoxNote(t, title, "", focused, body, w, h)
}

// BoxNote is Box with a note set into the bottom border, at its right
// ("╰─── ↓ 12 more lines ─╯"): what the body could not show. A note too
// long for the border is left out whole rather than cut.
func BoxNote(t *theme.Theme, title, note string, focused bool, body string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	shape, border, titleStyle := t.BorderShape, t.Border, t.PaneTitle
	if focused {
		shape, border, titleStyle = t.FocusedBorderShape, t.FocusedBorder, t.PaneTitleFocused
	}
	if h == 1 || w < 2 {
		// No room for a frame: show what we can of the title.
		return cell.Block(titleStyle.Render(ansi.Truncate(title, w, cell.Ellipsis)), w, h)
	}

	inner := w - 2
	var b strings.Builder
	b.Grow((w*3 + 16) * h)

	// Top border: ╭─ Title ───╮ when there is room for at least one title cell.
	if tw := inner - 3; title != "" && tw >= 1 {
		name := ansi.Truncate(title, tw, cell.Ellipsis)
		rest := inner - 3 - ansi.StringWidth(name)
		b.WriteString(border.Render(shape.TopLeft + shape.Top))
		b.WriteString(" " + titleStyle.Render(name) + " ")
		b.WriteString(border.Render(strings.Repeat(shape.Top, rest) + shape.TopRight))
	} else {
		b.WriteString(border.Render(shape.TopLeft + strings.Repeat(shape.Top, inner) + shape.TopRight))
	}

	left, right := border.Render(shape.Left), border.Render(shape.Right)
	if h > 2 {
		var lines []string
		if inner > 0 {
			lines = strings.Split(cell.Block(body, inner, h-2), "\n")
		} else {
			lines = make([]string, h-2) // a 2-cell-wide box: borders only
		}
		for _, l := range lines {
			b.WriteByte('\n')
			b.WriteString(left)
			b.WriteString(l)
			b.WriteString(right)
		}
	}
	b.WriteByte('\n')
	if nw := ansi.StringWidth(note); note != "" && nw+4 <= inner {
		b.WriteString(border.Render(shape.BottomLeft + strings.Repeat(shape.Bottom, inner-nw-3)))
		b.WriteString(" " + titleStyle.Render(note) + " ")
		b.WriteString(border.Render(shape.Bottom + shape.BottomRight))
		return b.String()
	}
	b.WriteString(border.Render(shape.BottomLeft + strings.Repeat(shape.Bottom, inner) + shape.BottomRight))
	return b.String()
}

// InnerSize is the body area of a w×h Box: what a pane should render into.
func InnerSize(w, h int) (int, int) {
	return max(w-2, 0), max(h-2, 0)
}
