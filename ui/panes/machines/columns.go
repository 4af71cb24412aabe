package machines

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/ui/components/table"
)

// sorting is the order of the rows: by one column, or (col < 0) as listed.
type sorting struct {
	col  int
	desc bool
}

// listed is the listing's own order.
var listed = sorting{col: -1}

// tableColumns is the definition as table columns: the columns with
// nothing to show hidden, each as wide as its widest cell (up to the
// definition's width, at least its title's). The state and the id stay
// put when the table scrolls sideways. The sort is the table's to mark
// (table.SetSort), so marking a column never widens it.
func tableColumns(sh shape) []table.Column {
	defs := columns.Machines()
	out := make([]table.Column, len(defs))
	for i, d := range defs {
		title := d.Title
		align := table.AlignLeft
		if d.Right {
			align = table.AlignRight
		}
		width := d.Width
		if d.Since == nil && sh.width[i] > 0 {
			width = min(width, sh.width[i])
		}
		col := table.Column{
			Title: title, Width: max(width, ansi.StringWidth(title)), Align: align,
			Drop: d.Drop, Live: d.Since != nil, Hide: sh.empty[i], Pin: d.Drop == 0,
		}
		if d.Min > 0 && col.Width > d.Min {
			// Cut rather than hidden when room is short; it grows back to
			// its widest cell and no further.
			col.Width, col.Flex, col.Max = max(d.Min, ansi.StringWidth(title)), 1, col.Width
		}
		out[i] = col
	}
	return out
}
