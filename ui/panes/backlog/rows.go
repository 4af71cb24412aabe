package backlog

import (
	"strconv"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/table"
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

// cachedRow is one machine's table row kept between refreshes while what
// it was built from holds: the machine's row hash, its probe, the layout.
type cachedRow struct {
	hash     uint64
	probedAt time.Time
	level    diagnose.Level
	state    string
	own      bool
	row      table.Row
	seen     int // the refresh that last listed the machine
}

// rowCache keeps the rows by machine id, so a refresh of 10,000 machines
// whose sockets did not change formats none of them.
type rowCache struct {
	rows    map[string]*cachedRow
	refresh int
}

// rows are the table rows of ms (in order), machines the model's machines
// (the same order, for their row hashes).
func (cache *rowCache) build(t *theme.Theme, states *table.StateStyles, machines []snapshot.Machine, ms []diagnose.BacklogMachine, own bool) []table.Row {
	if cache.rows == nil {
		cache.rows = make(map[string]*cachedRow, len(ms))
	}
	cache.refresh++
	out := make([]table.Row, len(ms))
	for i, m := range ms {
		c := cache.rows[m.ID]
		if c == nil || c.hash != machines[i].Hash || !c.probedAt.Equal(m.ProbedAt) || c.level != m.Level() || c.state != m.State || c.own != own {
			c = &cachedRow{hash: machines[i].Hash, probedAt: m.ProbedAt, level: m.Level(), state: m.State, own: own,
				row: newRow(m).tableRow(t, states, own)}
			cache.rows[m.ID] = c
		}
		c.seen = cache.refresh
		out[i] = c.row
	}
	if len(cache.rows) > len(ms) { // some machines are gone
		for id, c := range cache.rows {
			if c.seen != cache.refresh {
				delete(cache.rows, id)
			}
		}
	}
	return out
}

// ages is the table's Live func: the probe's age as of now.
func (cache *rowCache) ages(now time.Time, own bool) table.Live {
	col := 3
	if own {
		col = 6
	}
	return func(r table.Row, c int) (string, bool) {
		cr := cache.rows[r.ID]
		if cr == nil || c != col {
			return "", false
		}
		if cr.probedAt.IsZero() {
			return words.Missing, true
		}
		return words.Duration(now.Sub(cr.probedAt), words.Whole) + " ago", true
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
