package swap

import (
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// meminfo is /proc/meminfo as a 1024 MB Fly guest prints it.
func meminfo(swapTotalKB, swapFreeKB int64) string {
	return fmt.Sprintf(`MemTotal:         985220 kB
MemFree:          412332 kB
MemAvailable:     620688 kB
Buffers:           12116 kB
Cached:           201236 kB
SwapCached:            0 kB
Active:           301212 kB
SwapTotal:       %7d kB
SwapFree:        %7d kB
Dirty:                 8 kB
`, swapTotalKB, swapFreeKB)
}

// spec describes one machine of a fixture.
type spec struct {
	id, state string
	swapMB    int // 0: no swap configured
	memoryMB  int
	probe     string // meminfo stdout; "" = not probed
	probeErr  bool   // the exec failed
	ooms      int
}

func build(specs []spec) *snapshot.App {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	ms := machinesOf(specs)
	a.ApplyMachines(ms, t0)
	for _, s := range specs {
		req := snapshot.ProbeRequest{Kind: snapshot.ProbeMeminfo, Machine: s.id, Key: s.id + "/boot"}
		switch {
		case s.probeErr:
			a.ApplyProbe(req, snapshot.ExecResult{ExitCode: 1, Stderr: "cat: /proc/meminfo: Permission denied"}, t0.Add(-5*time.Second))
		case s.probe != "":
			a.ApplyProbe(req, snapshot.ExecResult{Stdout: s.probe}, t0.Add(-5*time.Second))
		}
	}
	return a
}

func newPane(t *theme.Theme) *Pane {
	return New(pane.Context{Theme: t})
}

// machinesOf is the listing of specs.
func machinesOf(specs []spec) []*fly.Machine {
	var ms []*fly.Machine
	for _, s := range specs {
		cfg := &fly.MachineConfig{Guest: &fly.MachineGuest{MemoryMB: s.memoryMB, CPUs: 1, CPUKind: "shared"}}
		if s.swapMB > 0 {
			sw := s.swapMB
			cfg.Init.SwapSizeMB = &sw
		}
		m := &fly.Machine{ID: s.id, State: s.state, Config: cfg}
		for i := range s.ooms {
			m.Events = append(m.Events, &fly.MachineEvent{
				Type: "exit", Status: "stopped", Source: "flyd", Timestamp: t0.Add(-time.Duration(i) * time.Minute).UnixMilli(),
				Request: &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{ExitCode: 137, OOMKilled: true, Restarting: true}},
			})
		}
		ms = append(ms, m)
	}
	return ms
}
