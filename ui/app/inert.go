package app

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/ui/pane"
)

// A key that does nothing where it is pressed says so on the notice line
// rather than nothing at all: a machine action under --readonly, an
// overlay's key outside it, a binding of another pane, a key flywake does
// not use.

// inertKey is why msg does nothing in pane p (the focused tile, or the
// open overlay when overlay is true), "" when p may act on it.
func (m *Model) inertKey(p pane.Pane, msg tea.KeyMsg, overlay bool) string {
	k := m.keys
	if claims(p, msg) || p.Capturing() || m.isNavigation(msg) {
		return ""
	}
	name := sanitize.Line(msg.String())
	if m.cfg.ReadOnly || k.IsReadOnly() {
		for _, b := range k.Dangerous() {
			if matchesKeys(msg, b) {
				return name + " (" + b.Help().Desc + ") is off: flywake runs read-only (--readonly), nothing changes machines"
			}
		}
	}
	switch {
	case matchesKeys(msg, k.NextItem), matchesKeys(msg, k.PrevItem):
		return name + " steps through the checklist's items (" + k.Checklist.Help().Key + " opens it) and the describe view's matches"
	case matchesKeys(msg, k.Compare):
		return name + " compares a wake test's result with the previous one, in the wake test (" + k.WakeTest.Help().Key + ")"
	case overlay:
		return "" // an overlay may take keys it does not list (its setup's + and -)
	case key.Matches(msg, k.Zoom):
		return name + " zooms a pane where several share the screen (at least " + fmt.Sprintf("%d×%d", splitWidth, splitHeight) + ")"
	}
	if desc, where, ok := k.ActsWhere(msg); ok {
		if where == "the dashboard" {
			return name + " (" + desc + ") does nothing in " + p.Title() + " — " + k.Help.Help().Key + " lists the keys"
		}
		return name + " is " + desc + " in " + where + "; here it does nothing"
	}
	return name + " is not a key flywake uses — " + k.Help.Help().Key + " lists them"
}

// isNavigation: the scroll keys reach every pane, whether it lists them
// or has nothing to scroll.
func (m *Model) isNavigation(msg tea.KeyMsg) bool {
	k := m.keys
	for _, b := range []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Left, k.Right, k.Enter, k.Back} {
		if key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// matchesKeys is key.Matches that ignores whether b is enabled: a
// read-only binding still names the key the user pressed.
func matchesKeys(msg tea.KeyMsg, b key.Binding) bool {
	b.SetEnabled(true)
	return key.Matches(msg, b)
}
