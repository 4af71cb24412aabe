package machines

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/keys"
)

// Action is something the user asked to do to one machine.
type Action int

const (
	ActionStart Action = iota + 1
	ActionStop
	ActionSuspend
	// ActionResume is a start of a suspended machine: the same call, which
	// wakes it from its snapshot rather than booting it, so it is named
	// for what it does.
	ActionResume
)

// String is the verb: "start", "stop", "suspend", "resume".
func (a Action) String() string {
	switch a {
	case ActionStart:
		return "start"
	case ActionResume:
		return "resume"
	case ActionStop:
		return "stop"
	case ActionSuspend:
		return "suspend"
	default:
		return "unknown action"
	}
}

// ActionRequest asks the root to act on a machine. The pane only asks: the
// root confirms with the user, refuses what makes no sense, and does the I/O.
type ActionRequest struct {
	Action    Action
	MachineID string
}

// actionFor maps a key to the action it asks for. Under --readonly the
// bindings are disabled and never match; the pane context is checked too,
// so a key map built without ReadOnly still cannot act.
func (m *Model) actionFor(km tea.KeyMsg, k keys.KeyMap) (Action, bool) {
	if m.ctx.ReadOnly || k.IsReadOnly() {
		return 0, false
	}
	switch {
	case key.Matches(km, k.Start):
		return ActionStart, true
	case key.Matches(km, k.Stop):
		return ActionStop, true
	case key.Matches(km, k.Suspend):
		return ActionSuspend, true
	}
	return 0, false
}

// request asks for a on machine id; a start of a suspended machine is a
// resume.
func (m *Model) request(a Action, id string) tea.Cmd {
	if a == ActionStart && m.app != nil {
		if mc, ok := m.app.Machine(id); ok && mc.State == "suspended" {
			a = ActionResume
		}
	}
	return func() tea.Msg { return ActionRequest{Action: a, MachineID: id} }
}

// actionHint names the action keys for the drill-down's title, or "" when
// they are off.
func actionHint(k keys.KeyMap) string {
	var ks string
	for _, b := range []key.Binding{k.Start, k.Stop, k.Suspend} {
		if !b.Enabled() {
			return ""
		}
		if ks != "" {
			ks += "/"
		}
		ks += b.Help().Key
	}
	return ks + " start/stop/suspend"
}
