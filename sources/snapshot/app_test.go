package snapshot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
)

var t0 = time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)

func flyMachine(id, state, digest string, startedAt time.Time) *fly.Machine {
	return &fly.Machine{
		ID: id, State: state, InstanceID: "01INST" + id, ImageRef: fly.MachineImageRef{Digest: digest},
		Config: &fly.MachineConfig{Metadata: map[string]string{"fly_release_version": "7"}},
		Events: []*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: startedAt.UnixMilli()}},
	}
}

func TestApplyMachinesHashesWhatARowShows(t *testing.T) {
	a := New("org", "app", nil)
	a.ApplyMachines([]*fly.Machine{flyMachine("a", "started", "d1", t0), flyMachine("b", "stopped", "d1", t0)}, t0)
	first := map[string]uint64{}
	for _, m := range a.Machines {
		first[m.ID] = m.Hash
	}
	// An hour later, nothing a row shows has changed for a; b is starting.
	a.ApplyMachines([]*fly.Machine{flyMachine("a", "started", "d1", t0), flyMachine("b", "starting", "d1", t0)}, t0.Add(time.Hour))
	for _, m := range a.Machines {
		if changed := m.Hash != first[m.ID]; changed != (m.ID == "b") {
			t.Errorf("%s: hash changed = %v", m.ID, changed)
		}
	}
	if !a.Transitioning() {
		t.Error("a starting machine is a transition")
	}
	renamed := flyMachine("a", "started", "d1", t0)
	renamed.Name = "other"
	a.ApplyMachines([]*fly.Machine{renamed}, t0.Add(2*time.Hour))
	if a.Machines[0].Hash == first["a"] {
		t.Error("a new name is a change the row shows")
	}
}

func TestProbesDue(t *testing.T) {
	boot1, boot2 := t0, t0.Add(time.Hour)
	tests := []struct {
		name  string
		setup func(a *App)
		now   time.Time
		want  []string // kind/machine
	}{
		{"fresh: every probe on the started machine, bytecode once per image", func(a *App) {}, t0,
			[]string{"bytecode/a", "meminfo/a", "meminfo/c", "sockets/a", "sockets/c"}},
		{"answered for this boot: only bytecode for a new image", func(a *App) {
			for _, id := range []string{"a", "c"} {
				m, _ := a.Machine(id)
				a.Meminfo[id] = Probe[diagnose.Meminfo]{Key: bootKey(m), At: t0}
				a.Sockets[id] = Probe[map[string]int]{Key: bootKey(m), At: t0}
			}
			a.Bytecode["d1"] = Probe[diagnose.BytecodeReport]{Key: "d1", At: t0}
		}, t0.Add(30 * time.Second), nil},
		{"sockets refresh after a minute", func(a *App) {
			for _, id := range []string{"a", "c"} {
				m, _ := a.Machine(id)
				a.Meminfo[id] = Probe[diagnose.Meminfo]{Key: bootKey(m), At: t0}
				a.Sockets[id] = Probe[map[string]int]{Key: bootKey(m), At: t0}
			}
			a.Bytecode["d1"] = Probe[diagnose.BytecodeReport]{Key: "d1", At: t0}
		}, t0.Add(SocketRefresh), []string{"sockets/a", "sockets/c"}},
		{"a failed probe waits, then is tried again", func(a *App) {
			m, _ := a.Machine("a")
			a.Meminfo["a"] = Probe[diagnose.Meminfo]{Key: bootKey(m), At: t0, Err: "exec timed out"}
			a.Sockets["a"] = Probe[map[string]int]{Key: bootKey(m), At: t0.Add(ProbeRetry)}
			mc, _ := a.Machine("c")
			a.Meminfo["c"] = Probe[diagnose.Meminfo]{Key: bootKey(mc), At: t0.Add(ProbeRetry)}
			a.Sockets["c"] = Probe[map[string]int]{Key: bootKey(mc), At: t0.Add(ProbeRetry)}
			a.Bytecode["d1"] = Probe[diagnose.BytecodeReport]{Key: "d1", At: t0}
		}, t0.Add(ProbeRetry), []string{"meminfo/a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New("org", "app", nil)
			a.ApplyMachines([]*fly.Machine{
				flyMachine("a", "started", "d1", boot1), flyMachine("b", "stopped", "d1", boot1), flyMachine("c", "started", "d1", boot2),
			}, t0)
			tt.setup(a)
			var got []string
			for _, r := range a.ProbesDue(tt.now) {
				got = append(got, r.Kind.String()+"/"+r.Machine)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("due %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApplyProbeKeepsFailuresCalm(t *testing.T) {
	a := New("org", "app", nil)
	req := ProbeRequest{Kind: ProbeBytecode, Machine: "a", Key: "d1"}
	a.ApplyProbe(req, ExecResult{ExitCode: 127, Stderr: "sh: 1: python3: not found"}, t0)
	if p := a.Bytecode["d1"]; p.Err != "" || !p.Value.NotPython {
		t.Errorf("no python3 is an answer, not an error: %+v", p)
	}
	a.ApplyProbe(ProbeRequest{Kind: ProbeMeminfo, Machine: "a", Key: "k"}, ExecResult{Err: errors.New("machine not running")}, t0)
	if p := a.Meminfo["a"]; p.Err != "machine not running" {
		t.Errorf("meminfo probe error = %q", p.Err)
	}
}

func TestApplyLogsKeepsLinesSharingATimestamp(t *testing.T) {
	a := New("org", "app", nil)
	lines := []diagnose.LogLine{
		{Time: t0, Machine: "a", Provider: "proxy", Message: "Starting machine"},
		{Time: t0, Machine: "a", Provider: "runner", Message: "Configuring firecracker"},
		{Time: t0.Add(time.Second), Machine: "a", Provider: "runner", Message: "Machine started in 1.000s"},
	}
	a.ApplyLogs(lines[:2])
	a.ApplyLogs(lines[2:])
	a.ApplyLogs(lines[:1]) // an old line again: dropped
	if n := len(a.Logs()); n != 3 {
		t.Fatalf("%d lines held, want 3", n)
	}
	if len(a.Boots) != 1 {
		t.Errorf("%d boots, want 1 (the runner's first line shares the proxy's timestamp)", len(a.Boots))
	}
	got := a.MachineLogs("a", 10)
	if got[0].Message != "Starting machine" || got[1].Message != "Configuring firecracker" {
		t.Errorf("machine logs lost their order: %v", got)
	}
}

func TestDied(t *testing.T) {
	tests := []struct {
		edge, app   map[string]float64
		died, total float64
	}{
		{map[string]float64{"200": 80, "502": 20}, map[string]float64{"200": 80}, 20, 100},
		{map[string]float64{"200": 10}, map[string]float64{"200": 12}, 0, 10}, // clients that gave up: never negative
		{nil, nil, 0, 0},
	}
	for _, tt := range tests {
		if died, total := Died(tt.edge, tt.app); died != tt.died || total != tt.total {
			t.Errorf("Died(%v, %v) = %v, %v; want %v, %v", tt.edge, tt.app, died, total, tt.died, tt.total)
		}
	}
}

// Machines by state come in the order of a machine's life, states the
// platform added later by name, whatever the listing's order.
func TestStateCountsInLifeOrder(t *testing.T) {
	a := New("org", "app", nil)
	a.ApplyMachines([]*fly.Machine{flyMachine("a", "stopped", "d1", t0), flyMachine("b", "zz-new", "d1", t0),
		flyMachine("c", "failed", "d1", t0), flyMachine("d", "stopped", "d1", t0), flyMachine("e", "started", "d1", t0),
		flyMachine("f", "aa-new", "d1", t0)}, t0)
	var got []string
	for _, sc := range a.StateCounts() {
		got = append(got, fmt.Sprintf("%s=%d", sc.State, sc.N))
	}
	if s, want := strings.Join(got, " "), "started=1 stopped=2 failed=1 aa-new=1 zz-new=1"; s != want {
		t.Errorf("StateCounts: %s, want %s", s, want)
	}
}
