package frame

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
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
func Footer(t *theme.Theme, km help.KeyMap, width int) string {
	if width <= 0 {
		return ""
	}
	h := helpModel(t, width)
	bs := km.ShortHelp()
	// bubbles v1.0.0's ShortHelpView keeps an item that does not fit when
	// there is no room left for its "…" either (shouldAddItem answers ok),
	// so the last hint overran the width and was cut mid-word ("l its
	// log…"). Hints are dropped whole from the end until the line fits.
	for n := len(bs); n > 0; n-- {
		line := h.ShortHelpView(bs[:n])
		if anyEnabled(bs[n:]) && !strings.HasSuffix(ansi.Strip(line), h.Ellipsis) {
			line += " " + h.Styles.Ellipsis.Render(h.Ellipsis)
		}
		if ansi.StringWidth(line) <= width {
			return cell.Fit(line, width, cell.Left)
		}
	}
	return cell.Fit("", width, cell.Left)
}

func anyEnabled(bs []key.Binding) bool {
	for _, b := range bs {
		if b.Enabled() {
			return true
		}
	}
	return false
}

// helpTitle heads the ? overlay and says how to leave it.
const helpTitle = "Keys · ? or esc closes"

// helpGap is the blank cells between the overlay's columns.
const helpGap = 2

// HelpOverlay is every key, by group under its title (where the keys act),
// in a focused box centred on a width×height screen; the result is exactly
// width×height. The groups flow into as many columns as fit the width,
// newspaper style, so every key shows at 80×24 and 70×20; only on a
// screen too small for them all are the last lines cut.
func HelpOverlay(t *theme.Theme, groups []keys.Group, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := helpLines(t, groups)
	innerW, innerH := max(width-3, 1), max(height-2, 1) // the border and a margin
	cols := [][]string{lines}
	for n := 1; n <= len(lines); n++ {
		c := splitColumns(lines, n)
		if columnsWidth(c) > innerW {
			break
		}
		cols = c
		if tallest(c) <= innerH {
			break // the fewest columns that fit the height
		}
	}
	body := joinColumns(cols)
	bw, bh := 0, 0
	for _, l := range strings.Split(body, "\n") {
		bw = max(bw, ansi.StringWidth(l))
		bh++
	}
	boxW := min(max(bw+4, ansi.StringWidth(helpTitle)+6), width)
	boxH := min(bh+2, height)
	return Center(Box(t, helpTitle, true, indent(body, 1), boxW, boxH), width, height)
}

// helpLines are the groups as lines: a title, then " key description"
// with the keys of a group aligned.
func helpLines(t *theme.Theme, groups []keys.Group) []string {
	var out []string
	for _, g := range groups {
		keyW := 0
		for _, b := range g.Bindings {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
		out = append(out, t.TableHeader.Render(g.Title))
		for _, b := range g.Bindings {
			k := b.Help().Key
			out = append(out, " "+t.Help.FullKey.Render(k)+strings.Repeat(" ", keyW-ansi.StringWidth(k)+1)+t.Help.FullDesc.Render(b.Help().Desc))
		}
	}
	return out
}

// splitColumns deals lines into at most n columns of about equal length,
// never leaving a group's title alone at a column's foot.
func splitColumns(lines []string, n int) [][]string {
	for per := (len(lines) + n - 1) / n; ; per++ {
		if cols := deal(lines, per); len(cols) <= n || per >= len(lines) {
			return cols
		}
	}
}

func deal(lines []string, per int) [][]string {
	var cols [][]string
	for len(lines) > 0 {
		k := min(per, len(lines))
		if k < len(lines) && k > 1 && !strings.HasPrefix(ansi.Strip(lines[k-1]), " ") {
			k-- // a title goes with its first key
		}
		cols = append(cols, lines[:k])
		lines = lines[k:]
	}
	return cols
}

func tallest(cols [][]string) int {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	return n
}

func columnsWidth(cols [][]string) int {
	w := helpGap * (len(cols) - 1)
	for _, c := range cols {
		w += lipgloss.Width(strings.Join(c, "\n"))
	}
	return w
}

// joinColumns lays columns side by side, each padded to its width, helpGap
// apart.
func joinColumns(cols [][]string) string {
	gap := strings.Repeat(" ", helpGap)
	blocks := make([]string, 0, 2*len(cols))
	for i, c := range cols {
		if i > 0 {
			blocks = append(blocks, gap)
		}
		blocks = append(blocks, strings.Join(c, "\n"))
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, blocks...)
}

// indent puts n spaces before every line.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}
