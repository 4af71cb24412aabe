package theme

import (
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
)

var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourParams returns the SGR parameters in s that set a colour
// (30–38, 40–48, 90–97, 100–107).
func colourParams(s string) []string {
	var found []string
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				found = append(found, m[0])
			}
		}
	}
	return found
}

func pinProfile(t *testing.T) {
	t.Helper()
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
}

func TestEveryMachineStateHasGlyphWordAndSingleCellGlyph(t *testing.T) {
	th := New(false)
	seen := map[string]string{}
	for _, st := range diagnose.States {
		s := st.Name
		look := th.State(s)
		if look.Glyph == GlyphUnknown {
			t.Errorf("state %q falls back to unknown", s)
		}
		if look.Word != s {
			t.Errorf("state %q: word %q", s, look.Word)
		}
		if w := lipgloss.Width(look.Glyph); w != 1 {
			t.Errorf("state %q: glyph %q is %d cells wide", s, look.Glyph, w)
		}
		seen[s] = look.Glyph
	}
	for name := range stateDrawings {
		if !slices.Contains(stateNames(), name) {
			t.Errorf("the theme draws %q, which diagnose.States does not list", name)
		}
	}
	// Persistent states must be told apart by glyph alone.
	persistent := []string{"started", "stopped", "suspended", "failed", "created"}
	glyphs := map[string]string{}
	for _, s := range persistent {
		if other, dup := glyphs[seen[s]]; dup {
			t.Errorf("%s and %s share glyph %s", s, other, seen[s])
		}
		glyphs[seen[s]] = s
	}
}

func TestStateGlyphs(t *testing.T) {
	th := New(false)
	cases := []struct{ in, glyph, word string }{
		{"started", "●", "started"},
		{"stopped", "○", "stopped"},
		{"STOPPED", "?", "STOPPED"}, // matched exactly, as diagnose.Classify does
		{"suspended", "◎", "suspended"},
		{"starting", "▲", "starting"},
		{"resuming", "▲", "resuming"},
		{"stopping", "▼", "stopping"},
		{"suspending", "▼", "suspending"},
		{"restarting", "◔", "restarting"},
		{"replacing", "◇", "replacing"},
		{"updating", "◇", "updating"},
		{"failed", "✗", "failed"},
		{"launch_failed", "✗", "launch_failed"},
		{"creating", "◌", "creating"},
		{"destroyed", "†", "destroyed"},
		{"migrated", "·", "migrated"},
		{"hibernating", "?", "hibernating"},
		{"", "?", "unknown"},
		{sanitize.Field("evil\x1b[31m\nstate"), "?", "evil␛[31m state"}, // as the model keeps it
		{strings.Repeat("x", 100), "?", strings.Repeat("x", 23) + "…"},
	}
	for _, c := range cases {
		look := th.State(c.in)
		if look.Glyph != c.glyph || look.Word != c.word {
			t.Errorf("State(%q) = %q %q, want %q %q", c.in, look.Glyph, look.Word, c.glyph, c.word)
		}
	}
}

func TestLevels(t *testing.T) {
	th := New(false)
	cases := []struct {
		in          diagnose.Level
		glyph, word string
	}{
		{diagnose.Pass, "✓", "pass"},
		{diagnose.Warn, "!", "warn"},
		{diagnose.Fail, "✗", "fail"},
		{diagnose.Unknown, "?", "unknown"},
		{diagnose.NA, "–", "n/a"},
		{diagnose.Level(99), "?", "unknown"},
	}
	for _, c := range cases {
		look := th.Level(c.in)
		if look.Glyph != c.glyph || look.Word != c.word {
			t.Errorf("Level(%v) = %q %q, want %q %q", c.in, look.Glyph, look.Word, c.glyph, c.word)
		}
		if lipgloss.Width(look.Glyph) != 1 {
			t.Errorf("Level(%v) glyph not single-cell", c.in)
		}
	}
	// Every level has its own drawing, never the unknown fallback.
	for _, l := range diagnose.Levels {
		if l != diagnose.Unknown && th.Level(l).Plain() == th.Level(diagnose.Unknown).Plain() {
			t.Errorf("level %s drawn as unknown", l)
		}
	}
}

func TestColourThemeUsesColours(t *testing.T) {
	pinProfile(t)
	th := New(false)
	for _, s := range []string{"started", "failed", "starting", "suspended"} {
		out := th.State(s).Render()
		if len(colourParams(out)) == 0 {
			t.Errorf("colour theme: %q rendered without colour: %q", s, out)
		}
	}
	// Healthy, moving and failed must not share a colour.
	started := strings.Join(colourParams(th.State("started").Render()), "")
	moving := strings.Join(colourParams(th.State("starting").Render()), "")
	failed := strings.Join(colourParams(th.State("failed").Render()), "")
	if started == failed || started == moving || moving == failed {
		t.Errorf("colours collide: started %q starting %q failed %q", started, moving, failed)
	}
}

func TestNoColorKeepsGlyphWordAndAttributes(t *testing.T) {
	pinProfile(t)
	th := New(true)
	if !th.NoColor {
		t.Fatal("NoColor not recorded")
	}
	for _, s := range append(stateNames(), "mystery") {
		look := th.State(s)
		out := look.Render()
		if c := colourParams(out); len(c) > 0 {
			t.Errorf("NO_COLOR: state %q emits colour codes %q", s, c)
		}
		if plain := ansi.Strip(out); plain != look.Glyph+" "+look.Word {
			t.Errorf("NO_COLOR: state %q plain %q lost glyph or word", s, plain)
		}
	}
	for _, l := range diagnose.Levels {
		if c := colourParams(th.Level(l).Render()); len(c) > 0 {
			t.Errorf("NO_COLOR: level %q emits colour codes %q", l, c)
		}
	}
	styles := map[string]lipgloss.Style{
		"Header": th.Header, "Footer": th.Footer, "PaneTitle": th.PaneTitle,
		"PaneTitleFocused": th.PaneTitleFocused, "Border": th.Border, "FocusedBorder": th.FocusedBorder,
		"Dim": th.Dim, "Selected": th.Selected, "Flash": th.Flash, "Warn": th.Warn, "Fail": th.Fail,
		"Pass": th.Pass, "Unknown": th.Unknown, "Badge": th.Badge, "Banner": th.Banner,
		"TableHeader": th.TableHeader, "HelpKey": th.Help.ShortKey,
	}
	for name, st := range styles {
		out := st.Render("x")
		if c := colourParams(out); len(c) > 0 {
			t.Errorf("NO_COLOR: %s emits colour codes %q", name, c)
		}
	}
	// Attributes survive: these are what make selection, focus and alerts visible.
	attrs := []struct {
		name  string
		style lipgloss.Style
		want  string // SGR parameter that must appear
	}{
		{"Selected reverse", th.Selected, "7"},
		{"Selected bold", th.Selected, "1"},
		{"Focused title underline", th.PaneTitleFocused, "4"},
		{"Banner reverse", th.Banner, "7"},
		{"Badge reverse", th.Badge, "7"},
		{"Dim faint", th.Dim, "2"},
	}
	for _, a := range attrs {
		if !hasParam(a.style.Render("x"), a.want) {
			t.Errorf("NO_COLOR: %s missing SGR %s in %q", a.name, a.want, a.style.Render("x"))
		}
	}
	if th.BorderShape.Top == th.FocusedBorderShape.Top {
		t.Error("focused and unfocused borders must differ in shape, not only colour")
	}
}

func stateNames() []string {
	var out []string
	for _, s := range diagnose.States {
		out = append(out, s.Name)
	}
	return out
}

func hasParam(s, want string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.Split(m[1], ";") {
			if p == want {
				return true
			}
		}
	}
	return false
}

func TestFromEnvHonoursNoColor(t *testing.T) {
	cases := []struct {
		value string
		want  bool
	}{{"", false}, {"1", true}, {"0", true}, {"false", true}}
	for _, c := range cases {
		t.Setenv("NO_COLOR", c.value)
		if got := FromEnv().NoColor; got != c.want {
			t.Errorf("NO_COLOR=%q: NoColor=%v, want %v", c.value, got, c.want)
		}
	}
}

// env is a fixed environment for forTerminal.
type env map[string]string

func (e env) Environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}
func (e env) Getenv(k string) string { return e[k] }

// The dashboard's theme is read as a terminal's: a CI variable must not
// strip the cursor row's reverse video (termenv alone takes CI to mean "no
// terminal" and drops every style), and a terminal without colours keeps
// the attributes.
func TestForTerminalKeepsTheCursorVisible(t *testing.T) {
	cases := []struct {
		name        string
		env         env
		wantNoColor bool
		wantColour  bool
	}{
		{"256 colours", env{"TERM": "xterm-256color"}, false, true},
		{"256 colours with CI set", env{"TERM": "xterm-256color", "CI": "true"}, false, true},
		{"tmux-256color with CI set", env{"TERM": "tmux-256color", "CI": "1"}, false, true},
		{"screen (no colours termenv knows of)", env{"TERM": "screen"}, true, false},
		{"dumb terminal", env{"TERM": "dumb"}, true, false},
		{"NO_COLOR", env{"TERM": "xterm-256color", "NO_COLOR": "1"}, true, false},
		{"CLICOLOR=0", env{"TERM": "xterm-256color", "CLICOLOR": "0"}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th := forTerminal(io.Discard, c.env)
			if th.NoColor != c.wantNoColor {
				t.Errorf("NoColor = %v, want %v", th.NoColor, c.wantNoColor)
			}
			if row := th.Selected.Render("sleepy-api"); !hasParam(row, "7") {
				t.Errorf("the cursor row has no reverse video: %q", row)
			}
			if got := len(colourParams(th.Fail.Render("x"))) > 0; got != c.wantColour {
				t.Errorf("Fail in colour = %v, want %v: %q", got, c.wantColour, th.Fail.Render("x"))
			}
		})
	}
}

// A prompt's cursor is drawn in reverse video under every theme: bubbles'
// own default styles (lipgloss's default renderer, ASCII when not on a
// terminal, under NO_COLOR or with CI set) drew none.
func TestInputCursorIsVisible(t *testing.T) {
	for name, th := range map[string]*Theme{
		"NO_COLOR": New(true),
		"CI set":   forTerminal(io.Discard, env{"TERM": "xterm-256color", "CI": "true"}),
		"dumb":     forTerminal(io.Discard, env{"TERM": "dumb"}),
	} {
		in := th.NewInput(":")
		if cmd := in.Focus(); cmd != nil {
			t.Errorf("%s: focusing the input starts a blink timer", name)
		}
		in.SetValue("sna")
		if v := in.View(); !hasParam(v, "7") {
			t.Errorf("%s: no reverse-video cursor in %q", name, v)
		}
	}
}
