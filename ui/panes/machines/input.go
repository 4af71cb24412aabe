package machines

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// lineInput is a one-line text field. bubbles/textinput would do, but it
// pulls in a clipboard module this repository's go.sum does not carry.
type lineInput struct {
	value []rune
}

// handle applies an editing key and reports whether the value changed.
func (in *lineInput) handle(km tea.KeyMsg) bool {
	switch km.Type {
	case tea.KeyRunes, tea.KeySpace:
		in.value = append(in.value, km.Runes...)
		if km.Type == tea.KeySpace && len(km.Runes) == 0 {
			in.value = append(in.value, ' ')
		}
		return true
	case tea.KeyBackspace, tea.KeyCtrlH:
		if len(in.value) > 0 {
			in.value = in.value[:len(in.value)-1]
			return true
		}
	case tea.KeyCtrlU:
		in.value = nil
		return true
	}
	return false
}

func (in *lineInput) Value() string     { return string(in.value) }
func (in *lineInput) SetValue(s string) { in.value = []rune(s) }

// view is prompt, value and a block cursor.
func (in *lineInput) view(prompt string) string {
	return prompt + strings.TrimRight(string(in.value), "\n") + "▏"
}
