package machines

import (
	"fmt"
	"strings"
	"testing"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
)

// closeWaitTable is /proc/net/tcp with n sockets in CLOSE_WAIT.
func closeWaitTable(n int) string {
	var b strings.Builder
	b.WriteString("  sl  local_address rem_address   st\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%4d: 0100007F:1F90 0100007F:%04X 08 00000000:00000000 00:00000000 00000000 0 0 %d 1\n", i, 0xA000+i, 100+i)
	}
	return b.String()
}

// A machine drowning in CLOSE_WAIT with no hard limit gets the ALERT badge
// (the Backlog pane's thresholds); one backing up gets a warning; a crash
// badge still comes first.
func TestBacklogBadge(t *testing.T) {
	th := theme.New(true)
	web := func(id string, hard int) *fly.Machine {
		return machine(id, "started", func(m *fly.Machine) {
			m.Config.Services = []fly.MachineService{{InternalPort: 8080,
				Concurrency: &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: 25, HardLimit: hard}}}
		})
	}
	a := appOf(web("drowning", 0), web("backing", 0), web("limited", 30), web("calm", 0), web("crashing", 0))
	cw := map[string]int{"drowning": diagnose.CloseWaitFail, "backing": diagnose.CloseWaitWarn, "limited": 400, "calm": diagnose.CloseWaitWarn - 1, "crashing": 500}
	for _, req := range a.ProbesDue(t0) {
		if req.Kind == snapshot.ProbeSockets {
			a.ApplyProbe(req, snapshot.ExecResult{Stdout: closeWaitTable(cw[req.Machine])}, t0)
		}
	}
	for i := range a.Machines {
		if a.Machines[i].ID == "crashing" {
			a.Machines[i].Crash.Kind = diagnose.CrashLooping
		}
	}
	want := map[string]string{"drowning": "✗ backlog", "backing": "! backlog", "limited": "! backlog", "calm": "", "crashing": "✗ crash-loop +1"} // the worst, and that there is more
	var cache rowCache
	rows, _, _ := buildRows(a, newStyles(th), &cache, listed)
	for _, r := range rows {
		if got := plainCells(r.Lazy.Format().Cells)[columns.Alert]; got != want[r.ID] {
			t.Errorf("%s: ALERT %q, want %q", r.ID, got, want[r.ID])
		}
	}
	// Sorted by ALERT, the backlog counts as it shows: worst first, ties by id.
	rows, _, _ = buildRows(a, newStyles(th), &cache, sorting{col: columns.Alert})
	var order []string
	for _, r := range rows {
		order = append(order, r.ID)
	}
	if got, want := strings.Join(order, " "), "crashing drowning backing limited calm"; got != want {
		t.Errorf("sorted by ALERT: %s, want %s", got, want)
	}
}
