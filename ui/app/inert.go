package app

import (
	"fmt"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
)

// A key that does nothing where it is pressed says so on the notice line
// rather than nothing at all: a machine action under --readonly, an
// overlay's key outside it, a binding of another view, a key flywake does
// not use — and a key the pane took and did nothing with (↑ at the top).

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
		return "" // an overlay may take keys it does not list (its setup's + and -): unchanged says why after
	case key.Matches(msg, k.Zoom):
		return name + " zooms a pane where several share the screen (at least " + fmt.Sprintf("%d×%d", splitWidth, splitHeight) + ")"
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		return name + " moves between panes where there are several (at least " + fmt.Sprintf("%d×%d", splitWidth, splitHeight) + " shows them side by side)"
	}
	return m.elsewhere(p, msg)
}

// elsewhere says where msg acts, for a key that does nothing in p's view.
func (m *Model) elsewhere(p pane.Pane, msg tea.KeyMsg) string {
	k := m.keys
	name := sanitize.Line(msg.String())
	if desc, where, ok := k.ActsWhere(msg); ok {
		if where == keys.Dashboard && m.open == nil {
			return name + " (" + desc + ") does nothing in " + p.Title() + " — " + k.Help.Help().Key + " lists the keys"
		}
		return name + " is " + desc + " in " + where + "; here it does nothing"
	}
	return name + " is not a key flywake uses — " + k.Help.Help().Key + " lists them"
}

// keyToPane gives msg to p; when p took it and nothing came of it (no
// command, the same picture), the notice says why instead of nothing.
func (m *Model) keyToPane(p pane.Pane, msg tea.KeyMsg) tea.Cmd {
	if p.Capturing() {
		return m.updatePane(p, msg)
	}
	before := m.look(p)
	cmd := m.updatePane(p, msg)
	if cmd != nil || p.Capturing() || m.look(p) != before {
		return cmd
	}
	return m.setNotice(noticeInfo, m.unchanged(p, msg))
}

// look is what p shows at its size now, to tell whether a key changed it.
func (m *Model) look(p pane.Pane) string {
	w, _ := m.sizeOf(p)
	return p.View(true, m.now()) + "\x00" + strconv.Itoa(p.Height(w))
}

// sizeOf is the inner size p was last given.
func (m *Model) sizeOf(p pane.Pane) (int, int) {
	s := m.sizes[p.ID()]
	return s[0], s[1]
}

// unchanged is why a key p took changed nothing: the edge of what it
// scrolls, nothing to go back to, or the key's use elsewhere.
func (m *Model) unchanged(p pane.Pane, msg tea.KeyMsg) string {
	k := m.keys
	name := sanitize.Line(msg.String())
	switch {
	case key.Matches(msg, k.Up), key.Matches(msg, k.PageUp), key.Matches(msg, k.Home):
		return name + ": " + p.Title() + " is at its top"
	case key.Matches(msg, k.Down), key.Matches(msg, k.PageDown), key.Matches(msg, k.End):
		return name + ": " + p.Title() + " is at its end — nothing more below"
	case key.Matches(msg, k.Left):
		return name + ": nothing more to the left in " + p.Title()
	case key.Matches(msg, k.Right):
		return name + ": nothing more to the right in " + p.Title()
	case key.Matches(msg, k.Back):
		return name + ": nothing to go back to here — " + k.Command.Help().Key + " opens an app or a command, " + k.Quit.Help().Key + " quits"
	}
	if desc, ok := k.ActsIn(m.placeOf(p), msg); ok {
		return name + " (" + desc + ") changes nothing in " + p.Title() + " now"
	}
	return m.elsewhere(p, msg)
}

// placeOf is the place (ui/keys/places.go) p's keys are read in: the
// overlay's, the describe view's, or the dashboard's.
func (m *Model) placeOf(p pane.Pane) string {
	for _, o := range m.overlays {
		if o.pane.ID() == p.ID() {
			return o.place
		}
	}
	if mp, ok := p.(*machines.Model); ok && mp.InDescribe() {
		return keys.Describe
	}
	return keys.Dashboard
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
