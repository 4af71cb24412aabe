package backlog

import (
	"fmt"
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
	fleet := func(n int, state func(i int) string, hard int) []spec {
		var out []spec
		for i := range n {
			out = append(out, spec{id: fmt.Sprintf("b%05d", i), state: state(i), soft: 25, hard: hard, closeWait: -1, service: i%9 != 0})
		}
		for i := 0; i < n; i += 50 {
			out[i].closeWait = 10 * i
		}
		return out
	}
	started := func(int) string { return "started" }
	a := build(fleet(300, started, 0))
	kept := newPane(theme.New(false))
	kept.SetSize(160, 30)
	kept.SetData(a, t0)
	_ = uitest.View(kept, 160, 30, true, t0)
	at := t0.Add(10 * time.Second)
	// Every machine changed; then the limits differ, so rows carry their own.
	a.ApplyMachines(machinesOf(fleet(300, func(i int) string { return []string{"started", "stopped"}[i%2] }, 0)), at)
	kept.SetData(a, at)
	mixedLimits := fleet(300, started, 0)
	for i := range mixedLimits {
		if i%3 == 0 {
			mixedLimits[i].hard = 30
		}
	}
	at = at.Add(time.Second)
	a.ApplyMachines(machinesOf(mixedLimits[50:]), at)
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
	for _, move := range []int{0, 37, 150, 1000} {
		kept.table.Move(move)
		fresh.table.Move(move)
		if got, want := uitest.PlainView(kept, 160, 30, true, at), uitest.PlainView(fresh, 160, 30, true, at); got != want {
			t.Fatalf("moved %d: the kept pane draws\n%s\na fresh one\n%s", move, got, want)
		}
	}
	kept.table.SetFilter("b001")
	fresh.table.SetFilter("b001")
	if kept.table.Len() == 0 || kept.table.Len() != fresh.table.Len() {
		t.Errorf("filtered: %d kept rows match, %d fresh ones", kept.table.Len(), fresh.table.Len())
	}
	if got, want := uitest.PlainView(kept, 160, 30, true, at), uitest.PlainView(fresh, 160, 30, true, at); got != want {
		t.Errorf("filtered: the kept pane draws\n%s\na fresh one\n%s", got, want)
	}
}
