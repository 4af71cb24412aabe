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
	cfg := m.GetConfig()
	if cfg != nil {
		cells[colGroup] = cfg.ProcessGroup()
		if r := cfg.Metadata["fly_release_version"]; r != "" {
			cells[colRelease] = "v" + r
		}
	}
	cells[colImage] = snapshot.ShortDigest(m.ImageRef.Digest)
	cells[colAutostop] = diagnose.AutostopMode(cfg)
	row := table.Row{ID: m.ID, Cells: cells}
	if m.Phase == diagnose.Gone {
		// A destroyed or superseded machine is history, not a fault.
		row.Style = &th.Dim
	}
	return row
}

// alertCell is the crash badge, else a note about an unreachable host.
func alertCell(m snapshot.Machine, th *theme.Theme) string {
	switch m.Crash.Kind {
	case diagnose.CrashLooping:
		return th.Fail.Render(theme.GlyphFailed + " crash-loop")
	case diagnose.GaveUp:
		return th.Fail.Render(theme.GlyphFailed + " gave up")
	case diagnose.Watching:
		return th.Warn.Render("! crashed")
	}
	if hostDown(m) {
		return th.Warn.Render("! host " + string(m.HostStatus))
	}
	return ""
}

// hostDown: the platform could not reach the machine's host, so its config
// comes from incomplete_config and its state may be old.
func hostDown(m snapshot.Machine) bool {
	return m.HostStatus != "" && m.HostStatus != "ok"
}

// checksCell is "passing/total", coloured by the worst check.
func checksCell(m snapshot.Machine, th *theme.Theme) string {
	total, passing := 0, 0
	for _, c := range m.Checks {
		if c == nil {
			continue
		}
		total++
		if c.Status == "passing" {
			passing++
		}
	}
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
	for _, e := range m.Events {
		if e == nil {
			continue
		}
		// Age first: a narrow column cuts the source, not the age.
		return fmt.Sprintf("%s %s/%s/%s", cell.Duration(now.Sub(e.Time())), e.Type, e.Status, e.Source)
	}
	return ""
}

// updatedAgo is how long ago the platform last changed the machine.
func updatedAgo(updatedAt string, now time.Time) string {
	t, err := time.Parse(time.RFC3339Nano, updatedAt)
	if err != nil {
		return ""
	}
	return cell.Duration(now.Sub(t)) + " ago"
}
