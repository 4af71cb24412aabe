package machines

import (
	"fmt"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/snapshot"
)

// variants are machines that each differ from machine("m1", "started") in
// one thing a column may read.
func variants() map[string]*fly.Machine {
	base := func(opt func(*fly.Machine)) *fly.Machine { return machine("m1", "started", opt) }
	return map[string]*fly.Machine{
		"base":    base(func(*fly.Machine) {}),
		"id":      machine("m2", "started"),
		"state":   base(func(m *fly.Machine) { m.State = "stopped" }),
		"name":    base(func(m *fly.Machine) { m.Name = "a-much-longer-name-than-before" }),
		"no name": base(func(m *fly.Machine) { m.Name = "" }),
		"region":  base(func(m *fly.Machine) { m.Region = "syd" }),
		"image":   base(func(m *fly.Machine) { m.ImageRef.Digest = "sha256:fedcba98765432100000" }),
		"release": base(func(m *fly.Machine) { m.Config.Metadata["fly_release_version"] = "1234567" }),
		"group":   base(func(m *fly.Machine) { m.Config.Metadata["fly_process_group"] = "worker-pool" }),
		"autostop": base(func(m *fly.Machine) {
			m.Config.Services = []fly.MachineService{{Autostop: fly.Pointer(fly.MachineAutostopSuspend)}}
		}),
		"event": base(func(m *fly.Machine) {
			m.Events = []*fly.MachineEvent{{Type: "launch", Status: "created", Source: "user", Timestamp: t0.UnixMilli()}}
		}),
		"older event": base(func(m *fly.Machine) {
			m.Events = append(m.Events, &fly.MachineEvent{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: t0.Add(-time.Hour).UnixMilli()})
		}),
		"no events": base(func(m *fly.Machine) { m.Events = nil }),
		"checks": base(func(m *fly.Machine) {
			m.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: "passing"}, {Name: "tcp", Status: "critical"}}
		}),
	}
}

// sameCell never says two machines' cells are the same when the column's
// text of them differs: an entry inherits a measure only where it holds.
func TestSameCellHoldsOnlyForTheSameText(t *testing.T) {
	vs := variants()
	held := 0
	for xn, xm := range vs {
		for yn, ym := range vs {
			x, y := appOf(xm).Machines[0], appOf(ym).Machines[0]
			for col, d := range columns.Machines() {
				if d.Since != nil || !sameCell(col, &x, &y) {
					continue
				}
				held++
				if tx, ty := d.Text(nil, &x), d.Text(nil, &y); tx != ty {
					t.Errorf("%s: sameCell says %q and %q (%s, %s) are the same", d.Title, tx, ty, xn, yn)
				}
			}
		}
	}
	if held == 0 {
		t.Fatal("sameCell never held")
	}
}

// A pane handed listing after listing, each changing what other columns
// show, measures the shape a pane handed only the last listing does: the
// cells an entry kept from the listing before are those that did not
// change, and a changed cell is measured again.
func TestInheritedMeasuresAreTheFreshShape(t *testing.T) {
	vs := variants()
	names := []string{"base", "name", "event", "release", "no name", "region", "checks", "autostop", "no events", "base", "state", "image", "group", "older event"}
	st := newStyles(newPane().ctx.Theme)
	var kept rowCache
	a := snapshot.New("org", "app", nil)
	moved := 0
	var last shape
	for li, vn := range names {
		// Ten machines, the fifth the variant: the others stay as they were.
		var ms []*fly.Machine
		for i := range 10 {
			m := machine(fmt.Sprintf("m%02d", i), "started")
			if i == 5 {
				v := *vs[vn]
				v.ID = m.ID
				m = &v
			}
			ms = append(ms, m)
		}
		a.ApplyMachines(ms, t0.Add(time.Duration(li)*time.Second))
		_, _, got := buildRows(a, st, &kept, listed)
		kept.release()
		var fresh rowCache
		_, _, want := buildRows(a, st, &fresh, listed)
		if got != want {
			t.Errorf("after %s: shape %+v, a fresh pane's %+v", vn, got, want)
		}
		if li > 0 && got != last {
			moved++
		}
		last = got
	}
	if moved < 4 {
		t.Fatalf("the listings moved the shape %d times: they test nothing", moved)
	}
}
