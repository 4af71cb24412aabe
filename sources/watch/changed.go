package watch

import (
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// changeLines are the lines the platform writes as a machine's state
// changes, by provider: the proxy's autostart and autostop, the runner's
// starts, resumes and exits, and init's (under "app") as the main process
// starts and ends (sources/flysim/machines/lifecycle.go and
// sources/flysim/proxy/autostop.go write the same words).
var changeLines = map[string][]string{
	"proxy": {"Starting machine", "machine started in", "has excess capacity, autostopping machine",
		"has excess capacity, autosuspending machine", "failed to suspend machine"},
	"runner": {"Machine started in", "Machine resumed in", "machine exited with exit code",
		"machine has reached its max restart count", "machine restart policy set to"},
	"app": {"INFO Main child exited", "INFO Starting init"},
}

// Change is a machine lines say changed state, and when the newest of
// those lines was written (the platform's time).
type Change struct {
	Machine string
	At      time.Time
}

// changedMachines are the machines lines say changed state, each once, in
// the order first named, with the time of the newest line naming each.
func changedMachines(lines []diagnose.LogLine) []Change {
	var out []Change
	at := map[string]int{}
	for _, l := range lines {
		if l.Machine == "" || !saysChanged(l) {
			continue
		}
		if i, ok := at[l.Machine]; ok {
			out[i].At = later(out[i].At, l.Time)
			continue
		}
		at[l.Machine] = len(out)
		out = append(out, Change{Machine: l.Machine, At: l.Time})
	}
	return out
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func saysChanged(l diagnose.LogLine) bool {
	for _, words := range changeLines[l.Provider] {
		if strings.Contains(l.Message, words) {
			return true
		}
	}
	return false
}
