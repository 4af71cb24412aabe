package machines

import (
	"slices"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/theme"
)

// styles are the cell styles rows point at: the theme's own, and one
// per machine state. Cells stay plain; the table styles the rows on screen
// (a listing of 10,000 machines styles none of them).
type styles struct {
	th     *theme.Theme
	states *table.StateStyles
	levels map[diagnose.Level]*lipgloss.Style
}

func newStyles(th *theme.Theme) *styles {
	return &styles{th: th, states: table.NewStateStyles(th), levels: map[diagnose.Level]*lipgloss.Style{}}
}

// level is the style of a check or alert level, one per level.
func (s *styles) level(l diagnose.Level) *lipgloss.Style {
	st, ok := s.levels[l]
	if !ok {
		look := s.th.Level(l)
		st = &look.Style
		s.levels[l] = st
	}
	return st
}

// cachedRow is one machine's row kept between refreshes while its row
// hash holds. Its age is not a cell: View writes it for the rows on
// screen, as of the frame (see ages).
type cachedRow struct {
	hash   uint64
	m      snapshot.Machine    // as listed when the row was built: what sorting compares
	row    table.Row           // cells and styles owned by the cache
	drawn  table.Row           // row, with what the app adds this refresh (a backlog alert)
	since  time.Time           // the age column's start
	filled [columns.Count]bool // which cells say something (see columns.Empty)
	widths [columns.Count]int  // each cell's width
	seen   int                 // the refresh that last listed the machine
}

// rowCache keeps the rows by machine id, so a refresh of 10,000 unchanged
// machines formats nothing.
type rowCache struct {
	rows    map[string]*cachedRow
	refresh int
	order   []*cachedRow // this refresh's rows, in the order drawn (reused)
	out     []table.Row  // reused for the table's rows
}

// shape is what the rows need of the columns: which have nothing in any
// row (hidden), and the widest cell of each.
type shape struct {
	empty [columns.Count]bool
	width [columns.Count]int
}

// buildRows turns the app's machines into table rows in the sorting's
// order (their ages come at drawing time, see ages), reusing the cached row
// of every machine whose hash did not change. It returns the ids whose hash
// changed (or that are new) since the last call, and the rows' shape.
func buildRows(a *snapshot.App, st *styles, cache *rowCache, s sorting) (rows []table.Row, changed []string, sh shape) {
	for i := range sh.empty {
		sh.empty[i] = true
	}
	if a == nil {
		*cache = rowCache{}
		return nil, nil, shape{}
	}
	if cache.rows == nil {
		cache.rows = make(map[string]*cachedRow, len(a.Machines))
	}
	cache.refresh++
	known := len(cache.rows) > 0
	cache.order = cache.order[:0]
	for i := range a.Machines {
		m := &a.Machines[i]
		c := cache.rows[m.ID]
		if c == nil || c.hash != m.Hash {
			if known {
				changed = append(changed, m.ID)
			}
			c = newCachedRow(m, st)
			cache.rows[m.ID] = c
		}
		c.seen = cache.refresh
		cache.order = append(cache.order, c)
		for i, f := range c.filled {
			if f {
				sh.empty[i] = false
			}
			sh.width[i] = max(sh.width[i], c.widths[i])
		}
		// What the machine alone cannot say, and its hash does not cover: a
		// socket backlog (the Backlog pane's thresholds). Only probed
		// machines can have one.
		c.drawn = c.row
		if _, probed := a.Sockets[m.ID]; probed {
			c.drawn = withAlert(c.row, a, m, st)
			if text := c.drawn.Cells[columns.Alert]; text != "" {
				sh.empty[columns.Alert] = false
				sh.width[columns.Alert] = max(sh.width[columns.Alert], ansi.StringWidth(text))
			}
		}
	}
	if len(a.Machines) == 0 {
		sh.empty = [columns.Count]bool{} // no rows: the header still says what there will be
	}
	if len(cache.rows) > len(a.Machines) { // some machines are gone
		for id, c := range cache.rows {
			if c.seen != cache.refresh {
				delete(cache.rows, id)
			}
		}
	}
	cache.sort(a, s)
	cache.out = cache.out[:0]
	for _, c := range cache.order {
		cache.out = append(cache.out, c.drawn)
	}
	return cache.out, changed, sh
}

// sort puts this refresh's rows in the sorting's order; as listed, they
// keep the listing's.
func (cache *rowCache) sort(a *snapshot.App, s sorting) {
	if s.col < 0 || s.col >= columns.Count {
		return
	}
	col := columns.Machines()[s.col]
	slices.SortFunc(cache.order, func(x, y *cachedRow) int { return col.Cmp(a, &x.m, &y.m, s.desc) })
}

// ages is the table's Live func: a row's age as of now.
func (cache *rowCache) ages(now time.Time) table.Live {
	return func(r table.Row, col int) (string, bool) {
		c := cache.rows[r.ID]
		if c == nil || col != columns.Age {
			return "", false
		}
		return columns.AgeText(c.since, now), true
	}
}

// buildRow is one machine's row with its age as of now, as drawn.
func buildRow(m snapshot.Machine, st *styles, now time.Time) table.Row {
	var cache rowCache
	rows, _, _ := buildRows(&snapshot.App{Machines: []snapshot.Machine{m}}, st, &cache, listed)
	r := rows[0]
	r.Cells = append([]string(nil), r.Cells...)
	r.Cells[columns.Age], _ = cache.ages(now)(r, columns.Age)
	return r
}

// newCachedRow formats everything of a row but its age, from the one
// column definition (sources/columns); the filter's search text leaves the
// age out (it changes on every refresh).
func newCachedRow(m *snapshot.Machine, st *styles) *cachedRow {
	c := &cachedRow{hash: m.Hash, m: *m}
	cells := make([]string, columns.Count)
	looks := make([]*lipgloss.Style, columns.Count)
	for i, col := range columns.Machines() {
		if col.Since != nil {
			c.since = col.Since(m)
			c.filled[i] = !c.since.IsZero()
			continue
		}
		cells[i] = col.Text(nil, m)
		c.filled[i] = !columns.Empty(cells[i])
		c.widths[i] = ansi.StringWidth(cells[i])
		if cells[i] == words.Missing {
			looks[i] = &st.th.Dim
		}
	}
	// The pane's looks over the same words: the state's glyph and colour,
	// the alert's level, the checks' worst.
	cells[columns.State], looks[columns.State] = st.states.Look(m.State)
	c.widths[columns.State] = ansi.StringWidth(cells[columns.State])
	if s := alertStyle(nil, m, st); s != nil {
		looks[columns.Alert] = s
	}
	looks[columns.Checks] = checksStyle(m, st.th)
	c.row = table.Row{ID: m.ID, Cells: cells, Styles: looks, Search: table.SearchText(cells)}
	if m.Phase == diagnose.Gone {
		// A destroyed or superseded machine is history, not a fault.
		c.row.Style = &st.th.Dim
	}
	return c
}

// withAlert is r with its ALERT cell showing the machine's alerts as its
// app knows them (a backlog too); r's cells are the cache's, so they are
// copied when they change.
func withAlert(r table.Row, a *snapshot.App, m *snapshot.Machine, st *styles) table.Row {
	text := columns.Machines()[columns.Alert].Text(a, m)
	if text == r.Cells[columns.Alert] {
		return r
	}
	r.Cells = append([]string(nil), r.Cells...)
	r.Styles = append([]*lipgloss.Style(nil), r.Styles...)
	r.Cells[columns.Alert], r.Styles[columns.Alert] = text, alertStyle(a, m, st)
	return r
}

// alertStyle is the ALERT cell's look: its top alert's level (as a knows
// it; nil: the machine's own alerts), else its place in a rollout.
func alertStyle(a *snapshot.App, m *snapshot.Machine, st *styles) *lipgloss.Style {
	if l, ok := columns.TopAlert(a, m); ok {
		return st.level(l)
	}
	if m.Rollout != 0 {
		return rolloutStyle(m.Rollout, st.th)
	}
	return nil
}

// rolloutStyle colours a machine's place in a rollout (the ALERT column's rollout text).
func rolloutStyle(s verdict.Status, th *theme.Theme) *lipgloss.Style {
	switch s {
	case verdict.StatusLooking:
		return &th.Warn
	case verdict.StatusLive:
		return &th.Pass
	case verdict.StatusIdle, verdict.StatusOld:
		return &th.Dim
	case verdict.StatusFailed:
		return &th.Fail
	}
	return nil
}

// checksStyle colours "passing/total" by the worst check.
func checksStyle(m *snapshot.Machine, th *theme.Theme) *lipgloss.Style {
	passing, total := m.CheckCounts()
	switch {
	case total == 0:
		return &th.Dim
	case passing == total:
		return &th.Pass
	case m.State != "started":
		// A machine that is not running keeps its checks, not passing: that
		// is its state, not a fault, so it is not drawn as one.
		return &th.Dim
	}
	return &th.Warn
}
