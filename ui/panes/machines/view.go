package machines

import (
	"time"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/pane"
)

// View renders exactly the SetSize width×height cells.
func (m *Model) View(focused bool, now time.Time) string {
	width, height := m.width, m.height
	if width <= 0 || height <= 0 {
		return ""
	}
	if m.detail != nil {
		out := m.detail.view(m.ctx.Theme, width, height)
		if m.stale {
			out = pane.Dim(m.ctx.Theme, out)
		}
		return out
	}
	if !m.filtering {
		return m.table.View(width, height)
	}
	input := cell.Fit(m.filter.view("/"), width, cell.Left)
	if height == 1 {
		return input
	}
	return input + "\n" + m.table.View(width, height-1)
}
