package table

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/scroll"
)

// flashMark marks a row changed in the last refresh. It sits in a one-cell
// gutter so pre-styled cells (state colours) keep their colours while flashing.
const flashMark = "▌"

// gutter is the width of the flash marker column.
const gutter = 1

// bodyRows is how many data rows fit in height lines: one line each goes to
// the header and the position line when there is room for them.
func bodyRows(height int) int {
	switch {
	case height >= 3:
		return height - 2
	case height == 2:
		return 1
	default:
		return max(height, 0)
	}
}

// View renders exactly height lines of exactly width cells: a header, the
// visible window of rows, and a position line ("12–35 of 1,000"). Only the
// visible rows are touched, whatever the row count.
func (m Model) View(width, height int) string { return m.ViewLive(width, height, nil) }

// Live gives the text of a Live column's cell (an age) at drawing time;
// ok false keeps the row's own cell.
type Live func(r Row, col int) (text string, ok bool)

// ViewLive is View with the Live columns' cells asked of live, for the
// rows on screen only: a 10,000-row table formats 40 ages a frame, not
// 10,000 a refresh, and the ages are as of the frame.
func (m Model) ViewLive(width, height int, live Live) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	widths := m.widths(width)
	body := bodyRows(height)
	var b strings.Builder
	b.Grow((width + 16) * height)
	lines := 0
	line := func(s string) {
		if lines > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		lines++
	}

	if height >= 2 {
		line(m.header(widths, width))
	}
	n := len(m.visible)
	offset := scroll.Window(m.offset, m.cursor, body, n)
	if n == 0 {
		msg := m.emptyText
		if m.filter != "" && len(m.rows) > 0 {
			msg = "no rows match “" + m.filter + "”"
		}
		line(m.styles.Dim.Render(cell.Fit(strings.Repeat(" ", gutter)+msg, width, cell.Left)))
	}
	for i := offset; i < n && i < offset+body; i++ {
		line(m.row(m.rows[m.visible[i]], i == m.cursor, widths, width, live))
	}
	blank := strings.Repeat(" ", width)
	for lines < height-1 || (lines < height && height < 3) {
		line(blank)
	}
	if height >= 3 {
		pos := m.position(offset, body)
		if note := m.sortNote(); note != "" && widths[m.sortCol] == 0 && !m.headerHolds(widths, width, note) {
			pos = note + " · " + pos
		}
		if left, right := m.columnsOff(widths); m.sideways && left+right > 0 {
			pos = sideways(left, right) + " · " + pos
		}
		line(m.styles.Dim.Render(cell.Fit(pos, width, cell.Right)))
	}
	return b.String()
}

func (m Model) header(widths []int, width int) string {
	style := m.styles.Header
	if m.dim {
		style = m.styles.Dim // stale: the whole table dims, header included
	}
	// Titles and the blanks between them, plain; the sort's mark goes
	// inside its column when the title leaves a cell free, else into the
	// blank after it, so marking a column never moves the header.
	titles := make([]string, len(m.cols))
	blank := make([]string, len(m.cols)+1) // blank[i] is before column i; the last, after the table
	used := gutter
	first := true
	for i, c := range m.cols {
		if widths[i] == 0 {
			continue
		}
		if first {
			blank[i] = strings.Repeat(" ", gutter)
		} else {
			blank[i] = " "
			used += gap
		}
		first = false
		titles[i] = c.Title
		used += widths[i]
	}
	blank[len(m.cols)] = strings.Repeat(" ", max(width-used, 0))
	note := ""
	if sc := m.sortCol; sc >= 0 && sc < len(m.cols) {
		mark := m.sortMark()
		c := m.cols[sc]
		switch {
		case widths[sc] == 0:
			note = m.sortNote()
		case ansi.StringWidth(c.Title) < widths[sc] && c.Align == cell.Right:
			titles[sc] = mark + c.Title
		case ansi.StringWidth(c.Title) < widths[sc]:
			titles[sc] = c.Title + mark
		default:
			next := len(m.cols)
			for j := sc + 1; j < len(m.cols); j++ {
				if widths[j] > 0 {
					next = j
					break
				}
			}
			if blank[next] != "" {
				blank[next] = mark + blank[next][1:]
			} else {
				blank[sc] = strings.TrimSuffix(blank[sc], " ") + mark // the last column, at the edge
			}
		}
	}
	var b strings.Builder
	for i, c := range m.cols {
		if widths[i] == 0 {
			continue
		}
		writeBlank(&b, blank[i], style)
		b.WriteString(style.Render(cell.Fit(titles[i], widths[i], c.Align)))
	}
	if tail := blank[len(m.cols)]; note != "" && ansi.StringWidth(note)+gap <= len(tail) {
		b.WriteString(tail[:len(tail)-ansi.StringWidth(note)])
		b.WriteString(m.styles.Dim.Render(note))
	} else {
		writeBlank(&b, tail, style)
	}
	return padTo(b.String(), width)
}

// headerHolds reports whether the header has room at its end for note.
func (m Model) headerHolds(widths []int, width int, note string) bool {
	used, n := gutter, 0
	for _, w := range widths {
		if w > 0 {
			used += w
			n++
		}
	}
	used += gap * max(n-1, 0)
	return ansi.StringWidth(note)+gap <= width-used
}

// writeBlank writes the blank between header titles: plain, unless it
// carries the sort's mark.
func writeBlank(b *strings.Builder, s string, style lipgloss.Style) {
	if strings.TrimSpace(s) == "" {
		b.WriteString(s)
		return
	}
	b.WriteString(style.Render(s))
}

// row renders one row. Selected, dimmed and row-styled rows are drawn plain
// in one style, because an outer style cannot span inner colour resets.
func (m Model) row(r Row, selected bool, widths []int, width int, live Live) string {
	r = r.formatted()
	override := selected || m.dim || r.Style != nil
	var b strings.Builder
	mark := " "
	if m.flashing(r) {
		mark = flashMark
		if !override {
			mark = m.styles.Flash.Render(flashMark)
		}
	}
	b.WriteString(mark)
	first := true
	for i, c := range m.cols {
		if widths[i] == 0 {
			continue
		}
		if !first {
			b.WriteString(" ")
		}
		first = false
		text := ""
		if i < len(r.Cells) {
			text = r.Cells[i]
		}
		if c.Live && live != nil {
			if t, ok := live(r, i); ok {
				text = t
			}
		}
		if override && strings.IndexByte(text, 0x1b) >= 0 {
			text = ansi.Strip(text)
		}
		if st := r.styleOf(i); st != nil && !override && text != "" {
			text = st.Render(text) // styled here, for the rows on screen only
		}
		writeFit(&b, text, widths[i], c.Align)
	}
	out := padTo(b.String(), width)
	switch {
	case selected && m.dim:
		return m.selStale.Render(out)
	case selected:
		return m.styles.Selected.Render(out)
	case m.dim:
		return m.styles.Dim.Render(out)
	case r.Style != nil:
		return r.Style.Render(out)
	}
	return out
}

// position is "12–35 of 1,000", plus the filter when one is active.
func (m Model) position(offset, body int) string {
	n := len(m.visible)
	var s string
	if n == 0 {
		s = "0 of " + cell.Thousands(len(m.rows))
	} else {
		last := min(offset+body, n)
		s = cell.Thousands(offset+1) + "–" + cell.Thousands(last) + " of " + cell.Thousands(n)
	}
	if m.filter != "" {
		s = "/" + m.filter + " · " + s + " (" + cell.Thousands(len(m.rows)) + " total)"
	}
	return s + " "
}

// columnsOff counts the columns a layout leaves out: scrolled away to the
// left, and hidden for want of width.
func (m Model) columnsOff(widths []int) (left, right int) {
	left = m.scroll
	for i, c := range m.cols {
		if !c.Hide && widths[i] == 0 {
			right++
		}
	}
	left = min(left, right)
	return left, right - left
}

// ColumnsOff is how many columns a width-wide View leaves out: scrolled
// away to the left (SetScroll), and hidden to the right for want of width.
func (m Model) ColumnsOff(width int) (left, right int) {
	return m.columnsOff(m.widths(width))
}

// Shown says, column by column, whether a width-wide View draws it: a
// legend can then explain only the columns on screen.
func (m Model) Shown(width int) []bool {
	widths := m.widths(width)
	shown := make([]bool, len(widths))
	for i, w := range widths {
		shown[i] = w > 0
	}
	return shown
}

// sideways says which columns are off screen and the keys that bring them.
func sideways(left, right int) string {
	switch {
	case left > 0 && right > 0:
		return "← " + cell.Thousands(left) + " · " + cell.Thousands(right) + " more →"
	case left > 0:
		return "← " + cell.Thousands(left) + " more"
	}
	return words.Count(right, "more column", "more columns") + " →"
}

// writeFit writes text cut or padded to w cells (cell.Fit), padding
// straight into b: a frame's rows allocate no padding strings.
func writeFit(b *strings.Builder, text string, w int, align cell.Align) {
	sw := ansi.StringWidth(text)
	if sw > w {
		b.WriteString(cell.Fit(text, w, align))
		return
	}
	gap := w - sw
	left := 0
	switch align {
	case cell.Right:
		left = gap
	case cell.Center:
		left = gap / 2
	}
	spaces(b, left)
	b.WriteString(text)
	spaces(b, gap-left)
}

const blanks = "                                                                "

func spaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(blanks))
		b.WriteString(blanks[:k])
		n -= k
	}
}

// padTo cuts or pads an assembled line to exactly width cells.
func padTo(s string, width int) string {
	return cell.Cut(s, width)
}

// Unshown is how many rows a View height lines high leaves out without
// saying so: none once it has room for its position line ("1–10 of 40"),
// otherwise the rows past its window.
func (m Model) Unshown(height int) int {
	if height >= 3 {
		return 0
	}
	body := bodyRows(height)
	offset := scroll.Window(m.offset, m.cursor, body, len(m.visible))
	return max(len(m.visible)-offset-body, 0)
}

// HeadRoom is how many of head lines of text above a table of rows rows
// fit in height lines when the table keeps its header, a first row and
// its position line: the text gives way before the table vanishes.
func HeadRoom(head, height, rows int) int {
	least := min(max(rows, 1)+2, 3)
	return max(min(head, height-least), 0)
}
