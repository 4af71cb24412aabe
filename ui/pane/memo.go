package pane

import (
	"slices"

	"github.com/flywake/flywake/ui/components/cell"
)

// WidthMemo remembers what a pane's Height (or Needs) answered at one
// width until Forget: the root lays the panes out after every message,
// and wrapping the same lines again each time is most of what a message
// costs a small app. A pane forgets whenever what it measures changes.
// The zero value remembers nothing.
type WidthMemo struct {
	width, value int
	ok           bool
}

// Get is measure(width), worked out only when the width is not the one
// remembered.
func (w *WidthMemo) Get(width int, measure func(int) int) int {
	if !w.ok || w.width != width {
		w.width, w.value, w.ok = width, measure(width), true
	}
	return w.value
}

// Forget drops what is remembered.
func (w *WidthMemo) Forget() { w.ok = false }

// WrapMemo remembers what cell.WrapAll made of some lines at the last two
// widths asked (a pane is measured at its tile's width and drawn at its
// own): the root lays the panes out after every message, and lines that
// did not change need not be wrapped again. What it answers is shared:
// read it, never write it. The zero value remembers nothing.
type WrapMemo struct {
	kept [2]wrapped
	next int
}

type wrapped struct {
	lines         []string
	width, indent int
	out           []string
	ok            bool
}

// WrapAll is cell.WrapAll(lines, width, indent), wrapped again only when
// the lines or the width are not ones remembered.
func (m *WrapMemo) WrapAll(lines []string, width, indent int) []string {
	for i := range m.kept {
		if k := &m.kept[i]; k.ok && k.width == width && k.indent == indent && slices.Equal(k.lines, lines) {
			return k.out
		}
	}
	k := &m.kept[m.next]
	m.next = (m.next + 1) % len(m.kept)
	*k = wrapped{lines: slices.Clone(lines), width: width, indent: indent, out: cell.WrapAll(lines, width, indent), ok: true}
	return k.out
}
