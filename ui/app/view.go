package app

import (
	"strconv"
	"strings"

	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/pane"
)

// View draws the whole screen: exactly width×height cells.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.tooSmall() {
		return frame.TooSmall(m.width, m.height, minWidth, minHeight)
	}
	lines := append([]string{m.headerLine()}, m.bannerLines()...)
	bodyH := m.bodyHeight()
	if m.fatal != nil {
		lines = append(lines, m.fatalView(bodyH))
	} else if m.help {
		lines = append(lines, frame.HelpOverlay(m.theme, m.keys.Groups(), m.width, bodyH))
	} else {
		lines = append(lines, m.body(bodyH))
	}
	if m.switcher != nil {
		lines = append(lines, m.switcherLines()...)
	}
	lines = append(lines, m.statusLines()...)
	lines = append(lines, m.timebarLines()...)
	lines = append(lines, frame.Footer(m.theme, m.footerKeys(), m.width))
	return strings.Join(lines, "\n")
}

// body draws the panes in their boxes and joins them line by line.
func (m Model) body(h int) string {
	if h <= 0 {
		return ""
	}
	now := m.now()
	rows := make([]string, h)
	for _, r := range m.tiles {
		p := r.pane
		focused := p == m.active()
		box := strings.Split(frame.BoxNote(m.theme, m.boxTitle(p), m.boxNote(p, focused), focused, p.View(focused, now), r.w, r.h), "\n")
		for i, l := range box {
			if y := r.y + i; y < h {
				rows[y] += l
			}
		}
	}
	return strings.Join(rows, "\n")
}

// boxTitle is the pane's title with where it is and how to leave it.
func (m Model) boxTitle(p pane.Pane) string {
	title := p.Title()
	switch {
	case m.open != nil && m.open.CanClose():
		title += " · esc back"
	case m.open != nil: // esc aborts or answers no now: the overlay says so itself
	case p == m.active() && !m.allVisible() && len(m.panes) > 1:
		title += " · " + strconv.Itoa(m.focus+1) + "/" + strconv.Itoa(len(m.panes)) + " · " + m.keys.NextPane.Help().Key + " next"
	}
	return title
}

// boxNote is what the pane could not show, for its bottom border: how
// many lines, and how to see them (its scroll keys when focused, a zoom
// when it cannot scroll).
func (m Model) boxNote(p pane.Pane, focused bool) string {
	o, ok := p.(pane.Overflow)
	if !ok {
		return ""
	}
	n, scrolls := o.Below()
	if n <= 0 {
		return ""
	}
	note := "↓ " + words.Count(n, "more line", "more lines")
	switch {
	case scrolls && focused:
		note += " · " + pane.Arrows(m.keys, "").Help().Key + " scroll"
	case !scrolls && focused && m.canZoom() && !m.zoomed():
		note += " · " + m.keys.Zoom.Help().Key + " shows all"
	}
	return note
}

// switcherLines are the `:` prompt and its hint (the matches, the
// highlighted one in reverse). A refusal wraps, up to refusalLines, so
// the commands it lists and the way out are read whole.
func (m Model) switcherLines() []string {
	out := []string{cell.Fit(m.switcher.input.View(), m.width, cell.Left)}
	if m.switcher.refusal != "" {
		lines := cell.Wrap("  "+m.switcher.refusal, m.width, 2)
		for _, l := range lines[:min(len(lines), refusalLines)] {
			out = append(out, cell.Fit(m.theme.Warn.Render(l), m.width, cell.Left))
		}
		return out
	}
	hint := "  " + m.switcher.hint(m.width-2, func(s string) string { return m.theme.Selected.Render(s) }) // the footer names the keys
	return append(out, cell.Fit(hint, m.width, cell.Left))
}

// refusalLines is the most a refused `:` entry's reason takes.
const refusalLines = 3

// fatalView is the body for errors only the user can fix: what happened,
// and the ways out (back, another app, quit).
func (m Model) fatalView(h int) string {
	w := min(m.width-4, 90)
	text := strings.Join(cell.WrapText(m.fatal.Error(), w-4), "\n")
	ways := cell.WrapText(fatalWays(m.keys, m.back), w-4)
	for i, l := range ways {
		ways[i] = m.theme.Dim.Render(l)
	}
	body := "\n" + indentLines(text, 2) + "\n\n" + indentLines(strings.Join(ways, "\n"), 2)
	bh := min(strings.Count(body, "\n")+3, h)
	title := "flywake cannot show " + m.cfg.App
	return frame.Center(frame.Box(m.theme, title, true, body, w, bh), m.width, h)
}

func indentLines(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}
