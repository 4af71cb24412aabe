// Package theme holds flywake's one visual theme: every lipgloss style is
// built once in New and reused by every frame.
//
// Colour is never the only signal. Each state and level carries a glyph and
// a word as well, and with NO_COLOR the styles keep their bold, reverse,
// underline and faint attributes so focus and selection stay visible.
package theme

import (
	"io"
	"os"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/flywake/flywake/sources/diagnose"
)

// Theme is the set of semantic styles the UI draws with. Treat it as
// read-only after New; share one *Theme across all panes.
type Theme struct {
	// NoColor reports whether colours are off (NO_COLOR).
	NoColor bool

	Header lipgloss.Style // top bar text
	Footer lipgloss.Style // bottom bar text outside key hints

	PaneTitle        lipgloss.Style
	PaneTitleFocused lipgloss.Style
	Border           lipgloss.Style // colour/attributes of an unfocused pane border
	FocusedBorder    lipgloss.Style
	// BorderShape and FocusedBorderShape differ in line weight, so focus is
	// visible without colour.
	BorderShape        lipgloss.Border
	FocusedBorderShape lipgloss.Border

	Text        lipgloss.Style // ordinary text, no decoration
	TableHeader lipgloss.Style
	Dim         lipgloss.Style // stale data, secondary text
	Selected    lipgloss.Style // cursor row
	Flash       lipgloss.Style // row changed in the last refresh
	Warn        lipgloss.Style
	Fail        lipgloss.Style
	Pass        lipgloss.Style
	Unknown     lipgloss.Style
	Badge       lipgloss.Style // small inverted label, e.g. DEMO, CRASH-LOOP
	Banner      lipgloss.Style // full-width alert, e.g. crash-looping release

	// Help styles the bubbles/help key hints (footer and ? overlay).
	Help help.Styles

	renderer *lipgloss.Renderer
	states   map[string]StateLook
	levels   map[diagnose.Level]StateLook
}

// FromEnv builds the dashboard's theme for the terminal on stdout. NO_COLOR
// (any non-empty value, https://no-color.org) or CLICOLOR=0 turns colours
// off; otherwise TERM and COLORTERM say how many there are.
func FromEnv() *Theme { return forTerminal(os.Stdout, processEnv{}) }

// processEnv is the process's environment as termenv reads it (termenv's
// own is unexported).
type processEnv struct{}

func (processEnv) Environ() []string        { return os.Environ() }
func (processEnv) Getenv(key string) string { return os.Getenv(key) }

// forTerminal reads the colour profile as a terminal's. termenv, under
// lipgloss, takes any set CI variable to mean "not a terminal" and drops
// every style — the cursor row's reverse video with them, so in a shell with
// CI=true nothing showed which row enter would open. The dashboard only ever
// draws on a terminal (app.CheckTerminal refuses anything else), so that
// guess is wrong here. A terminal with no colours at all (TERM=dumb) gets the
// NO_COLOR theme, whose attributes still show focus and selection.
func forTerminal(w io.Writer, env termenv.Environ) *Theme {
	opts := []termenv.OutputOption{termenv.WithTTY(true), termenv.WithEnvironment(env)}
	profile := termenv.NewOutput(w, opts...).EnvColorProfile()
	if profile == termenv.Ascii {
		return New(true)
	}
	r := lipgloss.NewRenderer(w, opts...)
	r.SetColorProfile(profile)
	return build(r, false)
}

// New builds every style once, on lipgloss's default renderer (tests pin its
// profile).
//
// With noColor the styles carry no colours at all and are bound to their own
// renderer pinned to the ANSI profile. That matters: lipgloss's default
// renderer maps NO_COLOR to the ASCII profile, which also drops bold and
// reverse, and the cursor row would vanish.
func New(noColor bool) *Theme {
	r := lipgloss.DefaultRenderer()
	if noColor {
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.ANSI)
	}
	return build(r, noColor)
}

func build(r *lipgloss.Renderer, noColor bool) *Theme {
	p := palette{r: r, noColor: noColor}

	t := &Theme{
		NoColor:            noColor,
		renderer:           r,
		BorderShape:        lipgloss.RoundedBorder(),
		FocusedBorderShape: lipgloss.ThickBorder(),
	}
	t.Text = p.style()
	t.Header = p.fg(p.style().Bold(true), colorBright)
	t.Footer = p.fg(p.style(), colorGray)
	t.PaneTitle = p.fg(p.style().Bold(true), colorBright)
	t.PaneTitleFocused = p.fg(p.style().Bold(true).Underline(noColor), colorAccent)
	t.Border = p.fg(p.style(), colorDarkGray)
	t.FocusedBorder = p.fg(p.style().Bold(true), colorAccent)
	t.TableHeader = p.fg(p.style().Bold(true).Underline(true), colorBright)
	t.Dim = p.fg(p.style().Faint(true), colorGray)
	t.Selected = p.style().Reverse(true).Bold(true)
	t.Flash = p.fg(p.style().Bold(true), colorYellowBright)
	t.Warn = p.fg(p.style().Bold(true), colorYellow)
	t.Fail = p.fg(p.style().Bold(true), colorRed)
	t.Pass = p.fg(p.style(), colorGreen)
	t.Unknown = p.fg(p.style(), colorMagenta)
	t.Badge = p.bg(p.style().Bold(true).Reverse(noColor), colorBlack, colorYellow)
	t.Banner = p.bg(p.style().Bold(true).Reverse(noColor), colorWhite, colorRed)
	t.Help = help.Styles{
		Ellipsis:       t.Dim,
		ShortKey:       p.fg(p.style().Bold(true), colorAccent),
		ShortDesc:      p.fg(p.style(), colorGray),
		ShortSeparator: t.Dim,
		FullKey:        p.fg(p.style().Bold(true), colorAccent),
		FullDesc:       p.style(),
		FullSeparator:  t.Dim,
	}
	t.states = buildStates(p, t)
	t.levels = buildLevels(t)
	return t
}

// Renderer is the lipgloss renderer every theme style is bound to. Panes
// that need an extra style should build it once from here, not per frame.
func (t *Theme) Renderer() *lipgloss.Renderer { return t.renderer }

// NewInput is a text input drawn in the theme. bubbles builds its default
// styles on lipgloss's default renderer, which drops every attribute under
// NO_COLOR (and with CI set): the cursor's reverse video went with them, and
// a `:` or `/` prompt showed no cursor at all. The cursor does not blink:
// a blink is a timer that redraws the screen twice a second while nothing
// else changes.
func (t *Theme) NewInput(prompt string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.PromptStyle, in.TextStyle = t.Text, t.Text
	in.PlaceholderStyle, in.CompletionStyle = t.Dim, t.Dim
	in.Cursor.Style, in.Cursor.TextStyle = t.renderer.NewStyle(), t.Text
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}
