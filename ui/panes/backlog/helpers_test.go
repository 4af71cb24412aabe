package backlog

import (
	"fmt"
	"strings"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

func newPane(t *theme.Theme) *Pane {
	return New(pane.Context{Theme: t})
}

// spec is one machine of a fixture.
type spec struct {
	id, state  string
	soft, hard int // 0 soft: no concurrency block
	closeWait  int // -1: not probed
	service    bool
}

// procNetTCP is /proc/net/tcp with a listener, a live connection and n
// sockets in CLOSE_WAIT.
func procNetTCP(n int) string {
	var b strings.Builder
	b.WriteString("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n")
	b.WriteString("   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1\n")
	b.WriteString("   1: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 1002 1\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%4d: 0100007F:1F90 0100007F:%04X 08 00000000:00000001 00:00000000 00000000     0        0 %d 1\n", i+2, 0xA000+i, 2000+i)
	}
	return b.String()
}

func build(specs []spec) *snapshot.App {
	a := snapshot.New("demo-org", "backlog-web", nil)
	ms := machinesOf(specs)
	a.ApplyMachines(ms, t0)
	cw := map[string]int{}
	for _, s := range specs {
		cw[s.id] = s.closeWait
	}
	for _, req := range a.ProbesDue(t0) {
		if req.Kind == snapshot.ProbeSockets && cw[req.Machine] >= 0 {
			a.ApplyProbe(req, snapshot.ExecResult{Stdout: procNetTCP(cw[req.Machine])}, t0.Add(-20*time.Second))
		}
	}
	return a
}

// backlogWeb is backlog-web: no hard limit, two machines drowning.
var backlogWeb = []spec{
	{id: "9a303e34bdcd91", state: "started", soft: 25, closeWait: 465, service: true},
	{id: "9769ebd2493102", state: "started", soft: 25, closeWait: 461, service: true},
	{id: "1d2b0600ac7bd4", state: "stopped", soft: 25, closeWait: -1, service: true},
}

// machinesOf is the listing of specs.
func machinesOf(specs []spec) []*fly.Machine {
	var ms []*fly.Machine
	for _, s := range specs {
		cfg := &fly.MachineConfig{}
		if s.service {
			svc := fly.MachineService{InternalPort: 8080, Protocol: "tcp"}
			if s.soft > 0 {
				svc.Concurrency = &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: s.soft, HardLimit: s.hard}
			}
			cfg.Services = []fly.MachineService{svc}
		}
		ms = append(ms, &fly.Machine{ID: s.id, State: s.state, InstanceID: "01INST" + s.id, Config: cfg,
			Events: []*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: t0.Add(-time.Hour).UnixMilli()}}})
	}
	return ms
}
