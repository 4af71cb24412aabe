package machines

import (
	"time"

	"github.com/flywake/flywake/ui/components/cell"
)

// View renders exactly width×height cells.
func (m *Model) View(width, height int, focused bool, now time.Time) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if m.detail != nil {
		return m.detail.view(m.ctx.Theme, width, height)
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
