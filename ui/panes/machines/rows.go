package machines

import (
	"slices"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/pane"
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

// entry is one machine's row between refreshes, kept while its row hash
// holds: the listing's machine and what has been worked out of it so far.
// Its cells are formatted when the row is first drawn or searched (Format),
// its cells' widths when the shape needs them: a refresh of 10,000
// changed machines formats the twenty on screen.
type entry struct {
	m       *snapshot.Machine // in the listing's slice, which a listing replaces and never writes (App.ApplyConverted)
	cache   *rowCache
	hash    uint64
	changed bool // the hash differs from the previous listing's, or the machine is new

	measured, filled uint16               // by column bit: measured; of those, the cells that say something
	widths           [columns.Count]uint8 // each measured cell's width, at most 255

	row *formatted // nil until drawn or searched

	// What the machine alone cannot say, and its hash does not cover: its
	// app's alerts of it (a socket backlog), for a probed machine, as of
	// this refresh. drawn is its row with them, once formatted.
	probed     bool
	alert      string
	alertStyle *lipgloss.Style
	drawn      *table.Row
}

// formatted is a machine's row as drawn, but for its age (a Live cell).
type formatted struct {
	row   table.Row
	since time.Time // the age column's start
}

// rowCache keeps the rows of the last listing, in its order, so a refresh
// of 10,000 unchanged machines formats nothing, and a refresh of changed
// ones formats what is drawn. The rows the table holds point into kept.
type rowCache struct {
	kept    pane.Kept[entry]
	entries []entry // this refresh's, as listed (kept's)
	st      *styles
	order   []*entry    // this refresh's rows, in the order drawn (reused)
	out     []table.Row // reused for the table's rows
}

// shape is what the rows need of the columns: which have nothing in any
// row (hidden), and the widest cell of each, up to the column's width
// (wider cells are cut).
type shape struct {
	empty [columns.Count]bool
	width [columns.Count]int
}

// buildRows turns the app's machines into table rows in the sorting's
// order (their ages come at drawing time, see ages), reusing the entry of
// every machine whose hash did not change. It returns how many machines'
// hashes changed (or are new) since the last call (each row says whether
// its did, table.Row.Changed), and the rows' shape.
func buildRows(a *snapshot.App, st *styles, cache *rowCache, s sorting) (rows []table.Row, changed int, sh shape) {
	if a == nil {
		*cache = rowCache{}
		return nil, 0, shape{}
	}
	cache.st = st
	known := len(cache.kept.Entries()) > 0
	cache.entries = cache.kept.Refresh(len(a.Machines), func(i int) string { return a.Machines[i].ID }, func(i int, old, e *entry) {
		m := &a.Machines[i]
		if old != nil && old.hash == m.Hash {
			*e = *old
			e.m, e.changed = m, false
			e.probed, e.alert, e.alertStyle, e.drawn = false, "", nil, nil // worked out again (shape)
			return
		}
		if known {
			changed++
		}
		*e = entry{m: m, cache: cache, hash: m.Hash, changed: known}
		if old != nil {
			e.inherit(old)
		}
	})
	sh = cache.shape(a)
	cache.sort(a, s)
	cache.out = cache.out[:0]
	for _, e := range cache.order {
		cache.out = append(cache.out, table.Row{ID: e.m.ID, Lazy: e, Changed: e.changed})
	}
	return cache.out, changed, sh
}

// release lets the previous listing's machines go once the table holds
// the new rows.
func (cache *rowCache) release() { cache.kept.Release() }

// shape measures the columns over every row, each column until one of its
// cells says something and one is as wide as the column: past that no
// row changes the shape. Probed machines' alerts are measured as drawn.
func (cache *rowCache) shape(a *snapshot.App) shape {
	var sh shape
	defs := columns.Machines()
	var open uint16 // the columns still measured
	for i := range sh.empty {
		sh.empty[i] = true
		open |= 1 << i
	}
	note := func(col int, w int, filled bool) {
		if filled {
			sh.empty[col] = false
		}
		sh.width[col] = max(sh.width[col], w)
		if !sh.empty[col] && (defs[col].Since != nil || sh.width[col] >= defs[col].Width) {
			open &^= 1 << col
		}
	}
	probes := len(a.Sockets) > 0
	for i := range cache.entries {
		e := &cache.entries[i]
		if probes {
			e.overlay(a)
		}
		for col := 0; open != 0 && col < columns.Count; col++ {
			if open&(1<<col) != 0 {
				w, filled := e.measure(col)
				note(col, w, filled)
			}
		}
		if open == 0 && !probes {
			break
		}
	}
	for i := range cache.entries {
		if e := &cache.entries[i]; e.probed && e.alert != "" {
			note(columns.Alert, cell.Width(e.alert), true)
		}
	}
	for i := range sh.width {
		sh.width[i] = min(sh.width[i], defs[i].Width)
	}
	if len(a.Machines) == 0 {
		sh.empty = [columns.Count]bool{} // no rows: the header still says what there will be
	}
	return sh
}

// measure is the width of the machine's cell in column col and whether it
// says something (see columns.Empty), worked out once per entry.
func (e *entry) measure(col int) (int, bool) {
	bit := uint16(1) << col
	if e.measured&bit == 0 {
		e.measured |= bit
		d := &columns.Machines()[col]
		var w int
		var filled bool
		switch {
		case d.Since != nil:
			filled = !d.Since(e.m).IsZero()
		case col == columns.State:
			// The pane's look: the state's glyph and word.
			filled = !columns.Empty(d.Text(nil, e.m))
			w = e.cache.st.states.Width(e.m.State)
		default:
			text := d.Text(nil, e.m)
			filled = !columns.Empty(text)
			if text == words.Missing {
				w = missingWidth // not ASCII: no need to measure it on every row
			} else {
				w = cell.Width(text)
			}
		}
		e.widths[col] = uint8(min(w, 255))
		if filled {
			e.filled |= bit
		}
	}
	return int(e.widths[col]), e.filled&bit != 0
}

var missingWidth = cell.Width(words.Missing)

// inherit takes from old, the entry of the same machine at the last
// listing, the measures of every cell whose text cannot differ: a listing
// where every machine was renamed measures one column again, not all.
func (e *entry) inherit(old *entry) {
	for col := range columns.Count {
		bit := uint16(1) << col
		if old.measured&bit != 0 && sameCell(col, old.m, e.m) {
			e.measured |= bit
			e.filled |= old.filled & bit
			e.widths[col] = old.widths[col]
		}
	}
}

// sameCell reports whether x and y say the same in column col, by what the
// column's text (sources/columns) reads of a machine (false: perhaps not).
// The columns left out read more (the alerts, the age) and are measured
// again.
func sameCell(col int, x, y *snapshot.Machine) bool {
	switch col {
	case columns.State:
		return x.State == y.State
	case columns.ID:
		return x.ID == y.ID
	case columns.Name:
		return x.Name == y.Name
	case columns.Region:
		return x.Region == y.Region
	case columns.Group:
		return x.ProcessGroup == y.ProcessGroup
	case columns.Image:
		return x.ImageDigest == y.ImageDigest
	case columns.Release:
		return x.Release == y.Release && x.FromRelease == y.FromRelease
	case columns.Autostop:
		return x.Config == y.Config
	case columns.Checks:
		if len(x.Checks) == len(y.Checks) && (len(x.Checks) == 0 || &x.Checks[0] == &y.Checks[0]) {
			return true // one slice: a converter hands unchanged checks again
		}
		xp, xt := x.CheckCounts()
		yp, yt := y.CheckCounts()
		return xp == yp && xt == yt
	case columns.Event:
		if len(x.Events) == 0 || len(y.Events) == 0 {
			return len(x.Events) == len(y.Events)
		}
		xe, ye := &x.Events[0], &y.Events[0] // NewestEvent's
		return xe == ye || xe.Type == ye.Type && xe.Status == ye.Status && xe.Source == ye.Source
	}
	return false
}

// overlay notes, for a probed machine, its ALERT cell as its app knows it
// (a backlog too); only probed machines can have one.
func (e *entry) overlay(a *snapshot.App) {
	if _, probed := a.Sockets[e.m.ID]; probed {
		e.probed = true
		e.alert = columns.Machines()[columns.Alert].Text(a, e.m)
		e.alertStyle = alertStyle(a, e.m, e.cache.st)
	}
}

// Format is the machine's row as drawn (table.Lazy), but for its age.
func (e *entry) Format() table.Row {
	r := e.format().row
	if !e.probed {
		return r
	}
	if e.drawn == nil {
		d := withAlert(r, e.alert, e.alertStyle)
		e.drawn = &d
	}
	return *e.drawn
}

// format is the machine's own row, formatted once per hash.
func (e *entry) format() *formatted {
	if e.row == nil {
		e.row = newFormatted(e.m, e.cache.st)
	}
	return e.row
}

// sort puts this refresh's rows in the sorting's order; as listed, they
// keep the listing's.
func (cache *rowCache) sort(a *snapshot.App, s sorting) {
	cache.order = cache.order[:0]
	for i := range cache.entries {
		cache.order = append(cache.order, &cache.entries[i])
	}
	if s.col < 0 || s.col >= columns.Count {
		return
	}
	col := columns.Machines()[s.col]
	slices.SortFunc(cache.order, func(x, y *entry) int { return col.Cmp(a, x.m, y.m, s.desc) })
}

// ages is the table's Live func: a row's age as of now.
func (cache *rowCache) ages(now time.Time) table.Live {
	return func(r table.Row, col int) (string, bool) {
		e, ok := r.Lazy.(*entry)
		if !ok || col != columns.Age {
			return "", false
		}
		return columns.AgeText(e.format().since, now), true
	}
}

// buildRow is one machine's row with its age as of now, as drawn.
func buildRow(m snapshot.Machine, st *styles, now time.Time) table.Row {
	var cache rowCache
	rows, _, _ := buildRows(&snapshot.App{Machines: []snapshot.Machine{m}}, st, &cache, listed)
	r := rows[0].Lazy.Format()
	r.ID = rows[0].ID
	r.Cells = append([]string(nil), r.Cells...)
	r.Cells[columns.Age], _ = cache.ages(now)(rows[0], columns.Age)
	return r
}

// newFormatted formats everything of a row but its age, from the one
// column definition (sources/columns); the filter's search text leaves the
// age out (it changes on every refresh).
func newFormatted(m *snapshot.Machine, st *styles) *formatted {
	f := &formatted{}
	cells := make([]string, columns.Count)
	looks := make([]*lipgloss.Style, columns.Count)
	for i, col := range columns.Machines() {
		if col.Since != nil {
			f.since = col.Since(m)
			continue
		}
		cells[i] = col.Text(nil, m)
		if cells[i] == words.Missing {
			looks[i] = &st.th.Dim
		}
	}
	// The pane's looks over the same words: the state's glyph and colour,
	// the alert's level, the checks' worst.
	cells[columns.State], looks[columns.State] = st.states.Look(m.State)
	if s := alertStyle(nil, m, st); s != nil {
		looks[columns.Alert] = s
	}
	looks[columns.Checks] = checksStyle(m, st.th)
	f.row = table.Row{Cells: cells, Styles: looks, Search: table.SearchText(cells)}
	if m.Phase == diagnose.Gone {
		// A destroyed or superseded machine is history, not a fault.
		f.row.Style = &st.th.Dim
	}
	return f
}

// withAlert is r with its ALERT cell showing the machine's alerts as its
// app knows them (a backlog too: text, in style); r's cells are the
// entry's, so they are copied when they change.
func withAlert(r table.Row, text string, style *lipgloss.Style) table.Row {
	if text == r.Cells[columns.Alert] {
		return r
	}
	r.Cells = append([]string(nil), r.Cells...)
	r.Styles = append([]*lipgloss.Style(nil), r.Styles...)
	r.Cells[columns.Alert], r.Styles[columns.Alert] = text, style
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
