package theme

import "github.com/charmbracelet/lipgloss"

// The 16 basic ANSI colours: the user's terminal palette decides the exact
// shade, which keeps light and dark backgrounds readable.
const (
	colorBlack        = "0"
	colorRed          = "1"
	colorGreen        = "2"
	colorYellow       = "3"
	colorBlue         = "4"
	colorMagenta      = "5"
	colorCyan         = "6"
	colorWhite        = "7"
	colorDarkGray     = "8"
	colorYellowBright = "11"
	colorBright       = "15"
	colorGray         = "245"
	colorAccent       = colorCyan
)

// palette builds styles on one renderer and leaves colours out under NO_COLOR.
type palette struct {
	r       *lipgloss.Renderer
	noColor bool
}

func (p palette) style() lipgloss.Style { return p.r.NewStyle() }

func (p palette) fg(s lipgloss.Style, c string) lipgloss.Style {
	if p.noColor {
		return s
	}
	return s.Foreground(lipgloss.Color(c))
}

func (p palette) bg(s lipgloss.Style, fg, bg string) lipgloss.Style {
	if p.noColor {
		return s
	}
	return s.Foreground(lipgloss.Color(fg)).Background(lipgloss.Color(bg))
}
