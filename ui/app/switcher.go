package app

import (
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// switcher is the `:` prompt: type an app name, tab completes from the
// org's apps, enter switches, esc cancels.
type switcher struct {
	input   lineInput
	apps    []string
	err     error
	loading bool
}

func newSwitcher() *switcher {
	return &switcher{loading: true}
}

func (s *switcher) setApps(apps []string, err error) {
	s.loading = false
	s.err = err
	s.apps = append([]string(nil), apps...)
	sort.Strings(s.apps)
}

func (s *switcher) value() string { return strings.TrimSpace(s.input.Value()) }

// matches are the apps starting with what was typed.
func (s *switcher) matches() []string {
	typed := s.value()
	var out []string
	for _, a := range s.apps {
		if strings.HasPrefix(a, typed) {
			out = append(out, a)
		}
	}
	return out
}

// complete extends the input to the longest common prefix of the matches,
// or to the first match when the input already is that prefix.
func (s *switcher) complete() {
	ms := s.matches()
	if len(ms) == 0 {
		return
	}
	if p := lcpOf(ms); p != s.value() {
		s.input.SetValue(p)
		return
	}
	s.input.SetValue(ms[0])
}

func lcpOf(ms []string) string {
	p := ms[0]
	for _, a := range ms[1:] {
		for !strings.HasPrefix(a, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// hint is the line under the prompt: the matches, or why there are none.
func (s *switcher) hint() string {
	switch {
	case s.loading:
		return "loading apps…"
	case s.err != nil:
		return "could not list apps (" + s.err.Error() + ") — type the name"
	}
	ms := s.matches()
	if len(ms) == 0 {
		return "no app starts with “" + s.value() + "”"
	}
	return strings.Join(ms, "  ")
}

// lineInput is a one-line text field. bubbles/textinput would do, but it
// pulls in a clipboard module this repository's go.sum does not carry.
type lineInput struct{ value []rune }

func (in *lineInput) handle(km tea.KeyMsg) {
	switch km.Type {
	case tea.KeyRunes:
		in.value = append(in.value, km.Runes...)
	case tea.KeyBackspace:
		if len(in.value) > 0 {
			in.value = in.value[:len(in.value)-1]
		}
	case tea.KeyCtrlU:
		in.value = nil
	}
}

func (in *lineInput) Value() string     { return string(in.value) }
func (in *lineInput) SetValue(s string) { in.value = []rune(s) }
