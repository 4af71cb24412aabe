// Package columns is the one definition of the machines table: each
// column's title, width, priority at narrow widths, cell text and sort
// order. The Machines pane draws it and `flywake status` prints it, so the
// two say the same thing the same way (as k9s's render layer serves every
// view). The JSON of `status --json` is a separate, documented contract
// (sources/status).
//
// Cells are plain text from the model (sources/snapshot), which made every
// platform string inert already. Styling is the pane's.
package columns

import (
	"strconv"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/sources/words"
)

// The columns, in their order on screen: what answers "what is each
// machine doing?" leftmost.
const (
	State = iota
	ID
	Alert
	Name
	Region
	Checks
	Age
	Event
	Release
	Group
	Image
	Autostop
	Count // how many columns there are
)

// Column is one column of the machines table.
type Column struct {
	Title string
	// Width is the most cells a cell needs (longer ones are cut); a table
	// may draw the column narrower when no cell is that long, never below
	// its title. Min, when set, is how narrow a table short of room may cut it rather
	// than hide it (the newest event's source goes before the event).
	Width, Min int
	Right      bool // right-aligned (numbers, ages)
	// Drop orders the columns a narrow table hides: the highest goes
	// first; 0 never goes (the state and the id say which machine is what).
	Drop int
	// Text is the cell: "" where there is nothing to say (no alert),
	// words.Missing where a value is unknown or none. Unused for an age.
	// a is the machine's app, for what the machine alone cannot say (a
	// socket backlog); nil reads the machine alone.
	Text func(a *snapshot.App, m *snapshot.Machine) string
	// Since, set on an age column, is the time its age counts from (zero:
	// unknown); the cell is words.Duration of the time since, as of the
	// moment it is drawn.
	Since func(m *snapshot.Machine) time.Time
	// Compare orders two machines of app a by this column, ascending (nil:
	// by Text); a is what Text is given. Ties fall back to the machine id,
	// so every order is total.
	Compare func(a *snapshot.App, x, y *snapshot.Machine) int
}

// Machines is the table's columns, indexed by State, ID, … (read only).
func Machines() []Column { return machines[:] }

var machines = [Count]Column{
	State:  {Title: "STATE", Width: 12, Text: func(_ *snapshot.App, m *snapshot.Machine) string { return m.State }, Compare: byPhase},
	ID:     {Title: "ID", Width: 14, Text: func(_ *snapshot.App, m *snapshot.Machine) string { return m.ID }},
	Alert:  {Title: "ALERT", Width: 18, Drop: 1, Text: alertText, Compare: bySeverity},
	Name:   {Title: "NAME", Width: 24, Drop: 4, Text: func(_ *snapshot.App, m *snapshot.Machine) string { return words.OrMissing(m.Name) }},
	Region: {Title: "REGION", Width: 6, Drop: 6, Text: func(_ *snapshot.App, m *snapshot.Machine) string { return words.OrMissing(m.Region) }},
	Checks: {Title: "CHECKS", Width: 6, Right: true, Drop: 3, Text: checksText, Compare: byFailingChecks},
	Age:    {Title: "AGE", Width: 6, Right: true, Drop: 2, Since: changedAt, Compare: byAge},
	Event:  {Title: "NEWEST EVENT", Width: 22, Min: 12, Drop: 5, Text: eventText},
	Release: {Title: "REL", Width: 8, Drop: 7, Text: releaseText,
		Compare: byRelease},
	Group:    {Title: "GROUP", Width: 12, Drop: 8, Text: func(_ *snapshot.App, m *snapshot.Machine) string { return words.OrMissing(m.ProcessGroup) }},
	Image:    {Title: "IMAGE", Width: 12, Drop: 10, Text: imageText},
	Autostop: {Title: "AUTOSTOP", Width: 8, Drop: 9, Text: autostopText},
}

// Cell is column c's text for machine m of app a (nil: m alone) at
// platform time now.
func (c Column) Cell(a *snapshot.App, m *snapshot.Machine, now time.Time) string {
	if c.Since != nil {
		return AgeText(c.Since(m), now)
	}
	return c.Text(a, m)
}

// AgeText is the age of at as of now, words.Missing when at is unknown.
func AgeText(at, now time.Time) string {
	if !words.Datable(at) {
		return words.Missing
	}
	return words.Duration(now.Sub(at), words.Whole)
}

// Empty reports whether a cell says nothing: a column whose every cell is
// empty is left out (no alerts: no ALERT column).
func Empty(cell string) bool { return cell == "" || cell == words.Missing }

// Cmp orders x against y, machines of app a (nil: each read alone), by
// column c (negative: x first), ascending or descending; ties (and equal
// cells) go by machine id, ascending either way.
func (c Column) Cmp(a *snapshot.App, x, y *snapshot.Machine, descending bool) int {
	var n int
	switch {
	case c.Compare != nil:
		n = c.Compare(a, x, y)
	case c.Text != nil:
		n = strings.Compare(c.Text(a, x), c.Text(a, y))
	}
	if descending {
		n = -n
	}
	if n != 0 {
		return n
	}
	return strings.Compare(x.ID, y.ID)
}

// alertText is the most severe alert (snapshot.App.Alerts, the list
// status --json reports) and how many more there are; with none, while a
// deploy rolls a release out, where the machine stands in it.
func alertText(a *snapshot.App, m *snapshot.Machine) string {
	if s := alertCell(alertsOf(a, m)); s != "" || m.Rollout == 0 {
		return s
	}
	return rolloutText(m)
}

// rolloutText is where the machine stands while a deploy rolls the newest
// release out (snapshot.Machine.Rollout, set only then): booting it, being
// looked at, live, idle (stopped, not a crash), failed — or still on an
// older release.
func rolloutText(m *snapshot.Machine) string {
	rel := words.Release(m.Release)
	switch m.Rollout {
	case verdict.StatusPending:
		return "… " + rel + " boot"
	case verdict.StatusLooking:
		return "◔ " + rel + " looks"
	case verdict.StatusLive:
		return diagnose.Pass.Glyph() + " " + rel + " live"
	case verdict.StatusIdle:
		return "– " + rel + " idle"
	case verdict.StatusFailed:
		return diagnose.Fail.Glyph() + " " + rel + " failed"
	case verdict.StatusOld:
		return "· " + rel + " old"
	}
	return ""
}

func alertsOf(a *snapshot.App, m *snapshot.Machine) []snapshot.Alert {
	if a == nil {
		return m.Alerts()
	}
	return a.Alerts(*m)
}

// alertCell is the ALERT cell for these alerts (most severe first).
func alertCell(alerts []snapshot.Alert) string {
	if len(alerts) == 0 {
		return ""
	}
	s := alerts[0].Level.Glyph() + " " + alerts[0].Text
	if len(alerts) > 1 {
		s += " +" + strconv.Itoa(len(alerts)-1)
	}
	return s
}

// TopAlert is the level of the most severe of the machine's alerts (the
// ALERT cell's colour; a nil app reads the machine alone); ok is false
// when it has none.
func TopAlert(a *snapshot.App, m *snapshot.Machine) (diagnose.Level, bool) {
	alerts := alertsOf(a, m)
	if len(alerts) == 0 {
		return diagnose.Unknown, false
	}
	return alerts[0].Level, true
}

// checksText is "passing/total", words.Missing for a machine with none.
func checksText(_ *snapshot.App, m *snapshot.Machine) string {
	passing, total := m.CheckCounts()
	if total == 0 {
		return words.Missing
	}
	return strconv.Itoa(passing) + "/" + strconv.Itoa(total)
}

func eventText(_ *snapshot.App, m *snapshot.Machine) string {
	e, ok := m.NewestEvent()
	if !ok {
		return words.Missing
	}
	return e.Type + "/" + e.Status + "/" + e.Source
}

// changedAt is when the machine last changed: its newest event, or when the
// platform last updated it when it lists no events.
func changedAt(m *snapshot.Machine) time.Time {
	if e, ok := m.NewestEvent(); ok && !e.At.IsZero() {
		return e.At
	}
	return m.UpdatedAt
}

// releaseText is the machine's release, and the one it ran before while a
// deploy replaced it ("v42→v43").
func releaseText(_ *snapshot.App, m *snapshot.Machine) string {
	if m.Release == "" {
		return words.Missing
	}
	return words.Moved(m.FromRelease, m.Release)
}

func imageText(_ *snapshot.App, m *snapshot.Machine) string {
	return words.OrMissing(snapshot.ShortDigest(m.ImageDigest))
}

// autostopText is the config's autostop mode; "off" when no config is
// reported, as the proxy treats such a machine.
func autostopText(_ *snapshot.App, m *snapshot.Machine) string {
	if m.Config == nil {
		return "off"
	}
	return words.OrMissing(m.Config.Autostop)
}

// byPhase groups machines by what they are doing, troubled first, then by
// the state's word.
func byPhase(_ *snapshot.App, x, y *snapshot.Machine) int {
	if n := x.Phase.Urgency() - y.Phase.Urgency(); n != 0 {
		return n
	}
	return strings.Compare(x.State, y.State)
}

// bySeverity puts the worst alert first (diagnose.WorstFirst): fail, warn,
// none; an app's own alerts of a machine (its socket backlog) count, as in
// its cell.
func bySeverity(a *snapshot.App, x, y *snapshot.Machine) int {
	return diagnose.WorstFirst(alertLevel(a, x), alertLevel(a, y))
}

// alertLevel is the machine's worst alert, NA when it has none.
func alertLevel(a *snapshot.App, m *snapshot.Machine) diagnose.Level {
	if l, ok := TopAlert(a, m); ok {
		return l
	}
	return diagnose.NA
}

// byFailingChecks puts the most failing checks first, then the most checks.
func byFailingChecks(_ *snapshot.App, x, y *snapshot.Machine) int {
	pa, ta := x.CheckCounts()
	pb, tb := y.CheckCounts()
	if n := (tb - pb) - (ta - pa); n != 0 {
		return n
	}
	return tb - ta
}

// byRelease orders releases by version (diagnose.CompareReleases).
func byRelease(_ *snapshot.App, x, y *snapshot.Machine) int {
	return diagnose.CompareReleases(x.Release, y.Release)
}

// byAge puts the most recent change first (the youngest age).
func byAge(_ *snapshot.App, x, y *snapshot.Machine) int { return changedAt(y).Compare(changedAt(x)) }
