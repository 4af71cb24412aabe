package table

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/keys"
)

func TestHandleKey(t *testing.T) {
	km := keys.Default()
	cases := []struct {
		name    string
		msg     tea.KeyMsg
		handled bool
		cursor  int
	}{
		{"j", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")}, true, 6},
		{"down", tea.KeyMsg{Type: tea.KeyDown}, true, 6},
		{"k", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")}, true, 4},
		{"pgdown", tea.KeyMsg{Type: tea.KeyPgDown}, true, 15},
		{"pgup", tea.KeyMsg{Type: tea.KeyPgUp}, true, 0},
		{"G", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")}, true, 49},
		{"home", tea.KeyMsg{Type: tea.KeyHome}, true, 0},
		{"q is not navigation", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}, false, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTable()
			m.SetHeight(12)
			m.SetRows(rowsN(50))
			m.Move(5)
			if got := m.HandleKey(c.msg, km); got != c.handled {
				t.Errorf("handled %v, want %v", got, c.handled)
			}
			if m.Cursor() != c.cursor {
				t.Errorf("cursor %d, want %d", m.Cursor(), c.cursor)
			}
		})
	}
}
