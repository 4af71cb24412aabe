package checklist

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/pane"
)

// bodyHeight is the item lines a view of height shows: all but the
// progress and summary lines, below three lines all of it.
func bodyHeight(height int) int {
	if height >= 3 {
		return height - 2
	}
	return height
}

// relayout scrolls the body for the size: so the current item is in view
// while following the cursor, and never past the end.
func (p *Pane) relayout() {
	w, h := p.Size()
	if w <= 0 || len(p.items) == 0 {
		return
	}
	lines, spans := p.body(w, false)
	p.total = len(lines)
	bodyH := bodyHeight(h)
	p.page = max(bodyH-1, 1)
	if i := p.indexOf(p.cursorID); p.follow && i >= 0 {
		p.offset = scroll.Reveal(p.offset, spans[i].start, spans[i].end, bodyH, len(lines))
	}
	p.offset = scroll.Clamp(p.offset, bodyH, len(lines))
}

// Below is the item lines past the bottom of the view; pgdn brings them.
func (p *Pane) Below() (int, bool) {
	w, h := p.Size()
	if w <= 0 || len(p.items) == 0 {
		return 0, true
	}
	return max(p.total-p.offset-bodyHeight(h), 0), true
}

// View renders exactly the SetSize width×height cells: the progress line
// on top, the items (scrolled so the current one is in view) and the
// summary at the bottom. Below three lines only the items are drawn.
func (p *Pane) View(focused bool, _ time.Time) string {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	if len(p.items) == 0 {
		return cell.Block(p.theme.Dim.Render("no checklist items"), width, height)
	}
	lines, _ := p.body(width, focused)
	bodyH := bodyHeight(height)
	out := make([]string, 0, height)
	if height >= 3 {
		out = append(out, p.header(width, len(lines) > bodyH))
	}
	out = append(out, lines[p.offset:min(p.offset+bodyH, len(lines))]...)
	if height >= 3 {
		out = padLines(out, height-1)
		out = append(out, p.summary(width))
	}
	view := cell.Block(strings.Join(out, "\n"), width, height)
	if p.Stale() {
		return pane.Dim(p.theme, view)
	}
	return view
}

// padLines adds blank lines until there are n.
func padLines(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

// header is "5 of 8 checked" with the walkthrough's keys on the right.
func (p *Pane) header(width int, overflow bool) string {
	left := p.label.Render(progressText(p.items))
	if p.projectNote != "" {
		left += p.theme.Dim.Render(" · " + p.projectNote)
	}
	hints := []string{
		p.keys.NextItem.Help().Key + "/" + p.keys.PrevItem.Help().Key + " item",
		p.keys.Enter.Help().Key + " evidence",
	}
	if overflow {
		hints = append(hints, p.keys.PageUp.Help().Key+"/"+p.keys.PageDown.Help().Key+" scroll")
	}
	right := strings.Join(hints, " · ")
	gap := width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 2 {
		return left
	}
	return left + strings.Repeat(" ", gap) + p.theme.Dim.Render(right)
}

// summary is the longest summary line that fits the width.
func (p *Pane) summary(width int) string {
	variants := summaryVariants(p.theme, p.report)
	for _, v := range variants {
		if ansi.StringWidth(v) <= width {
			return v
		}
	}
	return variants[len(variants)-1]
}
