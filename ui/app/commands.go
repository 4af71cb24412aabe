package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/checklist"
	"github.com/flywake/flywake/ui/panes/logs"
	"github.com/flywake/flywake/ui/panes/wake"
)

// The `:` prompt takes an app's name or one of these words (k9s's
// resource commands work the same way). The list is the one place a new
// command goes: the prompt completes from it, the help and the README's
// table name its words.

// command is a word the `:` prompt takes besides an app name.
type command struct {
	// names: the first is the one the prompt lists; every one is taken
	// (q for quit, dash for machines).
	names []string
	desc  string
	// refuse says why the command cannot run now, "" when it can; the
	// prompt stays open and says so.
	refuse func(m *Model) string
	run    func(m Model) (tea.Model, tea.Cmd)
}

// appsCommand, typed in the prompt, opens the org overview.
const appsCommand = "apps"

func (m *Model) commands() []command {
	return []command{
		{names: []string{appsCommand}, desc: "every app of the org", run: func(m Model) (tea.Model, tea.Cmd) {
			if m.fatal != nil { // the app that failed is left, not kept under the overview
				return m.switchApp("")
			}
			m.help = false
			cmd := m.showOverview()
			return m, cmd
		}},
		{names: []string{"machines", "dash"}, desc: "the open app's dashboard", refuse: needApp, run: func(m Model) (tea.Model, tea.Cmd) {
			m.help, m.open = false, nil
			return m, nil
		}},
		{names: []string{"logs"}, desc: "the open app's logs", refuse: needApp, run: overlayCommand(logs.ID)},
		{names: []string{"checklist"}, desc: "the pre-deploy checklist", refuse: needApp, run: overlayCommand(checklist.ID)},
		{names: []string{"wake"}, desc: "the wake test", refuse: func(m *Model) string {
			if !m.keys.WakeTest.Enabled() {
				return "the wake test is off: flywake runs read-only (--readonly), nothing changes machines"
			}
			return needApp(m)
		}, run: overlayCommand(wake.ID)},
		{names: []string{"help"}, desc: "every key", run: func(m Model) (tea.Model, tea.Cmd) {
			m.help, m.notice = true, notice{}
			return m, nil
		}},
		{names: []string{"quit", "q"}, desc: "leave flywake", run: func(m Model) (tea.Model, tea.Cmd) { return m.quit() }},
	}
}

// needApp refuses a command that shows the open app when there is none
// (the overview chose none yet, or the app could not be shown).
func needApp(m *Model) string {
	switch {
	case m.fatal != nil:
		return "flywake cannot show " + m.cfg.App + " — type another app's name, or apps for all of them"
	case m.cfg.App == "":
		return "no app is open — type its name, or pick it in the list and press " + m.keys.Enter.Help().Key
	}
	return ""
}

// overlayCommand opens the overlay id over the open app's dashboard.
func overlayCommand(id pane.ID) func(m Model) (tea.Model, tea.Cmd) {
	return func(m Model) (tea.Model, tea.Cmd) {
		m.help = false
		for _, o := range m.overlays {
			if o.pane.ID() == id {
				if m.open == o.pane {
					return m, nil // already shown
				}
				return m, m.openOverlay(o.pane)
			}
		}
		return m, nil
	}
}

// commandNamed is the command one of whose names is word.
func (m *Model) commandNamed(word string) (command, bool) {
	for _, c := range m.commands() {
		for _, n := range c.names {
			if strings.EqualFold(n, word) {
				return c, true
			}
		}
	}
	return command{}, false
}

// commandWords are what the prompt completes from: each command once, by
// every name it takes (the first listed, the others matched).
func (m *Model) commandWords() []switchWord {
	var out []switchWord
	for _, c := range m.commands() {
		out = append(out, switchWord{names: c.names})
	}
	return out
}

// Views are what --view opens straight on, as `k9s -c pods` does: the
// dashboard (machines), one of its overlays, or the org overview.
var Views = []string{"machines", "logs", "checklist", "wake", "overview"}

// viewOverlays are the overlays --view names.
var viewOverlays = map[string]pane.ID{"logs": logs.ID, "checklist": checklist.ID, "wake": wake.ID}

// CheckView says why --view view cannot open on app ("" none: the org
// overview opens first), nil when it can.
func CheckView(view, app string, readOnly bool) error {
	switch {
	case !slices.Contains(Views, view):
		return fmt.Errorf("--view %q is not a view: it takes %s", view, strings.Join(Views, ", "))
	case view == "wake" && readOnly:
		return errors.New("--view wake: the wake test is off under --readonly (it changes machines)")
	case app == "" && view != "overview":
		return fmt.Errorf("--view %s shows one app: name it with -a APP (FLY_APP or fly.toml also do); without one the org overview opens", view)
	}
	return nil
}

// openView opens the view --view named over the app just built (New
// calls it); its command waits in pending for Init.
func (m *Model) openView(view string) {
	if id, ok := viewOverlays[view]; ok && m.cfg.App != "" {
		for _, o := range m.overlays {
			if o.pane.ID() == id && (id != wake.ID || m.keys.WakeTest.Enabled()) {
				m.pending = append(m.pending, m.openOverlay(o.pane))
			}
		}
	}
	if view == "overview" {
		m.open = m.overviewPane() // Init starts the org's feeds
		m.relayout()
	}
}
