package backlog

import (
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly/flytest"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// A renamed machine with no socket probe keeps its row (the pane shows no
// name); a machine whose state changed gets a new one; a machine no
// longer listed has none; and the pane draws what a fresh one does.
func TestRenamedMachineKeepsItsRow(t *testing.T) {
	specs := []spec{
		{id: "a", state: "started", soft: 20, hard: 25, closeWait: -1},
		{id: "b", state: "started", soft: 20, hard: 25, closeWait: -1},
		{id: "c", state: "started", soft: 20, hard: 25, closeWait: -1},
	}
	var cv snapshot.Converter
	a := snapshot.New("demo-org", "backlog-web", nil)
	a.ApplyConverted(cv.Convert("backlog-web", flytest.Hashed(t, machinesOf(specs))), t0)
	p := newPane(theme.New(false))
	p.SetSize(120, 14)
	p.SetData(a, t0)
	_ = uitest.View(p, 120, 14, true, t0) // formats the rows
	rowOf := func(id string) (*table.Row, uint64, bool) {
		for _, e := range p.rows.kept.Entries() {
			if e.bm.ID == id {
				return e.row, e.hash, true
			}
		}
		return nil, 0, false
	}
	aRow, aHash, _ := rowOf("a")
	bRow, _, _ := rowOf("b")
	if aRow == nil || bRow == nil {
		t.Fatal("the rows were not formatted")
	}
	later := machinesOf(specs[:2])
	later[0].Name = "renamed-a"
	later[1].State = "stopped"
	at := t0.Add(10 * time.Second)
	a.ApplyConverted(cv.Convert("backlog-web", flytest.Hashed(t, later)), at)
	p.SetData(a, at)
	if row, hash, ok := rowOf("a"); !ok || hash == aHash || row != aRow {
		t.Errorf("renamed a: row %p hash %x, want a new hash and the row it had (%p)", row, hash, aRow)
	}
	if row, _, ok := rowOf("b"); !ok || row == bRow {
		t.Error("b, stopped since, kept the row it had while started")
	}
	if _, _, ok := rowOf("c"); ok {
		t.Error("c, no longer listed, still has a row")
	}
	fresh := newPane(theme.New(false))
	fresh.SetSize(120, 14)
	fresh.SetData(a, at)
	if got, want := uitest.PlainView(p, 120, 14, true, at), uitest.PlainView(fresh, 120, 14, true, at); got != want {
		t.Errorf("the pane draws\n%s\na fresh one\n%s", got, want)
	}
}
