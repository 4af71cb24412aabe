package table

import (
	"fmt"
	"slices"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/ui/theme"
)

// lazyRow formats its row when asked, counting the times.
type lazyRow struct {
	row     Row
	formats *int
	done    bool
}

func (l *lazyRow) Format() Row {
	if !l.done {
		*l.formats++
		l.done = true
	}
	return l.row
}

// eagerAndLazy are the same n rows twice: with their cells, and as Lazy
// rows carrying only their IDs. Every third row is styled, every fifth
// is changed.
func eagerAndLazy(n int, formats *int) (eager, lazy []Row) {
	th := theme.New(false)
	for i := range n {
		id := fmt.Sprintf("m%04d", i)
		r := Row{ID: id, Cells: []string{id, []string{"started", "stopped", "Suspended"}[i%3], "ams"}, Changed: i%5 == 0}
		if i%3 == 1 {
			r.Styles = []*lipgloss.Style{nil, &th.Warn}
		}
		if i%7 == 0 {
			r.Style = &th.Dim
		}
		eager = append(eager, r)
		f := r
		f.ID, f.Changed = "", false // the table's own
		lazy = append(lazy, Row{ID: id, Changed: r.Changed, Lazy: &lazyRow{row: f, formats: formats}})
	}
	return eager, lazy
}

// A lazily formatted table draws, filters, selects and flashes what the
// same table handed its cells does, and formats only the rows it draws
// until a filter is typed.
func TestLazyRowsDrawAndFilterAsEagerOnes(t *testing.T) {
	formats := 0
	eager, lazy := eagerAndLazy(200, &formats)
	a, b := New(testCols, StylesFrom(theme.New(false))), New(testCols, StylesFrom(theme.New(false)))
	a.SetHeight(12)
	b.SetHeight(12)
	a.SetRows(eager)
	b.SetRows(lazy)
	same := func(step string) {
		t.Helper()
		if got, want := b.View(50, 12), a.View(50, 12); got != want {
			t.Errorf("%s: lazy rows draw\n%s\neager ones\n%s", step, got, want)
		}
		ra, _ := a.Selected()
		rb, _ := b.Selected()
		if ra.ID != rb.ID || !slices.Equal(ra.Cells, rb.Cells) {
			t.Errorf("%s: selected %v, eager %v", step, rb, ra)
		}
	}
	before := formats
	same("unfiltered")
	if formats != before {
		t.Errorf("View formatted %d rows: the window's rows are formatted as they come into it, in Update", formats-before)
	}
	if formats > 10 {
		t.Errorf("an unfiltered table of 200 rows showing 10 formatted %d", formats)
	}
	a.Move(57)
	b.Move(57)
	before = formats
	same("moved")
	if formats != before {
		t.Errorf("View after a move formatted %d rows", formats-before)
	}
	a.FlashChanged()
	b.FlashChanged()
	same("flashing the changed rows")
	for _, id := range []string{"m0000", "m0001", "m0005", "m0199"} {
		if a.IsFlashing(id) != b.IsFlashing(id) || b.IsFlashing(id) != eager[idIndex(id)].Changed {
			t.Errorf("IsFlashing(%s): lazy %v, eager %v", id, b.IsFlashing(id), a.IsFlashing(id))
		}
	}
	for _, q := range []string{"stop", "SUSP", "m01", "m0057", "nothing matches"} {
		a.SetFilter(q)
		b.SetFilter(q)
		if a.Len() != b.Len() {
			t.Errorf("filter %q: %d lazy rows match, %d eager", q, b.Len(), a.Len())
		}
		same("filter " + q)
	}
	a.SetFilter("")
	b.SetFilter("")
	same("filter cleared")
}

func idIndex(id string) int {
	var i int
	fmt.Sscanf(id, "m%04d", &i)
	return i
}

// FlashChanged flashes what Flash with the changed rows' IDs does, and
// ends as a flash ends.
func TestFlashChangedIsFlashOfTheChangedRows(t *testing.T) {
	formats := 0
	eager, _ := eagerAndLazy(30, &formats)
	var ids []string
	for _, r := range eager {
		if r.Changed {
			ids = append(ids, r.ID)
		}
	}
	a, b := newTable(), newTable()
	a.SetHeight(40)
	b.SetHeight(40)
	a.SetRows(eager)
	b.SetRows(eager)
	a.Flash(ids)
	b.FlashChanged()
	if got, want := b.View(40, 40), a.View(40, 40); got != want {
		t.Errorf("FlashChanged draws\n%s\nFlash(ids)\n%s", got, want)
	}
	b.ClearFlash()
	if b.IsFlashing(ids[0]) {
		t.Error("ClearFlash left a changed row flashing")
	}
	b.FlashChanged()
	b.SetRows(eager)
	if b.IsFlashing(ids[0]) {
		t.Error("SetRows left a changed row flashing")
	}
}
