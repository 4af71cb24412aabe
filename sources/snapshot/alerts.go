package snapshot

import "github.com/flywake/flywake/sources/diagnose"

// Alert is one thing the machines table flags on a machine: the same list
// the ALERT column draws (most severe first) and `status --json` reports.
type Alert struct {
	Kind  string         `json:"kind"`  // stable id: crash_loop, gave_up, crashed, host_unreachable, host_unknown, backlog (App.Alerts)
	Level diagnose.Level `json:"level"` // warn or fail
	Text  string         `json:"text"`  // the badge's words: "crash-loop", "host unreachable"
}

// Alerts lists what is wrong with m, most severe first; none when nothing is.
func (m Machine) Alerts() []Alert {
	var out []Alert
	switch m.Crash.Kind {
	case diagnose.CrashLooping:
		out = append(out, Alert{"crash_loop", diagnose.Fail, "crash-loop"})
	case diagnose.GaveUp:
		out = append(out, Alert{"gave_up", diagnose.Fail, "gave up"})
	case diagnose.Watching:
		out = append(out, Alert{"crashed", diagnose.Warn, "crashed"})
	}
	if m.HostDown() {
		kind := "host_unknown"
		if m.HostStatus == "unreachable" {
			kind = "host_unreachable"
		}
		out = append(out, Alert{kind, diagnose.Warn, "host " + m.HostStatus})
	}
	return out
}
