package machines

import (
	"fmt"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/theme"
)

// buildRows turns the app's machines into table rows, ages measured at now.
func buildRows(a *snapshot.App, th *theme.Theme, now time.Time) []table.Row {
	if a == nil {
		return nil
	}
	rows := make([]table.Row, 0, len(a.Machines))
	for _, m := range a.Machines {
		rows = append(rows, buildRow(m, th, now))
	}
	return rows
}

func buildRow(m snapshot.Machine, th *theme.Theme, now time.Time) table.Row {
	cells := make([]string, numCols)
	cells[colState] = th.State(m.State).Render()
	cells[colID] = m.ID
	cells[colAlert] = alertCell(m, th)
	cells[colRegion] = m.Region
	cells[colChecks] = checksCell(m, th)
	cells[colEvent] = newestEvent(m, now)
	cells[colUpdated] = updatedAgo(m.UpdatedAt, now)
	cells[colName] = m.Name
	cells[colGroup] = m.ProcessGroup
	if m.Release != "" {
		cells[colRelease] = "v" + m.Release
	}
	cells[colImage] = snapshot.ShortDigest(m.ImageDigest)
	cells[colAutostop] = autostop(m)
	row := table.Row{ID: m.ID, Cells: cells}
	if m.Phase == diagnose.Gone {
		// A destroyed or superseded machine is history, not a fault.
		row.Style = &th.Dim
	}
	return row
}

// alertCell is the machine's most severe alert (snapshot.Machine.Alerts,
// the list status --json reports).
func alertCell(m snapshot.Machine, th *theme.Theme) string {
	alerts := m.Alerts()
	if len(alerts) == 0 {
		return ""
	}
	a := alerts[0]
	return th.Level(a.Level).Style.Render(a.Level.Glyph() + " " + a.Text)
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
func checksCell(m snapshot.Machine, th *theme.Theme) string {
	passing, total := m.CheckCounts()
	if total == 0 {
		return th.Dim.Render("–")
	}
	s := fmt.Sprintf("%d/%d", passing, total)
	if passing == total {
		return th.Pass.Render(s)
	}
	return th.Warn.Render(s)
}

// newestEvent is "age type/status/source" of the first (newest) event.
func newestEvent(m snapshot.Machine, now time.Time) string {
	e, ok := m.NewestEvent()
	if !ok {
		return ""
	}
	// Age first: a narrow column cuts the source, not the age.
	return fmt.Sprintf("%s %s/%s/%s", cell.Duration(now.Sub(e.At)), e.Type, e.Status, e.Source)
}

// updatedAgo is how long ago the platform last changed the machine.
func updatedAgo(updatedAt, now time.Time) string {
	if updatedAt.IsZero() {
		return ""
	}
	return cell.Duration(now.Sub(updatedAt)) + " ago"
}
