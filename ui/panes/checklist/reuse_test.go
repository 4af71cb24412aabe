package checklist

import (
	"fmt"
	"strings"
	"testing"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// TestSameEvidenceKeepsTheReport: a refresh that changes nothing the items
// read (a machine renamed) keeps the report as it was, and every change the
// items do read — a listing's config or state, a probe's answer, which move
// different parts of the model — judges them again.
func TestSameEvidenceKeepsTheReport(t *testing.T) {
	km := keys.Default()
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, nil, nil, checklist.Options{})
	a := demoDay.app()
	p.SetData(a, t0)
	kept := p.Items()

	listing := func(edit func(*fly.Machine)) {
		var ms []*fly.Machine
		for _, id := range machineIDs {
			m := machine(id, "started")
			edit(m)
			ms = append(ms, m)
		}
		a.ApplyMachines(ms, t0)
	}
	listing(func(m *fly.Machine) { m.Name = "renamed-" + m.ID })
	p.SetData(a, t0)
	if got := p.Items(); &got[0] != &kept[0] {
		t.Error("a rename the items do not read judged them again")
	}

	item := func(id string) string { return fmt.Sprintf("%+v", itemOf(t, p, id)) }
	steps := []struct {
		name, item string
		change     func()
	}{
		{"swap removed from the config", checklist.IDSleepWake, func() {
			listing(func(m *fly.Machine) { m.Config.Init.SwapSizeMB = nil })
		}},
		{"swap used, by a probe", checklist.IDSleepWake, func() {
			used := "MemTotal: 985220 kB\nMemFree: 412332 kB\nMemAvailable: 601944 kB\nSwapCached: 0 kB\nSwapTotal: 2097148 kB\nSwapFree: 1048574 kB\n"
			listing(func(*fly.Machine) {})
			a.ApplyProbe(snapshot.ProbeRequest{Kind: snapshot.ProbeMeminfo, Machine: machineIDs[0], Key: machineIDs[0] + "/boot"},
				snapshot.ExecResult{Stdout: used}, t0)
		}},
		{"a health check failing", checklist.IDHealthChecks, func() {
			listing(func(m *fly.Machine) {
				m.Checks = []*fly.MachineCheckStatus{{Name: "servicecheck-00-http-8000", Status: "critical"}}
			})
		}},
		{"a health check passing again", checklist.IDHealthChecks, func() {
			listing(func(m *fly.Machine) {
				m.Checks = []*fly.MachineCheckStatus{{Name: "servicecheck-00-http-8000", Status: "passing"}}
			})
		}},
	}
	for _, s := range steps {
		before := item(s.item)
		s.change()
		p.SetData(a, t0)
		if after := item(s.item); after == before {
			t.Errorf("%s: item %s unchanged: %s", s.name, s.item, after)
		}
	}

	// What the items do not read but the pane says beside them: whether a
	// machine is started, for an item waiting on one.
	a = fixture{state: "started", boots: 24}.app()
	p.SetData(a, t0)
	press(p, "n", "n", "enter") // the bytecode item, waiting for its probe
	if v := flat(uitest.View(p, 100, 30, true, t0)); !strings.Contains(v, "one is started") {
		t.Fatalf("want the wait for a started machine in:\n%s", v)
	}
	listing(func(m *fly.Machine) { m.State = "stopped" })
	p.SetData(a, t0)
	if v := flat(uitest.View(p, 100, 30, true, t0)); !strings.Contains(v, "none is started") {
		t.Errorf("every machine stopped, yet no word of it in:\n%s", v)
	}
}
