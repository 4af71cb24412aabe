package coldstart

import (
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
)

// gapMark fills time no phase covers (between a phase's end and the next).
const gapMark = '·'

// barCells lays out a boot of total length on a shared scale: its length is
// proportional to total/scale (at least one cell), its phases proportional
// within it. Each cell shows the phase running at the cell's midpoint, the
// most recently started one when phases overlap; 0 means a gap.
func barCells(segs []segment, total, scale time.Duration, width int) []*legendEntry {
	if width <= 0 || total <= 0 || scale <= 0 {
		return nil
	}
	n := int((int64(total)*int64(width) + int64(scale)/2) / int64(scale))
	n = min(max(n, 1), width)
	out := make([]*legendEntry, n)
	for i := range n {
		mid := time.Duration((float64(i) + 0.5) / float64(n) * float64(total))
		var best *segment
		for j := range segs {
			s := &segs[j]
			if mid >= s.From && mid < s.To && (best == nil || s.From >= best.From) {
				best = s
			}
		}
		if best != nil {
			out[i] = best.Entry
		}
	}
	return out
}

// renderBar draws cells as runs of phase letters, each run in its phase's
// style. Letters keep the bar readable without colour.
func renderBar(cells []*legendEntry, styleOf func(*legendEntry) lipgloss.Style, gap lipgloss.Style) string {
	var b strings.Builder
	for i := 0; i < len(cells); {
		j := i
		for j < len(cells) && cells[j] == cells[i] {
			j++
		}
		if cells[i] == nil {
			b.WriteString(gap.Render(strings.Repeat(string(gapMark), j-i)))
		} else {
			b.WriteString(styleOf(cells[i]).Render(strings.Repeat(string(cells[i].Letter), j-i)))
		}
		i = j
	}
	return b.String()
}
