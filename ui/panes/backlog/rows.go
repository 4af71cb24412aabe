package backlog

import (
	"strconv"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Columns put the backlog first: a narrow table hides the highest Drop
// first, so machine, state, CLOSE_WAIT and the hard limit stay. When every machine's
// service applies the same limits, they are said once above the table
// (sharedColumns); otherwise each row has them (ownColumns).
var (
	sharedColumns = []table.Column{
		{Title: "machine", Width: 14},
		{Title: "state", Width: 11},
		{Title: "CLOSE_WAIT", Width: 10, Align: table.AlignRight},
		{Title: "probed", Width: 8, Align: table.AlignRight, Drop: 1, Live: true},
		{Title: "other sockets", Width: 16, Flex: 1, Drop: 2},
	}
	ownColumns = []table.Column{
		{Title: "machine", Width: 14},
		{Title: "state", Width: 11},
		{Title: "CLOSE_WAIT", Width: 10, Align: table.AlignRight},
		{Title: "hard", Width: 5, Align: table.AlignRight},
		{Title: "soft", Width: 5, Align: table.AlignRight, Drop: 3},
		{Title: "type", Width: 11, Drop: 4},
		{Title: "probed", Width: 8, Align: table.AlignRight, Drop: 1, Live: true},
		{Title: "other sockets", Width: 16, Flex: 1, Drop: 2},
	}
)

// sharedLimits is the concurrency every served machine applies, if they all
// apply the same (ok false otherwise, or with no served machine).
func sharedLimits(ms []diagnose.BacklogMachine) (diagnose.Concurrency, bool) {
	var c diagnose.Concurrency
	n := 0
	for _, m := range ms {
		if !m.Served {
			continue
		}
		if n > 0 && (m.Conc.Kind() != c.Kind() || m.Conc.SoftLimit() != c.SoftLimit() || max(m.Conc.Hard, 0) != max(c.Hard, 0)) {
			return diagnose.Concurrency{}, false
		}
		c, n = m.Conc, n+1
	}
	return c, n > 0
}

// row is one machine, plain: the table styles only the rows it draws.
type row struct {
	id, state         string
	level             diagnose.Level
	closeWait         string
	hard, soft, kind  string
	hardNone          bool
	sockets           string
	dimProbe, problem bool
}

// newRow is m's row; its probe's age is not in it (see rowCache.ages).
func newRow(m diagnose.BacklogMachine) row {
	r := row{id: m.ID, state: m.State, level: m.Level(), hard: m.Conc.HardLimit(), hardNone: m.Conc.Hard <= 0,
		soft: strconv.Itoa(m.Conc.SoftLimit()), kind: m.Conc.Kind(), closeWait: words.Missing}
	if !m.Served {
		r.hard, r.soft, r.kind, r.hardNone = words.Missing, words.Missing, "no service", false
	}
	switch {
	case m.ProbeErr != "":
		r.sockets, r.problem = "probe failed", true // the error is in the drill-down
	case m.Sockets != nil:
		r.closeWait = words.Thousands(m.CloseWait())
		others := make(map[string]int, len(m.Sockets))
		for state, n := range m.Sockets {
			if state != "CLOSE_WAIT" {
				others[state] = n
			}
		}
		r.sockets = diagnose.SocketStates(others)
		if r.sockets == "" {
			r.sockets = "none"
		}
	case m.State != "started":
		r.sockets, r.dimProbe = "not running", true
	default:
		r.sockets, r.dimProbe = "not probed yet", true
	}
	return r
}

// entry is one machine's table row kept between refreshes while what it
// was built from holds: the machine's row hash, its probe, the layout. Its
// cells are formatted when the row is first drawn or searched (Format).
type entry struct {
	cache  *rowCache
	hash   uint64
	config *snapshot.Config // the listing's, kept by the model while the machine's entry is unchanged
	bm     diagnose.BacklogMachine
	sample bool // a socket probe of the machine was held when bm was made
	own    bool
	row    *table.Row // nil until drawn or searched
}

// rowCache keeps the rows by machine, in the listing's order, so a refresh
// of 10,000 machines whose sockets did not change formats none of them,
// and one of 10,000 changed machines formats those drawn.
type rowCache struct {
	kept   pane.Kept[entry]
	th     *theme.Theme
	states *table.StateStyles
	rows   []table.Row               // reused for the table's rows
	ms     []diagnose.BacklogMachine // reused for the verdict
}

// machines works out what the backlog verdict weighs per machine (as
// App.BacklogMachines does), keeping the entry of every machine whose row
// hash held and that has no socket probe: one pass, and no machine read
// again while nothing it says changed.
func (cache *rowCache) machines(a *snapshot.App) []diagnose.BacklogMachine {
	probes := len(a.Sockets) > 0
	entries := cache.kept.Refresh(len(a.Machines), func(i int) string { return a.Machines[i].ID }, func(i int, old, e *entry) {
		m := &a.Machines[i]
		sample := false
		if probes {
			_, sample = a.Sockets[m.ID]
		}
		// The row hash does not cover the limits: the config, converted
		// once per version of the machine, does.
		// A machine with no socket probe is its id, state and limits: a
		// rename (a new hash) leaves it as it was.
		if old != nil && old.config == m.Config && !sample && !old.sample &&
			(old.hash == m.Hash || old.bm.ID == m.ID && old.bm.State == m.State) {
			*e = *old
			e.hash = m.Hash
			return
		}
		*e = entry{cache: cache, hash: m.Hash, config: m.Config, bm: a.BacklogOf(*m), sample: sample}
		if old != nil && sameRow(old.bm, e.bm) {
			e.row, e.own = old.row, old.own
		}
	})
	cache.ms = cache.ms[:0]
	for i := range entries {
		cache.ms = append(cache.ms, entries[i].bm)
	}
	return cache.ms
}

// sameRow reports whether x and y make the same row: the same machine,
// state, limits and probe.
func sameRow(x, y diagnose.BacklogMachine) bool {
	return x.ID == y.ID && x.State == y.State && x.Served == y.Served && x.Conc == y.Conc &&
		x.ProbedAt.Equal(y.ProbedAt) && x.ProbeErr == y.ProbeErr && (x.Sockets == nil) == (y.Sockets == nil) && x.Level() == y.Level()
}

// build is the table rows of the last machines, with their own limits
// when own says so.
func (cache *rowCache) build(t *theme.Theme, states *table.StateStyles, own bool) []table.Row {
	cache.th, cache.states = t, states
	entries := cache.kept.Entries()
	cache.rows = cache.rows[:0]
	for i := range entries {
		e := &entries[i]
		if e.own != own {
			e.own, e.row = own, nil
		}
		cache.rows = append(cache.rows, table.Row{ID: e.bm.ID, Lazy: e})
	}
	return cache.rows
}

// release lets the previous listing's machines go once the table holds
// the new rows.
func (cache *rowCache) release() { cache.kept.Release() }

// Format is the machine's row (table.Lazy), formatted once per entry.
func (e *entry) Format() table.Row {
	if e.row == nil {
		r := newRow(e.bm).tableRow(e.cache.th, e.cache.states, e.own)
		e.row = &r
	}
	return *e.row
}

// ages is the table's Live func: the probe's age as of now.
func (cache *rowCache) ages(now time.Time, own bool) table.Live {
	col := 3
	if own {
		col = 6
	}
	return func(r table.Row, c int) (string, bool) {
		e, ok := r.Lazy.(*entry)
		if !ok || c != col {
			return "", false
		}
		if e.bm.ProbedAt.IsZero() {
			return words.Missing, true
		}
		return words.Duration(now.Sub(e.bm.ProbedAt), words.Whole) + " ago", true
	}
}

// tableRow is r as plain cells and the styles the table applies to the
// rows on screen; own adds its limits.
func (r row) tableRow(t *theme.Theme, states *table.StateStyles, own bool) table.Row {
	state, stateStyle := states.Look(r.state)
	cw := r.closeWait
	var cwStyle *lipgloss.Style
	switch r.level {
	case diagnose.Fail:
		cw, cwStyle = theme.GlyphFailed+" "+cw, &t.Fail
	case diagnose.Warn:
		cw, cwStyle = "! "+cw, &t.Warn
	}
	var hardStyle, socketsStyle *lipgloss.Style
	if r.hardNone {
		hardStyle = &t.Warn
	}
	switch {
	case r.problem:
		socketsStyle = &t.Unknown
	case r.dimProbe:
		socketsStyle = &t.Dim
	}
	if !own {
		cells := []string{r.id, state, cw, "", r.sockets}
		return table.Row{ID: r.id, Cells: cells, Styles: []*lipgloss.Style{nil, stateStyle, cwStyle, nil, socketsStyle}, Search: table.SearchText(cells)}
	}
	cells := []string{r.id, state, cw, r.hard, r.soft, r.kind, "", r.sockets}
	return table.Row{ID: r.id, Cells: cells, Styles: []*lipgloss.Style{nil, stateStyle, cwStyle, hardStyle, nil, nil, nil, socketsStyle}, Search: table.SearchText(cells)}
}
