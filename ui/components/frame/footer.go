package frame

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

func helpModel(t *theme.Theme, width int) help.Model {
	return help.Model{
		Width:          width,
		ShortSeparator: " · ",
		FullSeparator:  "   ",
		Ellipsis:       "…",
		Styles:         t.Help,
	}
}

// Footer is the one-line key-hint bar, exactly width cells. Disabled
// bindings (read-only mode) are not shown.
func Footer(t *theme.Theme, keys help.KeyMap, width int) string {
	if width <= 0 {
		return ""
	}
	h := helpModel(t, width)
	return cell.Fit(h.ShortHelpView(keys.ShortHelp()), width, cell.Left)
}

// helpTitle heads the ? overlay and says how to leave it.
const helpTitle = "Keys · ? or esc closes"

// HelpOverlay is the full key help in a focused box centred on a
// width×height screen; the result is exactly width×height. On a screen too
// small for all columns, help cuts them with an ellipsis.
func HelpOverlay(t *theme.Theme, keys help.KeyMap, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	h := helpModel(t, max(width-4, 1))
	body := h.FullHelpView(keys.FullHelp())
	bw, bh := 0, 0
	for _, l := range strings.Split(body, "\n") {
		bw = max(bw, ansi.StringWidth(l))
		bh++
	}
	boxW := min(max(bw+4, ansi.StringWidth(helpTitle)+6), width)
	boxH := min(bh+2, height)
	padded := indent(body, 1)
	return Center(Box(t, helpTitle, true, padded, boxW, boxH), width, height)
}

// indent puts n spaces before every line.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}
