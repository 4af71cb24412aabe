package uitest

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestHasColour(t *testing.T) {
	tests := []struct {
		out  string
		want bool
	}{
		{"plain", false},
		{"\x1b[1mbold\x1b[0m \x1b[2mfaint\x1b[0m \x1b[7mreverse\x1b[0m", false},
		{"\x1b[31mred\x1b[0m", true},
		{"\x1b[1;38;5;196mbold 256-colour red\x1b[0m", true},
		{"\x1b[48;2;0;0;0mtrue-colour background\x1b[0m", true},
		{"\x1b[91mbright red\x1b[0m", true},
	}
	for _, tt := range tests {
		if got := HasColour(tt.out); got != tt.want {
			t.Errorf("HasColour(%q) = %v, want %v", tt.out, got, tt.want)
		}
	}
}

func TestKeyIsWhatATerminalSends(t *testing.T) {
	tests := []struct {
		name string
		want tea.KeyMsg
	}{
		{"enter", tea.KeyMsg{Type: tea.KeyEnter}},
		{"ctrl+n", tea.KeyMsg{Type: tea.KeyCtrlN}},
		{"pgdown", tea.KeyMsg{Type: tea.KeyPgDown}},
		{"shift+tab", tea.KeyMsg{Type: tea.KeyShiftTab}},
		{"alt+x", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x"), Alt: true}},
		{"S", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("S")}},
		{" ", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" ")}},
	}
	for _, tt := range tests {
		got := Key(tt.name)
		if got.Type != tt.want.Type || string(got.Runes) != string(tt.want.Runes) || got.Alt != tt.want.Alt {
			t.Errorf("Key(%q) = %+v, want %+v", tt.name, got, tt.want)
		}
		if got.String() != tt.name {
			t.Errorf("Key(%q) arrives as %q", tt.name, got.String())
		}
	}
}
