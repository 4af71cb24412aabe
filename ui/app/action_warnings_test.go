package app

import (
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/ui/panes/machines"
)

// The prompt warns before a stop throws a suspend snapshot away, and before
// a stop or suspend leaves fewer machines running in the primary region
// than min_machines_running (which holds only there, as flysim and Fly
// apply it).
func TestActionWarnings(t *testing.T) {
	cfg := func(primary string, min int) *snapshot.Config {
		return &snapshot.Config{PrimaryRegion: primary, MinRunning: &min}
	}
	mc := func(id, state, region string, c *snapshot.Config) snapshot.Machine {
		return snapshot.Machine{Machine: machine.Machine{ID: id, State: state, Region: region, ProcessGroup: "app", Config: c}}
	}
	ams := cfg("ams", 1)
	cases := []struct {
		name   string
		action machines.Action
		target snapshot.Machine
		all    []snapshot.Machine
		want   []string // one substring per warning, in order
	}{
		{"stop of a suspended machine", machines.ActionStop, mc("s", "suspended", "ams", ams),
			[]snapshot.Machine{mc("s", "suspended", "ams", ams), mc("r", "started", "ams", ams)}, []string{"discards s's suspend snapshot"}},
		{"stop of the last running one", machines.ActionStop, mc("r", "started", "ams", ams),
			[]snapshot.Machine{mc("r", "started", "ams", ams), mc("x", "stopped", "ams", ams)},
			[]string{"leaves 0 machines running in ams (the primary region), fewer than min_machines_running = 1"}},
		{"suspend of the last running one", machines.ActionSuspend, mc("r", "started", "ams", ams),
			[]snapshot.Machine{mc("r", "started", "ams", ams)}, []string{"leaves 0 machines running in ams"}},
		{"another one keeps running", machines.ActionStop, mc("r", "started", "ams", ams),
			[]snapshot.Machine{mc("r", "started", "ams", ams), mc("r2", "started", "ams", ams)}, nil},
		{"outside the primary region min does not hold", machines.ActionStop, mc("o", "started", "ord", ams),
			[]snapshot.Machine{mc("o", "started", "ord", ams), mc("x", "stopped", "ams", ams)}, nil},
		{"the ones outside the primary region do not count", machines.ActionStop, mc("r", "started", "ams", ams),
			[]snapshot.Machine{mc("r", "started", "ams", ams), mc("o", "started", "ord", ams)}, []string{"leaves 0 machines running in ams"}},
		{"no min_machines_running", machines.ActionStop, mc("r", "started", "ams", &snapshot.Config{}),
			[]snapshot.Machine{mc("r", "started", "ams", &snapshot.Config{})}, nil},
		{"a start warns of nothing", machines.ActionStart, mc("s", "suspended", "ams", ams), nil, nil},
		{"a stop of a stopped one is refused before, no warning", machines.ActionStop, mc("x", "stopped", "ams", ams), nil, nil},
	}
	for _, c := range cases {
		got := actionWarnings(c.action, c.target, c.all)
		if len(got) != len(c.want) {
			t.Errorf("%s: %q, want %d warnings", c.name, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: warning %q lacks %q", c.name, got[i], w)
			}
		}
	}
}
