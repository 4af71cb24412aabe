package volumes

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func view(p *Pane) string { return ansi.Strip(p.View(true, t0)) }

// vol is a volume as the API lists it; machine "" is not attached.
func vol(id, name string, gb int, machine string) fly.Volume {
	v := fly.Volume{ID: id, Name: name, State: "created", Region: "ams", SizeGb: gb}
	if machine != "" {
		v.AttachedMachine = &machine
	}
	return v
}

func appWith(vs ...fly.Volume) *snapshot.App {
	a := snapshot.New("org", "app", nil)
	a.ApplyMachines([]*fly.Machine{{ID: "m1", State: "started"}, {ID: "m2", State: "stopped"}, {ID: "m3", State: "started"}}, t0)
	a.ApplyVolumes(snapshot.ConvertVolumes(vs), nil, t0)
	return a
}

func TestVolumesTile(t *testing.T) {
	p := New(pane.Context{Theme: theme.New(true)})
	p.SetSize(90, 12)
	before := snapshot.New("org", "app", nil)
	p.SetData(before, t0)
	if v := view(p); !strings.Contains(v, "waiting for the volumes list") {
		t.Fatalf("before the first fetch:\n%s", v)
	}
	a := appWith(vol("vol_9", "spare", 10, ""), vol("vol_2", "data", 1, "m2"), vol("vol_1", "data", 3, "m1"))
	p.SetData(a, t0)
	v := view(p)
	for _, want := range []string{"3 volumes, 14 GB · attached to 2 of 3 machines", "m1", "● started", "3 GB", "○ stopped", "not attached", "10 GB", "vol_9"} {
		if !strings.Contains(v, want) {
			t.Errorf("tile lacks %q:\n%s", want, v)
		}
	}
	if strings.Index(v, "m1") > strings.Index(v, "m2") || strings.Index(v, "m2") > strings.Index(v, "not attached") {
		t.Errorf("rows not by machine, unattached last:\n%s", v)
	}

	a.ApplyVolumes(nil, errors.New("HTTP 503: try later"), t0.Add(time.Minute))
	p.SetData(a, t0)
	if v := view(p); !strings.Contains(v, "could not list the volumes: HTTP 503") || !strings.Contains(v, "vol_9") {
		t.Errorf("a failed fetch: the last good list and why:\n%s", v)
	}

	never := snapshot.New("org", "app", nil)
	never.ApplyVolumes(nil, errors.New("HTTP 503: try later"), t0)
	p.SetData(never, t0)
	if v := view(p); !strings.Contains(v, "could not list the volumes") || strings.Contains(v, "no volumes") {
		t.Errorf("a first fetch that failed claims to know:\n%s", v)
	}

	p.SetData(appWith(), t0)
	if v := view(p); !strings.Contains(v, "no volumes: each machine's root file system starts from the image") {
		t.Errorf("an app without volumes:\n%s", v)
	}
}

// View draws exactly the size it was given, at every size down to nothing.
func TestVolumesViewFitsItsSize(t *testing.T) {
	p := New(pane.Context{Theme: theme.New(true)})
	p.SetData(appWith(vol("vol_1", "data", 1, "m1")), t0)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {20, 3}, {40, 8}, {150, 20}} {
		p.SetSize(sz[0], sz[1])
		out := p.View(false, t0)
		if sz[0] == 0 || sz[1] == 0 {
			if out != "" {
				t.Errorf("%v: %q", sz, out)
			}
			continue
		}
		lines := strings.Split(out, "\n")
		if len(lines) != sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w != sz[0] {
				t.Errorf("%v: a line %d wide: %q", sz, w, ansi.Strip(l))
			}
		}
	}
}

// A tile too short for its summary and every volume keeps the table's
// header, a row and its position line, and says what it cut of the
// summary, as the other panes do.
func TestVolumesSayWhatTheyCannotFit(t *testing.T) {
	p := New(pane.Context{Theme: theme.New(true)})
	p.SetData(appWith(vol("vol_1", "data", 1, "m1"), vol("vol_2", "data", 1, "m3"), vol("vol_3", "data", 1, ""),
		vol("vol_4", "data", 1, ""), vol("vol_5", "data", 1, "")), t0)
	p.SetSize(30, 5) // the summary wraps to 2 lines; the table gets 3
	if below, scrolls := p.Below(); below != 0 || !scrolls || !strings.Contains(view(p), "1–1 of 5") {
		t.Errorf("Below() = %d, %v; want the position line to say the rest:\n%s", below, scrolls, view(p))
	}
	p.SetSize(30, 3) // the table's three lines take it all
	below, scrolls := p.Below()
	if below != 2 || scrolls {
		t.Errorf("Below() = %d, %v; want the 2 summary lines cut, not scrollable", below, scrolls)
	}
	if got := view(p); !strings.Contains(got, "machine") || !strings.Contains(got, "1–1 of 5") {
		t.Errorf("the table gave way to the summary:\n%s", got)
	}
}
