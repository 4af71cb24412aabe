package snapshot

import (
	"fmt"
	"slices"
	"testing"

	"github.com/flywake/flywake/sources/snapshot/machine"
)

// A look's probes are a sample: each image's bytecode probe, then the
// first perGroup started machines of every process group and image, each
// group's first before any group's second, cut at the limit.
func TestSampleProbes(t *testing.T) {
	grouped := func(id, state, group, digest string) *Machine {
		m := Machine{Machine: machine.FromFly(flyMachine(id, state, digest, t0))}
		m.ProcessGroup = group
		return &m
	}
	var ms []Machine
	for i := range 500 { // one big group, a second image of it, a worker group, and stopped ones
		switch {
		case i < 300:
			ms = append(ms, *grouped(fmt.Sprintf("a%03d", i), "started", "app", "d1"))
		case i < 310:
			ms = append(ms, *grouped(fmt.Sprintf("b%03d", i), "started", "app", "d2"))
		case i < 320:
			ms = append(ms, *grouped(fmt.Sprintf("w%03d", i), "started", "worker", "d1"))
		default:
			ms = append(ms, *grouped(fmt.Sprintf("s%03d", i), "stopped", "app", "d1"))
		}
	}
	machinesOf := func(ps []ProbeRequest) []string {
		var out []string
		for _, p := range ps {
			if !slices.Contains(out, p.Machine) {
				out = append(out, p.Machine)
			}
		}
		return out
	}
	tests := []struct {
		name         string
		perGroup     int
		limit        int
		wantExecs    int
		wantMachines []string
		wantCapped   bool
	}{
		// bytecode on a000 (d1) and b300 (d2), then a000 b300 w310, then a001 b301 w311
		{"the whole sample", 2, 100, 2 + 6*2, []string{"a000", "b300", "w310", "a001", "b301", "w311"}, false},
		{"one per group", 1, 100, 2 + 3*2, []string{"a000", "b300", "w310"}, false},
		{"cut: each group's first machine first", 2, 8, 8, []string{"a000", "b300", "w310"}, true},
		{"nothing left", 2, 0, 0, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New("org", "app", nil)
			a.Machines = ms
			due := a.ProbesDue(t0)
			if len(due) != 2+320*2 {
				t.Fatalf("%d probes due, want every started machine's and both images'", len(due))
			}
			run, s := a.SampleProbes(due, tt.perGroup, tt.limit)
			if len(run) != tt.wantExecs || s.Execs != tt.wantExecs || s.Capped != tt.wantCapped {
				t.Errorf("%d probes (sample says %d, capped %v), want %d (capped %v)", len(run), s.Execs, s.Capped, tt.wantExecs, tt.wantCapped)
			}
			if got := machinesOf(run); !slices.Equal(got, tt.wantMachines) {
				t.Errorf("probed %v, want %v", got, tt.wantMachines)
			}
			if s.Started != 320 || s.Groups != 3 || s.Probed != len(tt.wantMachines) || s.Limit != tt.limit || s.PerGroup != tt.perGroup {
				t.Errorf("sample %+v", s)
			}
			for i, p := range run {
				if (p.Kind == ProbeBytecode) != (i < 2 && tt.wantExecs >= 2) {
					t.Errorf("probe %d is %v: the images' bytecode probes come first", i, p.Kind)
				}
			}
		})
	}
}
