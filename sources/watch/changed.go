package watch

import (
	"slices"
	"strings"

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

// changedMachines are the machines lines say changed state, each once, in
// the order first named.
func changedMachines(lines []diagnose.LogLine) []string {
	var out []string
	for _, l := range lines {
		if l.Machine == "" || !saysChanged(l) {
			continue
		}
		if !slices.Contains(out, l.Machine) {
			out = append(out, l.Machine)
		}
	}
	return out
}

func saysChanged(l diagnose.LogLine) bool {
	for _, words := range changeLines[l.Provider] {
		if strings.Contains(l.Message, words) {
			return true
		}
	}
	return false
}
