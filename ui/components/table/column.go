package table

import "github.com/flywake/flywake/ui/components/cell"

// Align places a cell's text inside its column.
type Align = cell.Align

const (
	AlignLeft  = cell.Left
	AlignRight = cell.Right
)

// Column describes one column. Width is the minimum in cells; Flex is the
// column's share of any width left over (0 = never grows). Drop orders the
// columns a narrow table hides: the highest Drop goes first; 0 means the
// column's place from the right (the rightmost unnumbered column goes first,
// after every numbered one). A column is hidden whole, never cut below its
// Width, so a header never reads "SwapF…".
type Column struct {
	Title string
	Width int
	Flex  int
	Align Align
	Drop  int
	// Live marks a column whose text changes with time alone (an age): its
	// cells come from ViewLive's func as each frame is drawn.
	Live bool
	// Hide leaves the column out (it has nothing to show).
	Hide bool
	// Pin keeps the column in place when the table scrolls sideways
	// (SetScroll): the columns that say which row is which.
	Pin bool
	// Max caps how far Flex grows the column (0: no cap), so a column that
	// may be cut at Width grows back to its widest cell and no further.
	Max int
}

// gap is the blank cells between columns.
const gap = 1

// dropRank orders columns for hiding: the highest rank is hidden first.
func dropRank(c Column, i int) int {
	if c.Drop > 0 {
		return 1_000_000 + c.Drop
	}
	return i
}

// layout returns each column's width for avail cells, 0 for a hidden one.
// Hidden columns and the first scroll unpinned ones (scrolled away to the
// left) are left out; the rest are hidden by Drop until the minimums fit; a
// last column alone is narrowed to avail. Extra width goes to flex columns
// in proportion to Flex.
func layout(cols []Column, avail, scroll int) []int {
	widths := make([]int, len(cols))
	shown := 0
	for i, c := range cols {
		switch {
		case c.Hide:
		case !c.Pin && scroll > 0:
			scroll--
		default:
			widths[i] = max(c.Width, 1)
			shown++
		}
	}
	used := func() int {
		n, k := 0, 0
		for _, w := range widths {
			if w > 0 {
				n += w
				k++
			}
		}
		return n + gap*max(k-1, 0)
	}
	var dropped []int
	for shown > 1 && used() > avail {
		drop := -1
		for i, c := range cols {
			if widths[i] > 0 && (drop < 0 || dropRank(c, i) > dropRank(cols[drop], drop)) {
				drop = i
			}
		}
		widths[drop] = 0
		dropped = append(dropped, drop)
		shown--
	}
	// A wide column dropped last may have made room for a narrow one
	// dropped before it (NEWEST EVENT gone, REGION fits again): bring back
	// the most needed of them that fit.
	for j := len(dropped) - 2; j >= 0; j-- {
		i := dropped[j]
		if used()+gap+max(cols[i].Width, 1) <= avail {
			widths[i] = max(cols[i].Width, 1)
		}
	}
	if used() > avail {
		for i := range widths {
			if widths[i] > 0 {
				widths[i] = max(avail, 0)
			}
		}
		return widths
	}
	extra, flex := avail-used(), 0
	for i, c := range cols {
		if widths[i] > 0 {
			flex += max(c.Flex, 0)
		}
	}
	if extra <= 0 || flex == 0 {
		return widths
	}
	// Hand the extra out in proportion to Flex, a cell at a time so the
	// caps (Max) hold and the rounding goes left to right.
	room := func(i int) bool {
		return widths[i] > 0 && cols[i].Flex > 0 && (cols[i].Max == 0 || widths[i] < cols[i].Max)
	}
	for extra > 0 {
		gave := false
		for i, c := range cols {
			for k := 0; k < c.Flex && extra > 0 && room(i); k++ {
				widths[i]++
				extra--
				gave = true
			}
		}
		if !gave {
			break // every flex column is at its cap
		}
	}
	return widths
}
