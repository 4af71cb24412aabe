package machines

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/pane"
)

// Model is the Machines pane. Use it through a pointer (New returns one).
type Model struct {
	pane.Base
	ctx    pane.Context
	table  table.Model
	styles *styles
	rows   rowCache

	app        *snapshot.App
	now        time.Time
	lastListed time.Time // the listing the flash marks belong to

	sort    sorting // the rows' order
	built   built   // what the table's rows were built from
	shape   shape   // which columns are empty, how wide their cells are
	changed int     // how many rows the last listing changed (they flash)

	filter textinput.Model // focused while the filter is typed

	detail   *detail   // non-nil while drilled into one machine
	describe *describe // non-nil while describing one machine (over the detail, if open)
	asked    int       // describe requests made, so a late answer is told from the current one
}

// ID is the machines pane's ID; the root addresses its replies with it.
const ID pane.ID = "machines"

// New returns an empty Machines pane.
func New(ctx pane.Context) *Model {
	t := table.New(tableColumns(shape{}), table.StylesFrom(ctx.Theme))
	t.SetEmptyText("no machines yet")
	t.SaySideways(true) // ←/→ scroll it
	in := ctx.Themed().NewInput("/")
	return &Model{ctx: ctx, table: t, styles: newStyles(ctx.Theme), sort: listed, filter: in}
}

var _ pane.Pane = (*Model)(nil)

// ID names the pane.
func (m *Model) ID() pane.ID { return ID }

// Title is the pane's name.
func (m *Model) Title() string { return "Machines" }

// Capturing reports whether text is being typed (the filter, a search in
// the describe view).
func (m *Model) Capturing() bool {
	return m.filtering() || (m.describe != nil && m.describe.searching())
}

// SetStale dims every row: the data is the last good listing, not a fresh one.
func (m *Model) SetStale(stale bool) {
	m.Base.SetStale(stale)
	m.table.SetDim(stale)
}

// SetSize tells the pane the body size it will be drawn at.
func (m *Model) SetSize(width, height int) {
	m.Base.SetSize(width, height)
	width, height = m.Size()
	m.fitTable()
	m.filter.Width = max(width-2, 1)
	if m.detail != nil {
		m.detail.setSize(width, height)
	}
	if m.describe != nil {
		m.describe.setSize(width, height, m.ctx.Theme)
	}
	m.clampScroll()
}

// Height is a line per machine (as filtered), the header and the position
// line, and the filter line while it is typed; in the drill-down or the
// describe view, their lines.
func (m *Model) Height(width int) int {
	switch {
	case m.describe != nil:
		return len(m.describe.lines) + 2
	case m.detail != nil:
		return len(wrapDetail(m.detail.raw, width)) + 2
	}
	h := max(m.table.Len(), 1) + 2
	if m.filtering() {
		h++
	}
	if malformedNote(m.app) != "" {
		h++
	}
	return h
}

// topLines are the lines above the table: the malformed note, the filter.
func (m *Model) topLines(h int) int {
	n := 0
	if m.filtering() {
		n++
	}
	if malformedNote(m.app) != "" && h-n > 2 {
		n++
	}
	return n
}

func (m *Model) tableHeight(h int) int { return max(h-m.topLines(h), 0) }

// fitTable gives the table the lines the top leaves it.
func (m *Model) fitTable() {
	_, h := m.Size()
	m.table.SetHeight(m.tableHeight(h))
}

// InDetail reports whether a machine's detail view is open.
func (m *Model) InDetail() bool { return m.detail != nil }

// InDescribe reports whether a machine's describe view is open.
func (m *Model) InDescribe() bool { return m.describe != nil }

// Selected returns the machine ID under the cursor.
func (m *Model) Selected() (string, bool) {
	r, ok := m.table.Selected()
	return r.ID, ok
}

// SetData rebuilds the rows. A new listing flashes the machines whose row
// hash differs from the previous listing's (the hash covers what a row means,
// not its ages); any other data (logs, probes) ends the flash.
func (m *Model) SetData(a *snapshot.App, now time.Time) {
	if a != m.app {
		m.rows = rowCache{} // another app (or a fresh model): nothing to compare with
	}
	m.app, m.now = a, now
	if a == nil || a.Mark() != m.built.mark || m.sort != m.built.sort {
		m.setRows()
	} else {
		// The same machines and probes in the same order: the same rows,
		// none changed. SetRows would clear the flash; so does this.
		m.changed = 0
		m.table.ClearFlash()
	}
	if a != nil && !a.ListedAt.Equal(m.lastListed) {
		m.lastListed = a.ListedAt
		if m.changed > 0 {
			m.table.FlashChanged() // hashes change only with a listing
		}
	}
	if m.detail != nil {
		m.detail.refresh(a, m.ctx.Theme, now)
	}
}

// setRows hands the table the rows in the current order, and the columns
// when which are empty or the order changed.
func (m *Model) setRows() {
	m.built = built{m.app.Mark(), m.sort}
	rows, changed, sh := buildRows(m.app, m.styles, &m.rows, m.sort)
	m.changed = changed
	if sh != m.shape {
		m.shape = sh
		m.table.SetColumns(tableColumns(m.shape))
		m.clampScroll()
	}
	m.table.SetRows(rows)
	m.rows.release()
	m.fitTable()
}

// built is what the rows were built from: the app's machines and probes
// (the ALERT column reads the sockets), and the order.
type built struct {
	mark snapshot.Mark
	sort sorting
}

// Update handles keys while focused and the replies to its requests. s/S/Z
// on the selected (or drilled-into) machine return an ActionRequest for the
// root; the pane itself does nothing.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Described:
		if m.describe != nil {
			m.describe.answer(msg, m.ctx.Theme)
		}
		return nil
	case tea.MouseMsg:
		m.mouse(msg)
		return nil
	case tea.KeyMsg:
		return m.key(msg)
	}
	// A text input's own messages (ctrl+v's paste, read from the clipboard
	// in a command) go to the input being typed, like its keys.
	var cmd tea.Cmd
	switch {
	case m.filtering():
		m.filter, cmd = m.filter.Update(msg)
		m.table.SetFilter(m.filter.Value())
	case m.describe != nil && m.describe.searching():
		m.describe.search, cmd = m.describe.search.Update(msg)
	}
	return cmd
}

// filtering: the filter is being typed.
func (m *Model) filtering() bool { return m.filter.Focused() }

func (m *Model) key(km tea.KeyMsg) tea.Cmd {
	k := *m.ctx.Keys
	if m.filtering() {
		return m.updateFilter(km)
	}
	if m.describe != nil {
		return m.updateDescribe(km)
	}
	if m.detail != nil {
		switch {
		case key.Matches(km, k.Back):
			m.detail = nil
			return nil
		case key.Matches(km, k.Describe):
			return m.openDescribe(m.detail.id)
		case key.Matches(km, k.Copy):
			return copyID(m.detail.id)
		}
		if a, ok := m.actionFor(km, k); ok {
			return m.request(a, m.detail.id)
		}
		if key.Matches(km, k.Logs) { // the logs view, on this machine
			id := m.detail.id
			return func() tea.Msg { return pane.ShowLogs{Machine: id, Why: "machine " + id} }
		}
		m.detail.handleKey(km, k)
		return nil
	}
	if a, ok := m.actionFor(km, k); ok {
		if id, ok := m.Selected(); ok {
			return m.request(a, id)
		}
		return nil
	}
	id, selected := m.Selected()
	switch {
	case key.Matches(km, k.Filter):
		cmd := m.filter.Focus()
		m.fitTable()
		return cmd
	case key.Matches(km, k.Back):
		m.filter.SetValue("")
		m.table.SetFilter("")
	case key.Matches(km, k.Enter) && selected:
		m.detail = newDetail(id, actionHint(k))
		m.detail.refresh(m.app, m.ctx.Theme, m.now)
		m.detail.setSize(m.Size())
	case key.Matches(km, k.Describe) && selected:
		return m.openDescribe(id)
	case key.Matches(km, k.Copy) && selected:
		return copyID(id)
	case key.Matches(km, k.SortNext):
		m.setSort(m.nextSort())
	case key.Matches(km, k.SortReverse):
		s := m.sort
		if s.col < 0 {
			s.col = columns.State
		}
		s.desc = !s.desc
		m.setSort(s)
	case key.Matches(km, k.Left):
		m.table.SetScroll(m.table.Scroll() - 1)
		m.clampScroll()
	case key.Matches(km, k.Right):
		if _, right := m.columnsOff(); right > 0 {
			m.table.SetScroll(m.table.Scroll() + 1)
		}
	default:
		m.table.HandleKey(km, k)
	}
	return nil
}

// nextSort is the order after this one: the next shown column ascending,
// and after the last column the listing's own order again.
func (m *Model) nextSort() sorting {
	for c := m.sort.col + 1; c < columns.Count; c++ {
		if !m.shape.empty[c] {
			return sorting{col: c}
		}
	}
	return listed
}

// setSort reorders the rows: the cached rows are reordered, none rebuilt
// or restyled; the cursor stays on its machine.
func (m *Model) setSort(s sorting) {
	m.sort = s
	m.table.SetSort(s.col, s.desc)
	m.setRows()
}

// Sorting names the order of the rows: the column's title and whether it
// is descending; "" when the rows are as listed.
func (m *Model) Sorting() (string, bool) {
	if m.sort.col < 0 {
		return "", false
	}
	return tableColumns(m.shape)[m.sort.col].Title, m.sort.desc
}

// columnsOff is how many columns the pane's width leaves out on each side.
func (m *Model) columnsOff() (left, right int) {
	w, _ := m.Size()
	return m.table.ColumnsOff(w)
}

// clampScroll keeps the sideways scroll where it shows something: it
// scrolls back while the columns on the left fit again without pushing
// any out on the right (the pane grew, or columns emptied).
func (m *Model) clampScroll() {
	for s := m.table.Scroll(); s > 0; s-- {
		m.table.SetScroll(s - 1)
		if _, right := m.columnsOff(); right > 0 {
			m.table.SetScroll(s)
			return
		}
	}
}

// openDescribe opens the describe view of machine id and asks the root
// for the machine.
func (m *Model) openDescribe(id string) tea.Cmd {
	m.asked++
	m.describe = newDescribe(id, m.asked, m.ctx.Themed())
	width, height := m.Size()
	m.describe.setSize(width, height, m.ctx.Theme)
	r := DescribeRequest{MachineID: id, Req: m.asked}
	return func() tea.Msg { return r }
}

func (m *Model) updateDescribe(km tea.KeyMsg) tea.Cmd {
	k := *m.ctx.Keys
	d := m.describe
	if !d.searching() {
		switch {
		case key.Matches(km, k.Back):
			m.describe = nil
			return nil
		case key.Matches(km, k.Describe):
			return m.openDescribe(d.id) // ask again
		case key.Matches(km, k.Copy):
			return copyID(d.id)
		}
	}
	cmd, _ := d.handleKey(km, k, m.ctx.Theme)
	return cmd
}

func copyID(id string) tea.Cmd {
	return func() tea.Msg { return pane.CopyText{Text: id, What: "machine id"} }
}

// mouse scrolls with the wheel and selects the row clicked; x and y are
// inside the pane.
func (m *Model) mouse(msg tea.MouseMsg) {
	step := pane.Wheel(msg)
	switch {
	case m.describe != nil && step != 0:
		m.describe.scroll(step)
	case m.detail != nil && step != 0:
		m.detail.scroll(step)
	case m.describe != nil || m.detail != nil:
	case step != 0:
		m.table.Move(step)
	case msg.Button == tea.MouseButtonLeft && msg.Action == tea.MouseActionPress:
		_, h := m.Size()
		top := m.topLines(h)
		if r, ok := m.table.RowAt(msg.Y-top, m.tableHeight(h)); ok {
			m.table.Select(r.ID)
		}
	}
}

// updateFilter types into the filter: esc clears it, enter keeps it.
func (m *Model) updateFilter(km tea.KeyMsg) tea.Cmd {
	k := *m.ctx.Keys
	switch {
	case key.Matches(km, k.Back):
		m.filter.SetValue("")
		m.table.SetFilter("")
		m.stopFiltering()
		return nil
	case key.Matches(km, k.Enter):
		m.stopFiltering()
		return nil
	case km.Type != tea.KeyRunes && (key.Matches(km, k.Up) || key.Matches(km, k.Down)):
		m.table.HandleKey(km, k) // the arrows move; k and j are typed
		return nil
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(km)
	m.table.SetFilter(m.filter.Value())
	return cmd
}

func (m *Model) stopFiltering() {
	m.filter.Blur()
	m.fitTable()
}
