package swap

import (
	"testing"
	"time"

	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// A pane handed listing after listing (its rows kept, formatted only as
// drawn) draws, scrolled anywhere and filtered, what a pane handed only
// the last listing draws; a listing of changed machines formats only the
// rows on screen.
func TestKeptRowsDrawAsFresh(t *testing.T) {
	mixed := func(i int, s *spec) {
		switch i % 5 {
		case 1:
			s.state, s.probe = "stopped", ""
		case 2:
			s.swapMB = 0
		case 3:
			s.ooms = 2
		}
	}
	first := fleet(300, mixed)
	later := fleet(300, func(i int, s *spec) {
		mixed(i, s)
		s.memoryMB = 2048 // every machine changed
		if i%11 == 0 {
			s.state = "suspended"
		}
	})
	a := build(first)
	kept := newPane(theme.New(false))
	kept.SetSize(160, 30)
	kept.SetData(a, t0)
	_ = uitest.View(kept, 160, 30, true, t0)
	at := t0.Add(10 * time.Second)
	a.ApplyMachines(machinesOf(later[100:]), at)
	kept.SetData(a, at)
	a.ApplyMachines(machinesOf(later), at.Add(time.Second))
	at = at.Add(time.Second)
	kept.SetData(a, at)
	formatted := 0
	for _, e := range kept.rows.kept.Entries() {
		if e.row != nil {
			formatted++
		}
	}
	if formatted > 30 {
		t.Errorf("%d rows formatted for a 30-line pane", formatted)
	}
	fresh := newPane(theme.New(false))
	fresh.SetSize(160, 30)
	fresh.SetData(a, at)
	if id, _ := kept.table.Selected(); id.ID != later[100].id {
		t.Errorf("the cursor left its machine for %s", id.ID)
	}
	kept.table.Top() // the cursor stayed on its machine; the fresh one starts at the top
	for _, move := range []int{0, 37, 150, 1000} {
		kept.table.Move(move)
		fresh.table.Move(move)
		if got, want := uitest.PlainView(kept, 160, 30, true, at), uitest.PlainView(fresh, 160, 30, true, at); got != want {
			t.Fatalf("moved %d: the kept pane draws\n%s\na fresh one\n%s", move, got, want)
		}
	}
	kept.table.SetFilter("suspended")
	fresh.table.SetFilter("suspended")
	if kept.table.Len() == 0 || kept.table.Len() != fresh.table.Len() {
		t.Errorf("filtered: %d kept rows match, %d fresh ones", kept.table.Len(), fresh.table.Len())
	}
	if got, want := uitest.PlainView(kept, 160, 30, true, at), uitest.PlainView(fresh, 160, 30, true, at); got != want {
		t.Errorf("filtered: the kept pane draws\n%s\na fresh one\n%s", got, want)
	}
}
