package machines

import (
	"strconv"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/ui/components/cell"
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
// hash holds. Its two ages are not cells: View writes them for the rows on
// screen, as of the frame (see ages).
type cachedRow struct {
	hash    uint64
	row     table.Row // cells and styles owned by the cache
	event   string    // " type/status/source" after the newest event's age
	at      time.Time // the newest event's time
	updated time.Time // the machine's UpdatedAt
	seen    int       // the refresh that last listed the machine
}

// rowCache keeps the rows by machine id, so a refresh of 10,000 unchanged
// machines formats nothing.
type rowCache struct {
	rows    map[string]*cachedRow
	refresh int
}

// buildRows turns the app's machines into table rows (their ages come at
// drawing time, see ages), reusing the cached row of every machine whose hash did not change, and
// returns the ids whose hash changed (or that are new) since the last call.
func buildRows(a *snapshot.App, st *styles, cache *rowCache) (rows []table.Row, changed []string) {
	if a == nil {
		*cache = rowCache{}
		return nil, nil
	}
	if cache.rows == nil {
		cache.rows = make(map[string]*cachedRow, len(a.Machines))
	}
	cache.refresh++
	known := len(cache.rows) > 0
	rows = make([]table.Row, len(a.Machines))
	for i, m := range a.Machines {
		c := cache.rows[m.ID]
		if c == nil || c.hash != m.Hash {
			if known {
				changed = append(changed, m.ID)
			}
			c = newCachedRow(m, st)
			cache.rows[m.ID] = c
		}
		c.seen = cache.refresh
		rows[i] = c.row
		// What the machine alone cannot say, and its hash does not cover: a
		// socket backlog (the Backlog pane's thresholds). Only probed
		// machines can have one.
		if _, probed := a.Sockets[m.ID]; probed {
			rows[i] = withAlert(c.row, a.Alerts(m), st)
		}
	}
	if len(cache.rows) > len(a.Machines) { // some machines are gone
		for id, c := range cache.rows {
			if c.seen != cache.refresh {
				delete(cache.rows, id)
			}
		}
	}
	return rows, changed
}

// ages is the table's Live func: a row's two ages as of now.
func (cache *rowCache) ages(now time.Time) table.Live {
	return func(r table.Row, col int) (string, bool) {
		c := cache.rows[r.ID]
		if c == nil {
			return "", false
		}
		switch col {
		case colEvent:
			if c.event == "" {
				return "", true
			}
			return cell.Duration(now.Sub(c.at)) + c.event, true
		case colUpdated:
			return updatedAgo(c.updated, now), true
		}
		return "", false
	}
}

// buildRow is one machine's row with its ages as of now, as drawn.
func buildRow(m snapshot.Machine, st *styles, now time.Time) table.Row {
	var cache rowCache
	rows, _ := buildRows(&snapshot.App{Machines: []snapshot.Machine{m}}, st, &cache)
	r := rows[0]
	r.Cells = append([]string(nil), r.Cells...)
	live := cache.ages(now)
	for _, col := range []int{colEvent, colUpdated} {
		r.Cells[col], _ = live(r, col)
	}
	return r
}

// newCachedRow formats everything of a row but its ages; the filter's
// search text leaves the ages out too (they change on every refresh).
func newCachedRow(m snapshot.Machine, st *styles) *cachedRow {
	cells := make([]string, numCols)
	looks := make([]*lipgloss.Style, numCols)
	cells[colState], looks[colState] = st.states.Look(m.State)
	cells[colID] = m.ID
	cells[colAlert], looks[colAlert] = alertCell(m, st)
	if cells[colAlert] == "" && m.Rollout != 0 {
		cells[colAlert], looks[colAlert] = rolloutCell(m, st.th)
	}
	cells[colRegion] = m.Region
	cells[colChecks], looks[colChecks] = checksCell(m, st.th)
	cells[colName] = m.Name
	cells[colGroup] = m.ProcessGroup
	if m.Release != "" {
		cells[colRelease] = "v" + m.Release
		if m.FromRelease != "" && m.FromRelease != m.Release {
			cells[colRelease] = "v" + m.FromRelease + "→v" + m.Release // a deploy replaced it
		}
	}
	cells[colImage] = snapshot.ShortDigest(m.ImageDigest)
	cells[colAutostop] = autostop(m)
	c := &cachedRow{hash: m.Hash, updated: m.UpdatedAt,
		row: table.Row{ID: m.ID, Cells: cells, Styles: looks, Search: table.SearchText(cells)}}
	if e, ok := m.NewestEvent(); ok {
		// Age first: a narrow column cuts the source, not the age.
		c.event, c.at = " "+e.Type+"/"+e.Status+"/"+e.Source, e.At
	}
	if m.Phase == diagnose.Gone {
		// A destroyed or superseded machine is history, not a fault.
		c.row.Style = &st.th.Dim
	}
	return c
}

// alertCell is the machine's most severe alert (snapshot.Machine.Alerts,
// the list status --json reports), in its level's style.
func alertCell(m snapshot.Machine, st *styles) (string, *lipgloss.Style) {
	return alertOf(m.Alerts(), st)
}

// alertOf is the most severe of alerts, in its level's style.
func alertOf(alerts []snapshot.Alert, st *styles) (string, *lipgloss.Style) {
	if len(alerts) == 0 {
		return "", nil
	}
	a := alerts[0]
	return a.Level.Glyph() + " " + a.Text, st.level(a.Level)
}

// withAlert is r with its ALERT cell showing the most severe of alerts; r's
// cells are the cache's, so they are copied first.
func withAlert(r table.Row, alerts []snapshot.Alert, st *styles) table.Row {
	if len(alerts) == 0 {
		return r // the machine's own (none, or the rollout's status) stands
	}
	text, look := alertOf(alerts, st)
	if text == r.Cells[colAlert] {
		return r
	}
	r.Cells = append([]string(nil), r.Cells...)
	r.Styles = append([]*lipgloss.Style(nil), r.Styles...)
	r.Cells[colAlert], r.Styles[colAlert] = text, look
	return r
}

// rolloutCell is where the machine stands while a deploy rolls the newest
// release out (snapshot.Machine.Rollout, set only then): booting it, being
// looked at, live, idle (stopped, not a crash), failed — or still on an
// older release. Alerts come first (alertCell), so a crash-looping machine
// reads "crash-loop".
func rolloutCell(m snapshot.Machine, th *theme.Theme) (string, *lipgloss.Style) {
	rel := "v" + m.Release
	switch m.Rollout {
	case verdict.StatusPending:
		return "… " + rel + " boot", nil
	case verdict.StatusLooking:
		return "◔ " + rel + " looks", &th.Warn
	case verdict.StatusLive:
		return diagnose.Pass.Glyph() + " " + rel + " live", &th.Pass
	case verdict.StatusIdle:
		return "– " + rel + " idle", &th.Dim
	case verdict.StatusFailed:
		return diagnose.Fail.Glyph() + " " + rel + " failed", &th.Fail
	case verdict.StatusOld:
		return "· " + rel + " old", &th.Dim
	}
	return "", nil
}

// autostop is the config's autostop mode; "off" when no config is reported,
// as the proxy treats such a machine.
func autostop(m snapshot.Machine) string {
	if m.Config == nil {
		return "off"
	}
	return m.Config.Autostop
}

// checksCell is "passing/total", coloured by the worst check.
func checksCell(m snapshot.Machine, th *theme.Theme) (string, *lipgloss.Style) {
	passing, total := m.CheckCounts()
	if total == 0 {
		return "–", &th.Dim
	}
	s := strconv.Itoa(passing) + "/" + strconv.Itoa(total)
	switch {
	case passing == total:
		return s, &th.Pass
	case m.State != "started":
		// A machine that is not running keeps its checks, not passing: that
		// is its state, not a fault, so it is not drawn as one.
		return s, &th.Dim
	}
	return s, &th.Warn
}

// updatedAgo is how long ago the platform last changed the machine.
func updatedAgo(updatedAt, now time.Time) string {
	if updatedAt.IsZero() {
		return ""
	}
	return cell.Duration(now.Sub(updatedAt)) + " ago"
}
