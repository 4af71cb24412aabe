package verdict

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot/machine"
)

// A judge handed the same machine values while nothing changed answers
// what a judge handed fresh copies answers, over random walks of crashes,
// state changes, checks, renames, clocks moving on and back, events timed
// ahead. So does a judge handed a fresh value of the machine that moved
// alone (the others' values kept, as a Converter hands them: few),
// against one that takes no shortcut (Afresh).
func TestUnmovedRandomWalk(t *testing.T) {
	t.Parallel()
	walks := int64(400)
	if testing.Short() {
		walks = 60 // the race step runs -short: a fifth of the walks
	}
	fewSteps := 0 // steps the few judge judged by few
	for seed := int64(0); seed < walks; seed++ {
		rng := rand.New(rand.NewSource(seed))
		s := newSim()
		s.machine("m1", "7", "started", "passing")
		s.machine("m2", "7", "started")
		s.machine("m3", "6", "stopped")
		s.machine("m4", "7", "replacing")
		same, fresh := New(Options{}), New(Options{})
		part, afresh := New(Options{}), New(Options{Afresh: true})
		var held, parted []*machine.Machine
		var handed Result // part's last, and a copy of its machines
		var handedCopy []Machine
		var log []string
		for step := 0; step < 60; step++ {
			moved := held == nil
			k := rng.Intn(len(s.ms))
			m := s.ms[k]
			var what string
			switch op := rng.Intn(15); op {
			case 0, 1, 2:
				d := time.Duration(rng.Intn(7000)) * time.Millisecond
				s.wait(d)
				what = fmt.Sprintf("wait %v", d)
			case 3:
				s.wait(-time.Duration(rng.Intn(4000)) * time.Millisecond)
				what = "clock back a little"
			case 4:
				s.crashCycle(m)
				moved, what = true, "crash "+m.ID
			case 5:
				st := []string{"started", "stopped", "replacing", "starting", "suspended"}[rng.Intn(5)]
				m.State = st
				moved, what = true, m.ID+" "+st
			case 6:
				if len(m.Checks) > 0 {
					m.Checks[0].Status = fly.ConsulCheckStatus([]string{"passing", "critical", "warning"}[rng.Intn(3)])
					moved, what = true, "check "+m.ID
				}
			case 7:
				if len(m.Events) > 0 {
					ahead := []time.Duration{time.Hour, 23 * time.Hour, 25 * time.Hour, 30 * time.Second}[rng.Intn(4)]
					m.Events[0].Timestamp = s.clock.Add(ahead).UnixMilli()
					moved, what = true, fmt.Sprintf("event of %s %v ahead", m.ID, ahead)
				}
			case 8:
				d := time.Duration(rng.Intn(30)) * time.Hour
				s.wait(d)
				what = fmt.Sprintf("wait %v", d)
			case 9:
				m.InstanceID += "x"
				moved, what = true, "new version "+m.ID
			case 10:
				s.event(m, "start", "started", "flyd")
				m.State = "started"
				moved, what = true, "started "+m.ID
			case 11:
				rel := []string{"6", "7", "8"}[rng.Intn(3)]
				m.Config.Metadata[fly.MachineConfigMetadataKeyFlyReleaseVersion] = rel
				moved, what = true, m.ID+" on v"+rel
			case 12, 13:
				m.Name += "x"
				moved, what = true, "renamed "+m.ID
			case 14:
				d := time.Duration(rng.Intn(26)) * time.Hour
				s.wait(-d)
				what = fmt.Sprintf("clock back %v (a replay)", d)
			}
			log = append(log, what)
			if moved {
				held = plain(s.ms)
				if parted == nil {
					parted = plain(s.ms)
				} else {
					parted = append([]*machine.Machine(nil), parted...) // a listing's slice is not written
					parted[k] = plainOne(m)
				}
			}
			got, want := same.Observe(held, s.clock), fresh.Observe(plain(s.ms), s.clock)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%v): handed the same values\n%+v\nhanded fresh ones\n%+v", seed, step, log, got, want)
			}
			for i := range held {
				if g, w := same.At(i), fresh.At(i); !reflect.DeepEqual(g, w) {
					t.Fatalf("seed %d step %d (%v): machine %d is\n%+v\nwant\n%+v", seed, step, log, i, g, w)
				}
			}
			got, want = part.Observe(parted, s.clock), afresh.Observe(plain(s.ms), s.clock)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%v): handed the moved value alone\n%+v\nwant\n%+v", seed, step, log, got, want)
			}
			if !reflect.DeepEqual(handed.Machines, handedCopy) {
				t.Fatalf("seed %d step %d (%v): the result handed out before was written", seed, step, log)
			}
			handed, handedCopy = got, append([]Machine(nil), got.Machines...)
			if ms, ok := part.Moved(); ok && len(ms) > 0 {
				fewSteps++
			}
			for i := range parted {
				if g, w := part.At(i), afresh.At(i); !reflect.DeepEqual(g, w) {
					t.Fatalf("seed %d step %d (%v): handed the moved value alone, machine %d is\n%+v\nwant\n%+v", seed, step, log, i, g, w)
				}
			}
		}
	}
	if fewSteps == 0 {
		t.Error("no step was judged by few")
	}
	t.Logf("%d steps judged by few", fewSteps)
}
