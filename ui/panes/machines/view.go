package machines

import (
	"strings"
	"time"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/pane"
)

// View renders exactly the SetSize width×height cells; dimmed, all of
// it, while the data is stale.
func (m *Model) View(focused bool, now time.Time) string {
	out := m.view(now)
	if m.Stale() && out != "" {
		return pane.Dim(m.ctx.Theme, out)
	}
	return out
}

func (m *Model) view(now time.Time) string {
	width, height := m.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	switch {
	case m.describe != nil:
		return m.describe.view(m.ctx.Theme, m.ctx.KeyMap(), width, height)
	case m.detail != nil:
		return m.detail.view(m.ctx.Theme, width, height)
	}
	var top []string
	if m.topLines(height) > btoi(m.filtering()) { // the malformed note fits
		top = append(top, m.ctx.Theme.Warn.Render(cell.Fit(malformedNote(m.app), width, cell.Left)))
	}
	if m.filtering() {
		top = append(top, cell.Fit(m.filter.View(), width, cell.Left))
	}
	if len(top) >= height {
		return strings.Join(top[:height], "\n")
	}
	if len(top) == 0 {
		return m.table.ViewLive(width, height, m.rows.ages(now))
	}
	return strings.Join(top, "\n") + "\n" + m.table.ViewLive(width, height-len(top), m.rows.ages(now))
}

// malformedNote says the last listing held entries that were skipped.
func malformedNote(a *snapshot.App) string {
	if a == nil || a.Malformed == 0 {
		return ""
	}
	return "! " + words.Count(a.Malformed, "malformed entry", "malformed entries") +
		" skipped in the API's answer (a null machine, check or event)"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
