package table

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/keys"
)

// HandleKey moves the cursor for the navigation keys of km and reports
// whether it used the key.
func (m *Model) HandleKey(msg tea.KeyMsg, km keys.KeyMap) bool {
	switch {
	case key.Matches(msg, km.Up):
		m.Move(-1)
	case key.Matches(msg, km.Down):
		m.Move(1)
	case key.Matches(msg, km.PageUp):
		m.PageUp()
	case key.Matches(msg, km.PageDown):
		m.PageDown()
	case key.Matches(msg, km.Home):
		m.Top()
	case key.Matches(msg, km.End):
		m.Bottom()
	default:
		return false
	}
	return true
}
