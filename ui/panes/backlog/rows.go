package backlog

import (
	"fmt"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
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
		{Title: "probed", Width: 8, Align: table.AlignRight, Drop: 1},
		{Title: "other sockets", Width: 16, Flex: 1, Drop: 2},
	}
	ownColumns = []table.Column{
		{Title: "machine", Width: 14},
		{Title: "state", Width: 11},
		{Title: "CLOSE_WAIT", Width: 10, Align: table.AlignRight},
		{Title: "hard", Width: 5, Align: table.AlignRight},
		{Title: "soft", Width: 5, Align: table.AlignRight, Drop: 3},
		{Title: "type", Width: 11, Drop: 4},
		{Title: "probed", Width: 8, Align: table.AlignRight, Drop: 1},
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
		if n > 0 && (m.Conc.Kind() != c.Kind() || m.Conc.SoftLimit() != c.SoftLimit() || m.Conc.HardLimit() != c.HardLimit()) {
			return diagnose.Concurrency{}, false
		}
		c, n = m.Conc, n+1
	}
	return c, n > 0
}

// row is one machine, plain: View styles only the rows it draws.
type row struct {
	id, state         string
	level             diagnose.Level
	closeWait         string
	hard, soft, kind  string
	hardNone          bool
	probed, sockets   string
	dimProbe, problem bool
}

func buildRows(ms []diagnose.BacklogMachine, now time.Time) []row {
	out := make([]row, 0, len(ms))
	for _, m := range ms {
		r := row{id: m.ID, state: m.State, level: m.Level(), hard: m.Conc.HardLimit(), hardNone: m.Conc.Hard <= 0,
			soft: fmt.Sprint(m.Conc.SoftLimit()), kind: m.Conc.Kind(), closeWait: words.Missing, probed: words.Missing}
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
		if !m.ProbedAt.IsZero() {
			r.probed = cell.Duration(now.Sub(m.ProbedAt)) + " ago"
		}
		out = append(out, r)
	}
	return out
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
		return table.Row{ID: r.id, Cells: []string{r.id, state, cw, r.probed, r.sockets},
			Styles: []*lipgloss.Style{nil, stateStyle, cwStyle, nil, socketsStyle}}
	}
	return table.Row{ID: r.id, Cells: []string{r.id, state, cw, r.hard, r.soft, r.kind, r.probed, r.sockets},
		Styles: []*lipgloss.Style{nil, stateStyle, cwStyle, hardStyle, nil, nil, nil, socketsStyle}}
}
