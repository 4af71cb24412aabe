package table

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/ui/theme"
)

// Styles are the table's styles; take them from the theme.
type Styles struct {
	Header   lipgloss.Style
	Selected lipgloss.Style
	Flash    lipgloss.Style // the flash marker in the left gutter
	Dim      lipgloss.Style // stale tables and the position line
}

// StylesFrom picks the table styles out of the theme (no new styles built).
func StylesFrom(t *theme.Theme) Styles {
	return Styles{Header: t.TableHeader, Selected: t.Selected, Flash: t.Flash, Dim: t.Dim}
}
