package app

import (
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/fly/flytest"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	checklistpane "github.com/flywake/flywake/ui/panes/checklist"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// Every tile and the checklist, handed the model after each change
// (listings through the listing command's Converter, logs, probes), draw
// what one handed only the model as it stands then draws: what a pane
// keeps from one SetData to the next (rows of unchanged machines, whole
// tables when nothing they read changed, the checklist's report while its
// evidence stands) never shows something stale. Each change is one a
// pane shows: a machine's state, region, image, checks, newest event,
// memory, swap, and a probe's answer.
func TestTilesFedChangeByChangeDrawAsFromScratch(t *testing.T) {
	fx := newFixture(12, t0)
	a := snapshot.New(fixtureOrg, fixtureApp, nil)
	var cv snapshot.Converter
	at := t0
	list := func(ms []*fly.Machine) func() {
		return func() { a.ApplyConverted(cv.Convert(fixtureApp, flytest.Hashed(t, ms)), at) }
	}
	probe := func(i int) func() {
		return func() { a.ApplyProbe(fx.probes[i].req, fx.probes[i].res, at) }
	}
	stopped := make([]*fly.Machine, len(fx.machines))
	copy(stopped, fx.machines)
	c := *stopped[0] // the started machine, the probed one
	c.State = "stopped"
	stopped[0] = &c
	base := fx.machines
	// The memory of one machine doubled, as an update does it: a new
	// version of the machine (the Swap tile shows the memory).
	bigger := make([]*fly.Machine, len(base))
	copy(bigger, base)
	if base[2].Config == nil || base[2].Config.Guest == nil {
		t.Fatal("the fixture's machine has no guest")
	}
	bm, cfg, guest := *base[2], *base[2].Config, *base[2].Config.Guest
	guest.MemoryMB *= 2
	cfg.Guest, bm.Config, bm.InstanceID = &guest, &cfg, bm.InstanceID+"-b"
	bigger[2] = &bm
	// One machine changed the way a listing changes it: edit gets a copy
	// of machine i (its config copied too, so the fixture keeps its own).
	one := func(i int, edit func(*fly.Machine)) []*fly.Machine {
		out := make([]*fly.Machine, len(base))
		copy(out, base)
		m := *base[i]
		if m.Config != nil {
			cfg := *m.Config
			m.Config = &cfg
		}
		edit(&m)
		out[i] = &m
		return out
	}
	moved := one(4, func(m *fly.Machine) { m.Region = "fra" })
	reimaged := one(4, func(m *fly.Machine) {
		m.ImageRef.Tag, m.ImageRef.Digest = "deployment-02", "sha256:0b1e5c07e9a1d3f2"
		m.Config.Image = "registry.fly.io/sleepy-api:deployment-02"
	})
	failing := one(0, func(m *fly.Machine) {
		m.Checks = []*fly.MachineCheckStatus{{Name: "servicecheck-00-http-8000", Status: "critical"}}
	})
	woken := one(5, func(m *fly.Machine) {
		m.State = "started"
		m.Events = append([]*fly.MachineEvent{{Type: "start", Status: "started", Source: "fly-proxy", Timestamp: at.Add(2 * time.Second).UnixMilli()}}, m.Events[:4]...)
	})
	noSwap := make([]*fly.Machine, len(base))
	for i, m := range base {
		c, cfg := *m, *m.Config
		cfg.Init.SwapSizeMB, c.Config, c.InstanceID = nil, &cfg, m.InstanceID+"-s"
		noSwap[i] = &c
	}
	swapUsed := fx.probes[0] // the meminfo probe, answered again with swap in use
	for _, p := range fx.probes {
		if p.req.Kind == snapshot.ProbeMeminfo {
			swapUsed = p
		}
	}
	swapUsed.res.Stdout = strings.Replace(fixtureMeminfo, "SwapFree:       2097148 kB", "SwapFree:       1048576 kB", 1)
	if swapUsed.res.Stdout == fixtureMeminfo || swapUsed.req.Kind != snapshot.ProbeMeminfo {
		t.Fatal("the fixture's meminfo probe or its SwapFree line moved")
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"first listing", list(base)},
		{"the same listing", list(base)},
		{"logs", func() { a.ApplyLogs(fx.logs) }},
		{"the first probe", probe(0)},
		{"the same listing after it", list(base)},
		{"every probe", func() {
			for i := range fx.probes {
				probe(i)()
			}
		}},
		{"the same listing after them", list(base)},
		{"one machine renamed", list(renamed(base, func(i int) bool { return i == 3 }))},
		{"the same again", list(renamed(base, func(i int) bool { return i == 3 }))},
		{"the probed machine stopped", list(stopped)},
		{"back as it was", list(base)},
		{"one machine's memory doubled", list(bigger)},
		{"the same after a look is due", func() { at = at.Add(6 * time.Second); list(bigger)() }},
		{"back again", list(base)},
		{"every machine renamed", list(renamed(base, func(int) bool { return true }))},
		{"back once more", list(base)},
		{"one machine moved to another region", list(moved)},
		{"one machine on another image", list(reimaged)},
		{"the probed machine's check failing", list(failing)},
		{"back to passing", list(base)},
		{"one machine woken, a new event", list(woken)},
		{"swap removed from every machine", list(noSwap)},
		{"swap back", list(base)},
		{"swap in use, by the probe", func() { a.ApplyProbe(swapUsed.req, swapUsed.res, at) }},
		{"the same listing after it", list(base)},
		{"a machine gone", list(base[1:])},
		{"the same without it", list(base[1:])},
	}
	ctx := paneContext(theme.New(false))
	build := func() []pane.Pane {
		return append(buildPanes(ctx), checklistpane.New(ctx, nil, nil, checklist.Options{}))
	}
	tiles := build()
	for _, s := range steps {
		at = at.Add(time.Second)
		s.do()
		for i, p := range tiles {
			p.SetData(a, at)
			p.SetData(a, at) // as the next reply would: a listing's flash ends (a fresh tile has none)
			fresh := build()[i]
			fresh.SetData(a, at)
			got, want := uitest.PlainView(p, 160, 30, false, at), uitest.PlainView(fresh, 160, 30, false, at)
			if got != want {
				t.Errorf("%s: the %s tile draws\n%s\nfrom scratch it draws\n%s", s.name, p.Title(), got, want)
			}
		}
	}
}
