package table

import "github.com/flywake/flywake/ui/components/cell"

// Align places a cell's text inside its column.
type Align = cell.Align

const (
	AlignLeft   = cell.Left
	AlignRight  = cell.Right
	AlignCenter = cell.Center
)

// Column describes one column. Width is the minimum in cells; Flex is the
// column's share of any width left over (0 = never grows).
type Column struct {
	Title string
	Width int
	Flex  int
	Align Align
}

// gap is the blank cells between columns.
const gap = 1

// layout returns each column's width for avail cells. Extra width goes to
// flex columns in proportion to Flex. When the minimums do not fit, trailing
// columns are hidden (width 0) and the last one that partly fits is narrowed,
// so the leftmost (most important) columns stay readable.
func layout(cols []Column, avail int) []int {
	widths := make([]int, len(cols))
	used, flex := 0, 0
	for i, c := range cols {
		widths[i] = max(c.Width, 1)
		used += widths[i]
		flex += max(c.Flex, 0)
	}
	if len(cols) > 1 {
		used += gap * (len(cols) - 1)
	}
	if extra := avail - used; extra > 0 && flex > 0 {
		given := 0
		for i, c := range cols {
			if c.Flex > 0 {
				share := extra * c.Flex / flex
				widths[i] += share
				given += share
			}
		}
		// Hand out the rounding remainder one cell at a time, left to right.
		for i := 0; given < extra; i = (i + 1) % len(cols) {
			if cols[i].Flex > 0 {
				widths[i]++
				given++
			}
		}
		return widths
	}
	if used <= avail {
		return widths
	}
	pos := 0
	for i := range widths {
		if i > 0 {
			pos += gap
		}
		room := avail - pos
		switch {
		case room >= widths[i]:
		case room >= 2:
			widths[i] = room
		default:
			widths[i] = 0
		}
		if widths[i] == 0 {
			for j := i; j < len(widths); j++ {
				widths[j] = 0
			}
			break
		}
		pos += widths[i]
	}
	return widths
}
