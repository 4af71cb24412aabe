package machines

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/pane"
)

// Model is the Machines pane. Use it through a pointer (New returns one).
type Model struct {
	ctx    pane.Context
	table  table.Model
	styles *styles
	rows   rowCache

	app        *snapshot.App
	now        time.Time
	lastListed time.Time // the listing the flash marks belong to

	filter    lineInput
	filtering bool

	detail *detail // non-nil while drilled into one machine
	width  int
	height int
	stale  bool
}

// ID is the machines pane's ID; the root addresses its replies with it.
const ID pane.ID = "machines"

// New returns an empty Machines pane.
func New(ctx pane.Context) *Model {
	t := table.New(columns(), table.StylesFrom(ctx.Theme))
	t.SetEmptyText("no machines yet")
	return &Model{ctx: ctx, table: t, styles: newStyles(ctx.Theme)}
}

var _ pane.Pane = (*Model)(nil)

// ID names the pane.
func (m *Model) ID() pane.ID { return ID }

// Title is the pane's name.
func (m *Model) Title() string { return "Machines" }

// Animating: the machines pane changes only when data arrives.
func (m *Model) Animating() bool { return false }

// Capturing reports whether the filter is being typed.
func (m *Model) Capturing() bool { return m.filtering }

// SetStale dims every row: the data is the last good listing, not a fresh one.
func (m *Model) SetStale(stale bool) {
	m.stale = stale
	m.table.SetDim(stale)
}

// SetSize tells the pane the body size it will be drawn at.
func (m *Model) SetSize(width, height int) {
	m.width, m.height = max(width, 0), max(height, 0)
	m.table.SetHeight(m.tableHeight(m.height))
	if m.detail != nil {
		m.detail.setPage(m.height)
	}
}

// Height is a line per machine (as filtered), the header and the position
// line, and the filter line while it is typed; in the drill-down, its lines.
func (m *Model) Height(int) int {
	if m.detail != nil {
		return len(m.detail.lines) + 2
	}
	h := max(m.table.Len(), 1) + 2
	if m.filtering {
		h++
	}
	if malformedNote(m.app) != "" {
		h++
	}
	return h
}

func (m *Model) tableHeight(h int) int {
	if m.filtering {
		h--
	}
	if malformedNote(m.app) != "" && h > 2 {
		h--
	}
	return max(h, 0)
}

// InDetail reports whether a machine's detail view is open.
func (m *Model) InDetail() bool { return m.detail != nil }

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
	rows, changed := buildRows(a, m.styles, &m.rows)
	m.table.SetRows(rows)
	m.table.SetHeight(m.tableHeight(m.height))
	if a != nil && !a.ListedAt.Equal(m.lastListed) {
		m.lastListed = a.ListedAt
		m.table.Flash(changed) // hashes change only with a listing
	}
	if m.detail != nil {
		m.detail.refresh(a, m.ctx.Theme, now)
	}
}

// Update handles keys while focused. s/S/Z on the selected (or drilled-into)
// machine return an ActionRequest for the root; the pane itself does nothing.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := *m.ctx.Keys
	if m.filtering {
		return m.updateFilter(km)
	}
	if m.detail != nil {
		if key.Matches(km, keys.Back) {
			m.detail = nil
			return nil
		}
		if a, ok := m.actionFor(km, keys); ok {
			return request(a, m.detail.id)
		}
		if key.Matches(km, keys.Logs) { // the logs view, on this machine
			id := m.detail.id
			return func() tea.Msg { return pane.ShowLogs{Machine: id, Why: "machine " + id} }
		}
		m.detail.handleKey(km, keys)
		return nil
	}
	if a, ok := m.actionFor(km, keys); ok {
		if id, ok := m.Selected(); ok {
			return request(a, id)
		}
		return nil
	}
	switch {
	case key.Matches(km, keys.Filter):
		m.filtering = true
		m.table.SetHeight(m.tableHeight(m.height))
		return nil
	case key.Matches(km, keys.Back):
		m.filter.SetValue("")
		m.table.SetFilter("")
	case key.Matches(km, keys.Enter):
		if id, ok := m.Selected(); ok {
			m.detail = newDetail(id, actionHint(keys))
			m.detail.refresh(m.app, m.ctx.Theme, m.now)
			m.detail.setPage(m.height)
		}
	default:
		m.table.HandleKey(km, keys)
	}
	return nil
}

// updateFilter types into the filter: esc clears it, enter keeps it.
func (m *Model) updateFilter(km tea.KeyMsg) tea.Cmd {
	switch km.Type {
	case tea.KeyEsc:
		m.filter.SetValue("")
		m.table.SetFilter("")
		m.stopFiltering()
		return nil
	case tea.KeyEnter:
		m.stopFiltering()
		return nil
	case tea.KeyUp, tea.KeyDown:
		m.table.HandleKey(km, *m.ctx.Keys)
		return nil
	}
	if m.filter.handle(km) {
		m.table.SetFilter(m.filter.Value())
	}
	return nil
}

func (m *Model) stopFiltering() {
	m.filtering = false
	m.table.SetHeight(m.tableHeight(m.height))
}
