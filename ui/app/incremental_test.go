package app

import (
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// Every tile, handed the model after each change (listings through the
// listing command's Converter, logs, probes), draws what a tile handed
// only the model as it stands then draws: what a tile keeps from one
// SetData to the next (rows of unchanged machines, whole tables when
// nothing they read changed) never shows something stale.
func TestTilesFedChangeByChangeDrawAsFromScratch(t *testing.T) {
	fx := newFixture(12, t0)
	a := snapshot.New(fixtureOrg, fixtureApp, nil)
	var cv snapshot.Converter
	at := t0
	list := func(ms []*fly.Machine) func() {
		return func() { a.ApplyConverted(cv.Convert(fixtureApp, hashed(t, ms)), at) }
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
		{"a machine gone", list(base[1:])},
		{"the same without it", list(base[1:])},
	}
	ctx := paneContext(theme.New(false))
	tiles := buildPanes(ctx)
	for _, s := range steps {
		at = at.Add(time.Second)
		s.do()
		for i, p := range tiles {
			p.SetData(a, at)
			p.SetData(a, at) // as the next reply would: a listing's flash ends (a fresh tile has none)
			fresh := buildPanes(ctx)[i]
			fresh.SetData(a, at)
			got, want := uitest.PlainView(p, 160, 30, false, at), uitest.PlainView(fresh, 160, 30, false, at)
			if got != want {
				t.Errorf("%s: the %s tile draws\n%s\nfrom scratch it draws\n%s", s.name, p.Title(), got, want)
			}
		}
	}
}
