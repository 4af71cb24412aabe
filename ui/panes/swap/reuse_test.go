package swap

import (
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly/flytest"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// A renamed machine keeps its row (the pane shows no name); a machine
// whose state changed gets a new one; a machine no longer listed has
// none; and the pane draws what a fresh one does.
func TestRenamedMachineKeepsItsRow(t *testing.T) {
	specs := []spec{
		{id: "a", state: "started", swapMB: 512, memoryMB: 1024},
		{id: "b", state: "started", memoryMB: 1024},
		{id: "c", state: "started", memoryMB: 1024, ooms: 1},
	}
	var cv snapshot.Converter
	a := snapshot.New("demo-org", "sleepy-api", nil)
	first := machinesOf(specs)
	a.ApplyConverted(cv.Convert("sleepy-api", flytest.Hashed(t, first)), t0)
	p := newPane(theme.New(false))
	p.SetSize(120, 12)
	p.SetData(a, t0)
	_ = uitest.View(p, 120, 12, true, t0) // formats the rows
	rowOf := func(id string) *entryRow {
		for _, e := range p.rows.kept.Entries() {
			if e.m.ID == id {
				return &entryRow{row: e.row, hash: e.hash}
			}
		}
		return nil
	}
	before := rowOf("a")
	if before == nil || before.row == nil {
		t.Fatal("a's row was not formatted")
	}
	b := rowOf("b")

	later := machinesOf(specs[:2])
	later[0].Name = "renamed-a"
	later[1].State = "stopped"
	at := t0.Add(10 * time.Second)
	a.ApplyConverted(cv.Convert("sleepy-api", flytest.Hashed(t, later)), at)
	p.SetData(a, at)
	if got := rowOf("a"); got == nil || got.hash == before.hash || got.row != before.row {
		t.Errorf("renamed a: %+v, want a new hash and the row it had (%p)", got, before.row)
	}
	if got := rowOf("b"); got == nil || b.row != nil && got.row == b.row {
		t.Errorf("b, stopped since: kept the row it had while started")
	}
	if rowOf("c") != nil {
		t.Error("c, no longer listed, still has a row")
	}
	fresh := newPane(theme.New(false))
	fresh.SetSize(120, 12)
	fresh.SetData(a, at)
	if got, want := uitest.PlainView(p, 120, 12, true, at), uitest.PlainView(fresh, 120, 12, true, at); got != want {
		t.Errorf("the pane draws\n%s\na fresh one\n%s", got, want)
	}
}

type entryRow struct {
	row  *table.Row
	hash uint64
}

// The head is wrapped again when its sentences change, and kept when a
// listing leaves them as they were.
func TestHeadFollowsItsSentences(t *testing.T) {
	specs := []spec{{id: "a", state: "started", memoryMB: 1024}, {id: "b", state: "started", memoryMB: 1024}}
	a := build(specs)
	p := newPane(theme.New(false))
	p.SetSize(60, 12)
	p.SetData(a, t0)
	if view := uitest.PlainView(p, 60, 12, true, t0); !strings.Contains(view, "no swap configured") {
		t.Fatalf("no swap yet, the pane draws\n%s", view)
	}
	head := p.head
	renamed := machinesOf(specs)
	renamed[0].Name = "renamed"
	a.ApplyMachines(renamed, t0.Add(time.Second))
	p.SetData(a, t0.Add(time.Second))
	if &p.head[0] != &head[0] {
		t.Error("a rename wrapped the same head again")
	}
	specs[1].swapMB = 512
	a.ApplyMachines(machinesOf(specs), t0.Add(2*time.Second))
	p.SetData(a, t0.Add(2*time.Second))
	if view := uitest.PlainView(p, 60, 12, true, t0); !strings.Contains(view, "1/2 machines") {
		t.Errorf("swap on one machine of two, the pane draws\n%s", view)
	}
}
