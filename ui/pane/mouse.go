package pane

import tea "github.com/charmbracelet/bubbletea"

// WheelStep is how many lines (or rows) one turn of the mouse wheel
// scrolls, in every pane.
const WheelStep = 3

// Wheel is how far msg scrolls: WheelStep down or up for a turn of the
// wheel, 0 for anything else.
func Wheel(msg tea.Msg) int {
	m, ok := msg.(tea.MouseMsg)
	if !ok {
		return 0
	}
	switch m.Button {
	case tea.MouseButtonWheelUp:
		return -WheelStep
	case tea.MouseButtonWheelDown:
		return WheelStep
	}
	return 0
}
