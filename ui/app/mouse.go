package app

import (
	tea "github.com/charmbracelet/bubbletea"
)

// onMouse gives a wheel turn or a click to the pane under the pointer, in
// the pane's own coordinates (inside its border); a click also focuses it.
// Prompts, the switcher and help take no mouse.
func (m *Model) onMouse(msg tea.MouseMsg) tea.Cmd {
	if m.fatal != nil || m.tooSmall() || m.confirm != nil || m.switcher != nil || m.help {
		return nil
	}
	wheel := msg.Button == tea.MouseButtonWheelUp || msg.Button == tea.MouseButtonWheelDown
	click := msg.Button == tea.MouseButtonLeft && msg.Action == tea.MouseActionPress
	if !wheel && !click {
		return nil
	}
	top := 1 + len(bannerText(m.crash, m.width)) // the header and the banner
	y := msg.Y - top
	for _, r := range m.tiles {
		if msg.X < r.x || msg.X >= r.x+r.w || y < r.y || y >= r.y+r.h {
			continue
		}
		if click && m.open == nil {
			for i, p := range m.panes {
				if p == r.pane {
					m.focus = i
				}
			}
		}
		inner := msg
		inner.X, inner.Y = msg.X-r.x-1, y-r.y-1
		return m.updatePane(r.pane, inner)
	}
	return nil
}
