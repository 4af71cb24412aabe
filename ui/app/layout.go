package app

import (
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/pane"
)

// Screen sizes: below min the dashboard shows a calm "enlarge" line; at
// tile size and above the panes tile, otherwise one pane fills the body.
const (
	minWidth   = 60
	minHeight  = 16
	tileWidth  = 150
	tileHeight = 40
	// machinesShare is the machines pane's share of the body when tiled.
	machinesShare = 55
)

// rect is one pane's box on screen, in body coordinates.
type rect struct {
	pane       pane.Pane
	x, y, w, h int
}

func (m *Model) tooSmall() bool {
	return m.width > 0 && (m.width < minWidth || m.height < minHeight)
}

func (m *Model) tiled() bool {
	return len(m.panes) > 1 && m.width >= tileWidth && m.height >= tileHeight
}

// canZoom: zooming means something only where several panes share the body.
func (m *Model) canZoom() bool { return m.tiled() && m.open == nil }

// bodyHeight is the lines between the chrome above and below the panes.
func (m *Model) bodyHeight() int { return max(m.height-m.chromeLines(), 0) }

// chromeLines counts the lines around the body: header, the crash banner
// when there is one, the switcher prompt when open, the y/N prompt or the
// notice, and the footer.
func (m *Model) chromeLines() int {
	n := 2 + len(m.banner)
	if m.switcher != nil {
		n += 2
	}
	return n + len(m.statusLines())
}

// layout places the panes in the body.
func (m *Model) layout() []rect {
	w, h := m.width, m.bodyHeight()
	switch {
	case m.open != nil:
		return []rect{{pane: m.open, w: w, h: h}}
	case !m.tiled() || m.zoom:
		return []rect{{pane: m.panes[m.focus], w: w, h: h}}
	}
	topH := h * machinesShare / 100
	rects := []rect{{pane: m.panes[0], w: w, h: topH}}
	rest := len(m.panes) - 1
	x := 0
	for i := 1; i < len(m.panes); i++ {
		pw := w / rest
		if i == len(m.panes)-1 {
			pw = w - x
		}
		rects = append(rects, rect{pane: m.panes[i], x: x, y: topH, w: pw, h: h - topH})
		x += pw
	}
	return rects
}

// relayout works out where every pane is drawn and tells each pane the
// inner size it will be drawn at. Panes off screen get the whole body, so
// whichever comes to the front next is ready; View only draws.
func (m *Model) relayout() {
	if m.width <= 0 || m.panes == nil {
		return
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
