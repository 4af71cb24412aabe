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

// rect is one pane's box on screen.
type rect struct {
	pane       int
	x, y, w, h int
}

func (m *Model) tooSmall() bool {
	return m.width > 0 && (m.width < minWidth || m.height < minHeight)
}

func (m *Model) tiled() bool {
	return len(m.panes) > 1 && m.width >= tileWidth && m.height >= tileHeight
}

// chromeLines counts the lines around the body: header, the crash banner
// when there is one, the switcher prompt when open, the y/N prompt or the
// notice, and the footer.
func (m *Model) chromeLines() int {
	n := 2
	if m.banner != "" {
		n++
	}
	if m.switcher != nil {
		n += 2
	}
	return n + len(m.statusLines())
}

// layout places the panes in a body of w×h cells.
func (m *Model) layout() []rect {
	w, h := m.width, max(m.height-m.chromeLines(), 0)
	if m.overlay != nil {
		return []rect{{pane: -1, w: w, h: h}}
	}
	if !m.tiled() {
		return []rect{{pane: m.focus, w: w, h: h}}
	}
	topH := h * machinesShare / 100
	rects := []rect{{pane: 0, w: w, h: topH}}
	rest := len(m.panes) - 1
	x := 0
	for i := 1; i < len(m.panes); i++ {
		pw := w / rest
		if i == len(m.panes)-1 {
			pw = w - x
		}
		rects = append(rects, rect{pane: i, x: x, y: topH, w: pw, h: h - topH})
		x += pw
	}
	return rects
}

// sizer is implemented by panes that page or scroll by their visible size.
type sizer interface{ SetSize(width, height int) }

// resize tells every pane the body size it will be drawn at.
func (m *Model) resize() {
	if m.width == 0 || m.panes == nil {
		return
	}
	for _, r := range m.layout() {
		iw, ih := frame.InnerSize(r.w, r.h)
		if s, ok := m.paneAt(r.pane).(sizer); ok {
			s.SetSize(iw, ih)
		}
	}
	if m.overlay == nil && !m.tiled() { // every pane may come to the front at the same size
		for i, p := range m.panes {
			if s, ok := p.(sizer); ok && i != m.focus {
				iw, ih := frame.InnerSize(m.width, max(m.height-m.chromeLines(), 0))
				s.SetSize(iw, ih)
			}
		}
	}
}

// paneAt is the pane a rect shows: -1 is the open overlay.
func (m *Model) paneAt(i int) pane.Pane {
	if i < 0 {
		return m.overlay
	}
	return m.panes[i]
}
