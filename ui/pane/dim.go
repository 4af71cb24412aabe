package pane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/theme"
)

// Dim draws a rendered block in the theme's Dim style, line by line and
// without its own colours (an outer style cannot span inner resets): how a
// pane shows stale data. Cells keep their width.
func Dim(th *theme.Theme, s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = th.Dim.Render(ansi.Strip(l))
	}
	return strings.Join(lines, "\n")
}
