package app

import (
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/pane"
)

// Screen sizes. Below min the dashboard asks for a bigger terminal. At
// tile size every pane is on screen: the first registered pane (machines)
// spans the top with the rows it needs, the others share rows of two or
// three below. Between split and tile size the first pane stays on top and
// the focused other pane (tab cycles) fills the rest. Below split size one
// pane fills the body.
const (
	minWidth    = 60
	minHeight   = 16
	splitWidth  = 100
	splitHeight = 32
	tileWidth   = 150
	tileHeight  = 42
	// topShare caps the top pane's share of the body (percent), so a
	// thousand machines leave room for the rest; below it, it takes only
	// the rows it has.
	topShare = 45
	// minBox is the smallest box a tile gets: a border and a few lines.
	minBox = 7
	// perRow is the most panes side by side in one row of tiles.
	perRow = 3
)

// rect is one pane's box on screen, in body coordinates.
type rect struct {
	pane       pane.Pane
	x, y, w, h int
}

// mode is how the body is shared.
type mode int

const (
	single mode = iota // one pane
	split              // the top pane and one other
	tile               // every pane
)

func (m *Model) tooSmall() bool {
	return m.width > 0 && (m.width < minWidth || m.height < minHeight)
}

func (m *Model) mode() mode {
	switch {
	case len(m.panes) < 2:
		return single
	case m.width >= tileWidth && m.height >= tileHeight:
		return tile
	case m.width >= splitWidth && m.height >= splitHeight:
		return split
	}
	return single
}

// canZoom: zooming means something only where several panes share the body.
func (m *Model) canZoom() bool { return m.mode() != single && m.open == nil }

// zoomed: the focused pane takes the body because of a zoom (one asked for
// in a larger terminal is kept, in force again once the terminal grows).
func (m *Model) zoomed() bool { return m.zoom && m.canZoom() }

// allVisible reports whether every pane is on screen at once.
func (m *Model) allVisible() bool { return m.mode() == tile && !m.zoom && m.open == nil }

// bodyHeight is the lines between the chrome above and below the panes.
func (m *Model) bodyHeight() int { return max(m.height-m.chromeLines(), 0) }

// chromeLines counts the lines around the body: header, the crash banner
// when there is one, the switcher prompt when open, the y/N prompt or the
// notice, and the footer.
func (m *Model) chromeLines() int {
	n := 2 + len(bannerText(m.crash, m.width))
	if m.switcher != nil {
		n += len(m.switcherLines())
	}
	return n + len(m.statusLines()) + len(m.timebarLines())
}

// layout places the panes in the body.
func (m *Model) layout() []rect {
	w, h := m.width, m.bodyHeight()
	switch {
	case m.open != nil:
		return []rect{{pane: m.open, w: w, h: h}}
	case m.zoomed(), m.mode() == single:
		return []rect{{pane: m.panes[m.focus], w: w, h: h}}
	case m.mode() == split:
		return m.splitLayout(w, h)
	}
	return m.tileLayout(w, h)
}

// wants is the box height p asks for at box width w.
func wants(p pane.Pane, w int) int {
	iw, _ := frame.InnerSize(w, 0)
	return p.Height(iw) + 2
}

// needs is the box height p must have at box width w to show what matters
// most (pane.Priority), at least minBox.
func needs(p pane.Pane, w int) int {
	pr, ok := p.(pane.Priority)
	if !ok {
		return minBox
	}
	iw, _ := frame.InnerSize(w, 0)
	return max(pr.Needs(iw)+2, minBox)
}

// topHeight is the top pane's box: what it wants, at most topShare of the
// body, and never so much that the rest cannot have the boxes they need
// (below, at least minBox each).
func topHeight(top pane.Pane, w, h, below int) int {
	limit := min(h*topShare/100, h-below)
	return max(min(wants(top, w), limit), min(minBox, h))
}

// splitLayout: the top pane, and below it the focused other pane (or the
// last one focused, while the top pane has the focus).
func (m *Model) splitLayout(w, h int) []rect {
	top := m.panes[0]
	other := m.panes[max(m.lastOther, 1)]
	if m.focus > 0 {
		other = m.panes[m.focus]
	}
	topH := topHeight(top, w, h, needs(other, w))
	return []rect{{pane: top, w: w, h: topH}, {pane: other, y: topH, w: w, h: h - topH}}
}

// tileLayout: the top pane, then the others in rows (see tileRows); each
// row as high as its tallest pane asks, shared out fairly when the body is
// short.
func (m *Model) tileLayout(w, h int) []rect {
	top := m.panes[0]
	rows := tileRows(m.panes[1:])
	want, need := make([]int, len(rows)), make([]int, len(rows))
	needed := 0
	for i, row := range rows {
		pw := w / len(row)
		for _, p := range row {
			want[i] = max(want[i], wants(p, pw))
			need[i] = max(need[i], needs(p, pw))
		}
		needed += need[i]
	}
	topH := topHeight(top, w, h, min(needed, h-minBox))
	out := []rect{{pane: top, w: w, h: topH}}
	if needed > h-topH {
		need = nil // not every need fits: share fairly
	}
	y := topH
	for i, rh := range prioritise(share(h-topH, want, minBox), need, minBox) {
		row := rows[i]
		x := 0
		for j, p := range row {
			pw := w / len(row)
			if j == len(row)-1 {
				pw = w - x
			}
			out = append(out, rect{pane: p, x: x, y: y, w: pw, h: rh})
			x += pw
		}
		y += rh
	}
	return out
}

// tileRows puts panes in as few rows of at most perRow as will hold them,
// the fuller rows last: 3 → [3], 4 → [2 2], 5 → [2 3], 6 → [3 3].
func tileRows(ps []pane.Pane) [][]pane.Pane {
	if len(ps) == 0 {
		return nil
	}
	total := len(ps)
	n := (total + perRow - 1) / perRow
	var out [][]pane.Pane
	for i := range n {
		size := total / n
		if i >= n-total%n {
			size++
		}
		out = append(out, ps[:size])
		ps = ps[size:]
	}
	return out
}

// share divides total lines between rows that want want[i] each, none
// below least: every row gets what it wants when that fits; otherwise the
// lines are shared fairly (a row wanting less than an equal share keeps
// only what it wants; the others split the rest). Lines left over when
// every row is content go to the last row, so the body stays filled.
func share(total int, want []int, least int) []int {
	out := make([]int, len(want))
	if len(want) == 0 {
		return out
	}
	left, open := total, len(want)
	done := make([]bool, len(want))
	for open > 0 {
		fair := left / open
		progressed := false
		for i, wnt := range want {
			if !done[i] && max(wnt, least) <= fair {
				out[i], done[i] = max(wnt, least), true
				left -= out[i]
				open--
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	// Rows that want more than a fair share split what is left.
	for i := range want {
		if !done[i] {
			out[i] = left / open
			left -= out[i]
			open--
		}
	}
	out[len(out)-1] += left
	return out
}

// prioritise moves lines from rows above what they need to the rows short
// of it (need[i], none when need is nil), the roomiest row first, never
// below least; the total stays the same.
func prioritise(out, need []int, least int) []int {
	for i := range need {
		for out[i] < need[i] {
			from := -1
			for j := range out {
				if j != i && out[j] > max(need[j], least) && (from < 0 || out[j]-max(need[j], least) > out[from]-max(need[from], least)) {
					from = j
				}
			}
			if from < 0 {
				break
			}
			out[from]--
			out[i]++
		}
	}
	return out
}

// relayout works out where every pane is drawn and tells each pane the
// inner size it will be drawn at. Panes off screen get the whole body, so
// whichever comes to the front next is ready; View only draws.
func (m *Model) relayout() {
	if m.width <= 0 || m.panes == nil {
		return
	}
	if m.focus > 0 {
		m.lastOther = m.focus
	}
	m.tiles = m.layout()
	shown := map[pane.ID]bool{}
	for _, r := range m.tiles {
		shown[r.pane.ID()] = true
		m.resizePane(r.pane, r.w, r.h)
	}
	for _, p := range m.allPanes() {
		if !shown[p.ID()] {
			m.resizePane(p, m.width, m.bodyHeight())
		}
	}
}

// resizePane sizes p for a w×h box, when that changed.
func (m *Model) resizePane(p pane.Pane, w, h int) {
	iw, ih := frame.InnerSize(w, h)
	if s, ok := m.sizes[p.ID()]; ok && s == [2]int{iw, ih} {
		return
	}
	m.sizes[p.ID()] = [2]int{iw, ih}
	p.SetSize(iw, ih)
}
