package app

import (
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// switcher is the `:` prompt: type an app name (or a command, see
// switchCommands); the matches show under it, the first highlighted. tab
// and shift+tab move the highlight, enter takes it. A name that matches
// nothing in a list that is known is refused in place; with the list
// unknown (loading, or it failed) the typed name is tried, and a switch to
// an app the platform does not have comes back (see onFatal).
type switcher struct {
	input   textinput.Model
	apps    []string
	cmds    []switchWord // the command words it also takes
	err     error
	loading bool   // the apps are being listed
	listed  bool   // they were listed (known decides with this)
	pick    int    // the highlighted match
	refusal string // why the last enter did nothing
}

// switchWord is one command of the prompt by its names: the first is
// listed, every one matches ("q" finds quit).
type switchWord struct{ names []string }

// match is how typed (lower case) matches w: exactly, as the start of a
// name, inside one, or not at all (0).
func (w switchWord) match(typed string) int {
	best := 0
	for _, n := range w.names {
		best = max(best, matchOf(strings.ToLower(n), typed))
	}
	return best
}

// How a name matches what was typed, best last.
const (
	noMatch = iota
	matchInside
	matchPrefix
	matchExact
)

func matchOf(name, typed string) int {
	switch {
	case typed != "" && name == typed:
		return matchExact
	case strings.HasPrefix(name, typed):
		return matchPrefix
	case strings.Contains(name, typed):
		return matchInside
	}
	return noMatch
}

func newSwitcher(th *theme.Theme, width int, cmds []switchWord, loading bool) *switcher {
	in := th.NewInput(":")
	in.Width = max(width-2, 1)
	in.Focus()
	return &switcher{input: in, cmds: cmds, loading: loading}
}

func (s *switcher) setApps(apps []string, err error) {
	s.loading, s.listed = false, true
	s.err = err
	s.apps = append([]string(nil), apps...)
	sort.Strings(s.apps)
	s.pick = 0
}

func (s *switcher) value() string { return strings.TrimSpace(s.input.Value()) }

// known reports whether the app list is in hand, so a name not in it can
// be refused.
func (s *switcher) known() bool { return s.listed && s.err == nil }

// matches are what was typed exactly (so an app called "app" is not hidden
// behind the apps command), then the apps and commands starting with it,
// then those holding it elsewhere (k9s matches so too); nothing typed: all.
// Apps come before commands in each group: the prompt is mostly for them.
func (s *switcher) matches() []entry {
	typed := strings.ToLower(s.value())
	groups := make([][]entry, matchExact+1)
	for _, a := range s.apps {
		k := matchOf(strings.ToLower(a), typed)
		groups[k] = append(groups[k], entry{name: a})
	}
	for _, c := range s.cmds {
		k := c.match(typed)
		groups[k] = append(groups[k], entry{name: c.names[0], command: true})
	}
	return slices.Concat(groups[matchExact], groups[matchPrefix], groups[matchInside])
}

// entry is one match: an app, or a command by its first name.
type entry struct {
	name    string
	command bool
}

// highlighted is the match enter takes; ok is false when there is none.
func (s *switcher) highlighted() (entry, bool) {
	ms := s.matches()
	if len(ms) == 0 {
		return entry{}, false
	}
	return ms[min(s.pick, len(ms)-1)], true
}

// cycle moves the highlight by step through the matches, round the end.
func (s *switcher) cycle(step int) {
	if n := len(s.matches()); n > 0 {
		s.pick = (min(s.pick, n-1) + step + n) % n
	}
}

// choice is what enter takes: the highlighted match; the typed name when
// the list is unknown; ok false (with a refusal said) when nothing is
// typed or the name matches nothing in a known list.
func (s *switcher) choice() (entry, bool) {
	typed := s.value()
	if typed == "" {
		s.refusal = "type an app's name or a command (" + s.commandList() + "), esc to stay"
		return entry{}, false
	}
	if h, ok := s.highlighted(); ok {
		return h, true
	}
	if !s.known() {
		return entry{name: typed}, true // it cannot be checked: try it, and come back if it is not there
	}
	s.refusal = "no app or command matches “" + sanitize.Line(typed) + "” (commands: " + s.commandList() + ") — backspace to change it, esc to stay"
	return entry{}, false
}

// refuse keeps the prompt open saying why (a command that cannot run now).
func (s *switcher) refuse(why string) { s.refusal = why }

// commandList names the commands: "apps, machines, …, quit".
func (s *switcher) commandList() string {
	names := make([]string, len(s.cmds))
	for i, c := range s.cmds {
		names[i] = c.names[0]
	}
	return strings.Join(names, ", ")
}

// update types into the field (a new text highlights its first match).
func (s *switcher) update(msg tea.Msg) tea.Cmd {
	before := s.input.Value()
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	if s.input.Value() != before {
		s.pick, s.refusal = 0, ""
	}
	return cmd
}

// hint is the line under the prompt: the matches with the highlighted one
// marked, or why there are none.
func (s *switcher) hint(width int, highlight func(string) string) string {
	switch {
	case s.refusal != "":
		return s.refusal
	case s.loading:
		return "loading apps… (enter tries the name as typed)"
	case s.err != nil:
		return "could not list apps (" + cell.OneLine(s.err.Error()) + ") — type the name; enter tries it"
	case !s.listed:
		return "no app list to complete from — type the name; enter tries it"
	}
	ms := s.matches()
	if len(ms) == 0 {
		return "no app or command starts with or holds “" + sanitize.Line(s.value()) + "”"
	}
	pick := min(s.pick, len(ms)-1)
	room := width - 12 // the marks and "+N more"
	span := func(from, to int) int {
		n := 0
		for _, m := range ms[from : to+1] {
			n += ansi.StringWidth(m.name) + 2
		}
		return n
	}
	first := 0 // a window of matches that holds the highlighted one
	for first < pick && span(first, pick) > room {
		first++
	}
	var parts []string
	if first > 0 {
		parts = append(parts, "…")
	}
	for i := first; i < len(ms); i++ {
		if i > pick && span(first, i) > room {
			parts = append(parts, "+"+cell.Thousands(len(ms)-i)+" more")
			break
		}
		if i == pick {
			parts = append(parts, highlight(ms[i].name))
		} else {
			parts = append(parts, ms[i].name)
		}
	}
	return strings.Join(parts, "  ")
}

// switcherKeys are the footer's hints while the switcher is open.
func switcherKeys(k *keys.KeyMap) hintMap {
	return hintMap{
		pane.Relabel(k.Enter, "", "open highlighted"),
		pane.Pair(k.NextPane, k.PrevPane, "next/prev match"),
		pane.Relabel(k.Back, "", "cancel"),
	}
}
