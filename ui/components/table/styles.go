package table

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/theme"
)

// Styles are the table's styles; take them from the theme.
type Styles struct {
	Header   lipgloss.Style
	Selected lipgloss.Style
	Flash    lipgloss.Style // the flash marker in the left gutter
	Dim      lipgloss.Style // stale tables and the position line
}

// StylesFrom picks the table styles out of the theme (no new styles built).
func StylesFrom(t *theme.Theme) Styles {
	return Styles{Header: t.TableHeader, Selected: t.Selected, Flash: t.Flash, Dim: t.Dim}
}

// StateStyles hands out one stable style per machine state, so rows can
// point at a state's style (Row.Styles) without building one per row.
type StateStyles struct {
	th    *theme.Theme
	looks map[string]stateLook
}

type stateLook struct {
	plain string
	style *lipgloss.Style
	width int // plain's cells
}

// NewStateStyles is an empty cache over the theme's state looks.
func NewStateStyles(th *theme.Theme) *StateStyles {
	return &StateStyles{th: th, looks: map[string]stateLook{}}
}

// Look is a state's plain "● started" and its style.
func (s *StateStyles) Look(state string) (string, *lipgloss.Style) {
	l := s.look(state)
	return l.plain, l.style
}

// Width is the cells of a state's plain look.
func (s *StateStyles) Width(state string) int { return s.look(state).width }

func (s *StateStyles) look(state string) stateLook {
	l, ok := s.looks[state]
	if !ok {
		look := s.th.State(state)
		l = stateLook{plain: look.Plain(), style: &look.Style}
		l.width = ansi.StringWidth(l.plain)
		s.looks[state] = l
	}
	return l
}
