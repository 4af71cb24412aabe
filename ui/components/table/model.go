// Package table is a virtualised table: it keeps every row but renders only
// the visible window, so 10,000 machines cost what 10 do per frame.
//
// The cursor follows the selected row's ID across refreshes, reorders and
// removals; the filter is applied once per change and cached; rows the caller
// names with Flash are marked until the next SetRows. The table does not guess
// what changed: cells hold ages that move on every refresh, and only the
// caller's model knows which differences mean something.
package table

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/scroll"
)

// Row is one table row. ID must be stable across refreshes (a machine ID).
// Cells are plain, trusted text (outside text is made inert at the model
// boundary, sources/sanitize); Styles, when set, holds each cell's style
// (nil: unstyled), applied in View to the rows on screen only, so a
// refresh of 10,000 rows styles none of them. A non-nil Style draws the
// whole row in that style instead (e.g. a destroyed machine, dimmed).
type Row struct {
	ID     string
	Cells  []string
	Styles []*lipgloss.Style
	Style  *lipgloss.Style
	// Search is the text the filter matches (see SearchText); "" means
	// all the cells. A caller that keeps rows between refreshes keeps it.
	Search string
	// Lazy, when set, gives the row's Cells, Styles, Style and Search the
	// first time the table needs them: to draw the row, or to match a
	// filter against it (as tview's virtual TableContent hands out cells).
	// A refresh of 10,000 rows then formats the rows on screen, not all
	// of them. The other fields are left unset.
	Lazy Lazy
	// Changed marks a row the refresh that handed it changed: FlashChanged
	// flashes these rows.
	Changed bool
}

// Lazy formats one row on demand: when the row comes into the window
// (SetRows, SetHeight, a move, a filter; never first in View, so View
// stays pure at the height SetHeight was told) and when a filter needs
// its text. An implementation keeps what it formats and hands the same
// row back until its data changes; ID is the table's own.
type Lazy interface {
	Format() Row
}

// formatted is r with its cells: Lazy's, when r has one.
func (r Row) formatted() Row {
	if r.Lazy == nil {
		return r
	}
	f := r.Lazy.Format()
	f.ID, f.Lazy, f.Changed = r.ID, r.Lazy, r.Changed
	return f
}

// styleOf is cell i's style, nil when it has none.
func (r Row) styleOf(i int) *lipgloss.Style {
	if i < len(r.Styles) {
		return r.Styles[i]
	}
	return nil
}

// Model is the table state. The zero value is not usable; call New.
type Model struct {
	cols     []Column
	styles   Styles
	selStale lipgloss.Style // the cursor row of a stale table: selected and faint

	rows   []Row
	search []string // per row: lower-cased plain text, cells joined by \x00 (while searched)
	// searched: search holds every row's text. It is made when a filter
	// is typed, not on every refresh: an unfiltered refresh of 10,000
	// lazily formatted rows formats none of them.
	searched bool
	flash    map[string]bool
	// flashChanged flashes the rows marked Changed (FlashChanged).
	flashChanged bool

	filter  string
	visible []int // indexes into rows that pass the filter, in row order

	// A cursor and a window (scroll.Window), not a bubbles/viewport: the
	// viewport holds its content as lines, and the table styles and draws
	// only the rows on screen, so a frame stays O(visible) at 10,000 rows.
	cursor     int // index into visible
	selectedID string
	offset     int  // first visible row shown
	page       int  // body rows per screen, from SetHeight
	scroll     int  // unpinned columns scrolled away to the left
	sideways   bool // the position line says which columns are off screen
	dim        bool
	emptyText  string
	sortCol    int // the column the rows are sorted by, -1 for none (SetSort)
	sortDesc   bool
}

// New returns an empty table with the given columns and styles.
func New(cols []Column, styles Styles) Model {
	return Model{cols: cols, styles: styles, selStale: styles.Selected.Faint(true), page: 10, emptyText: "no rows", sortCol: -1}
}

// The marks of a sorted column and its direction, in the header.
const (
	SortAsc  = "↑"
	SortDesc = "↓"
)

// SetSort says the rows are sorted by column col (descending or not; col
// below 0: as given), for the header to show: a mark beside the column's
// title that never widens the column, or, while the column is off screen,
// "sort TITLE↑" at the header's end (in the position line when the header
// has no room left).
func (m *Model) SetSort(col int, desc bool) { m.sortCol, m.sortDesc = col, desc }

func (m Model) sortMark() string {
	if m.sortDesc {
		return SortDesc
	}
	return SortAsc
}

// sortNote is what the header says of a sort by a column off screen.
func (m Model) sortNote() string {
	if m.sortCol < 0 || m.sortCol >= len(m.cols) {
		return ""
	}
	return "sort " + m.cols[m.sortCol].Title + m.sortMark()
}

// widths lays the columns out for a width-wide table. The sort never
// changes it: a sorted column off screen is named where there is room.
func (m Model) widths(width int) []int { return layout(m.cols, width-gutter, m.scroll) }

// SetColumns replaces the columns; rows keep their cells.
func (m *Model) SetColumns(cols []Column) { m.cols = cols }

// SetScroll scrolls the table sideways: the first n unpinned columns are
// left out so the ones hidden for want of width come into view (see
// ColumnsOff). 0 shows the columns from the left.
func (m *Model) SetScroll(n int) { m.scroll = max(n, 0) }

// SaySideways makes the position line say how many columns are off screen
// on either side, for a table whose owner scrolls it sideways (SetScroll).
func (m *Model) SaySideways(on bool) { m.sideways = on }

// Scroll is the sideways scroll of the last SetScroll.
func (m Model) Scroll() int { return m.scroll }

// RowAt is the row drawn on line y of a View height lines high (0 is the
// header), for a mouse click; ok is false for the header, the position
// line and blank lines.
func (m Model) RowAt(y, height int) (Row, bool) {
	body := bodyRows(height)
	first := 0
	if height >= 2 {
		first = 1 // the header
	}
	i := y - first
	if i < 0 || i >= body {
		return Row{}, false
	}
	offset := scroll.Window(m.offset, m.cursor, body, len(m.visible))
	if vi := offset + i; vi < len(m.visible) {
		return m.rows[m.visible[vi]].formatted(), true
	}
	return Row{}, false
}

// SetEmptyText sets the line shown when there are no rows at all.
func (m *Model) SetEmptyText(s string) { m.emptyText = s }

// SetDim draws every row in the Dim style, for stale data.
func (m *Model) SetDim(dim bool) { m.dim = dim }

// SetHeight tells the table how many lines View will get, so paging and
// scrolling move by what is actually on screen. Call it on every resize.
func (m *Model) SetHeight(height int) {
	m.page = max(bodyRows(height), 1)
	m.offset = scroll.Window(m.offset, m.cursor, m.page, len(m.visible))
	m.prepare()
}

// prepare formats the lazily handed rows of the window, so that View
// only reads what Update made.
func (m *Model) prepare() {
	n := len(m.visible)
	for vi := max(m.offset, 0); vi < n && vi < m.offset+m.page; vi++ {
		if r := m.rows[m.visible[vi]]; r.Lazy != nil {
			r.Lazy.Format()
		}
	}
}

// SetRows replaces the rows and ends any flash. The cursor stays on the
// selected row's ID; if that row is gone it stays at the same position.
// The table keeps its own copy of the slice (in the backing arrays of the
// previous rows, when they are large enough); cell strings are shared.
func (m *Model) SetRows(rows []Row) {
	m.rows = append(m.rows[:0], rows...)   // the caller may reuse its slice
	clear(m.rows[len(m.rows):cap(m.rows)]) // let rows no longer shown go
	m.searched = false
	m.flash, m.flashChanged = nil, false
	m.refilter(false)
}

// searchTexts fills search, once per SetRows, when a filter needs it.
func (m *Model) searchTexts() {
	if m.searched {
		return
	}
	m.searched = true
	if cap(m.search) < len(m.rows) {
		m.search = make([]string, len(m.rows))
	}
	clear(m.search[len(m.rows):cap(m.search)])
	m.search = m.search[:len(m.rows)]
	for i := range m.rows {
		r := m.rows[i].formatted()
		if m.search[i] = r.Search; m.search[i] == "" {
			m.search[i] = SearchText(r.Cells)
		}
	}
}

// SearchText is what the filter matches a row against: its cells, lower
// case, joined by a separator no query contains.
func SearchText(cells []string) string {
	s := strings.Join(cells, "\x00")
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansi.Strip(s) // a pre-styled cell: match its text
	}
	return strings.ToLower(s)
}

// Flash marks the rows with these IDs until the next SetRows or ClearFlash.
func (m *Model) Flash(ids []string) {
	m.flash, m.flashChanged = nil, false
	if len(ids) > 0 {
		m.flash = make(map[string]bool, len(ids))
		for _, id := range ids {
			m.flash[id] = true
		}
	}
}

// SetFilter shows only rows with a cell containing q (case-insensitive,
// styling ignored). Filtering runs here, once per change, never in View.
func (m *Model) SetFilter(q string) {
	q = strings.ToLower(q)
	if q == m.filter {
		return
	}
	m.filter = q
	m.refilter(true)
}

// Filter returns the active (lower-cased) filter.
func (m Model) Filter() string { return m.filter }

// refilter rebuilds the visible list and puts the cursor back on the
// selected ID. When it is filtered out, a new filter jumps to the first
// match while a data refresh keeps the cursor's position.
func (m *Model) refilter(newFilter bool) {
	oldCursor, oldOffset := m.cursor, m.offset
	m.visible = m.visible[:0]
	if m.filter == "" {
		for i := range m.rows {
			m.visible = append(m.visible, i)
		}
	} else {
		m.searchTexts()
		for i, s := range m.search {
			if strings.Contains(s, m.filter) {
				m.visible = append(m.visible, i)
			}
		}
	}
	m.cursor = -1
	if m.selectedID != "" {
		for vi, ri := range m.visible {
			if m.rows[ri].ID == m.selectedID {
				m.cursor = vi
				break
			}
		}
	}
	switch {
	case m.cursor >= 0:
		// Keep the row on the same screen line.
		m.offset = oldOffset + (m.cursor - oldCursor)
	case newFilter:
		m.cursor, m.offset = 0, 0
	default:
		m.cursor = oldCursor
	}
	m.settle()
}

// settle clamps cursor and offset and records the selected ID.
func (m *Model) settle() {
	n := len(m.visible)
	m.cursor = min(max(m.cursor, 0), max(n-1, 0))
	m.offset = scroll.Window(m.offset, m.cursor, m.page, n)
	m.prepare()
	if n == 0 {
		// Keep selectedID: the row may come back when the filter is cleared.
		return
	}
	m.selectedID = m.rows[m.visible[m.cursor]].ID
}

// Selected returns the row under the cursor.
func (m Model) Selected() (Row, bool) {
	if len(m.visible) == 0 {
		return Row{}, false
	}
	return m.rows[m.visible[m.cursor]].formatted(), true
}

// Cursor returns the cursor's index among the visible (filtered) rows.
func (m Model) Cursor() int { return m.cursor }

// Len returns the number of rows passing the filter; Total all rows.
func (m Model) Len() int   { return len(m.visible) }
func (m Model) Total() int { return len(m.rows) }

// Select moves the cursor to the row with this ID, if it is visible.
func (m *Model) Select(id string) bool {
	for vi, ri := range m.visible {
		if m.rows[ri].ID == id {
			m.cursor = vi
			m.settle()
			return true
		}
	}
	return false
}

// Move moves the cursor by delta rows (negative is up), clamped.
func (m *Model) Move(delta int) {
	m.cursor += delta
	m.settle()
}

// PageUp and PageDown move by one screen; Top and Bottom jump to the ends.
func (m *Model) PageUp()   { m.Move(-m.page) }
func (m *Model) PageDown() { m.Move(m.page) }
func (m *Model) Top()      { m.Move(-len(m.visible)) }
func (m *Model) Bottom()   { m.Move(len(m.visible)) }

// FlashChanged marks the rows handed as Changed until the next SetRows
// or ClearFlash, as Flash would with their IDs (a refresh of 10,000
// changed rows builds no set of them).
func (m *Model) FlashChanged() { m.flash, m.flashChanged = nil, true }

// IsFlashing reports whether the row was named in the last Flash, or is
// a Changed row since FlashChanged.
func (m Model) IsFlashing(id string) bool {
	if m.flashChanged {
		for _, r := range m.rows {
			if r.ID == id {
				return r.Changed
			}
		}
		return false
	}
	return m.flash[id]
}

// flashing is IsFlashing for a row at hand.
func (m Model) flashing(r Row) bool {
	if m.flashChanged {
		return r.Changed
	}
	return m.flash[r.ID]
}

// ClearFlash ends the flash.
func (m *Model) ClearFlash() { m.flash, m.flashChanged = nil, false }
