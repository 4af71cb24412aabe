package table

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/theme"
)

var wideCols = []Column{
	{Title: "ID", Width: 4, Pin: true},
	{Title: "AAAA", Width: 4},
	{Title: "EMPTY", Width: 5, Hide: true},
	{Title: "BBBB", Width: 4},
	{Title: "CCCC", Width: 4},
}

func wideTable() Model {
	t := New(wideCols, StylesFrom(theme.New(true)))
	t.SetRows([]Row{{ID: "r1", Cells: []string{"r1", "a", "e", "b", "c"}}, {ID: "r2", Cells: []string{"r2", "a", "e", "b", "c"}}})
	return t
}

// A hidden column is never drawn; scrolling sideways leaves out the first
// unpinned columns so the ones hidden for want of width show, the pinned
// one staying; ColumnsOff counts both sides.
func TestSidewaysScroll(t *testing.T) {
	tb := wideTable()
	tb.SaySideways(true)
	// 1 gutter + ID 4 + AAAA 4 + BBBB 4 + gaps 2 = 15: CCCC does not fit.
	if got := strings.Join(headerCols(tb, 15), " "); got != "ID AAAA BBBB" {
		t.Fatalf("header at 15: %q", got)
	}
	if l, r := tb.ColumnsOff(15); l != 0 || r != 1 {
		t.Fatalf("off at 15: %d left, %d right; want 0, 1", l, r)
	}
	tb.SetScroll(1)
	if got := strings.Join(headerCols(tb, 15), " "); got != "ID BBBB CCCC" {
		t.Fatalf("scrolled header: %q", got)
	}
	if l, r := tb.ColumnsOff(15); l != 1 || r != 0 {
		t.Fatalf("off scrolled: %d left, %d right; want 1, 0", l, r)
	}
	pos := ansi.Strip(strings.Split(tb.View(40, 6), "\n")[5])
	if !strings.Contains(pos, "← 1 more") {
		t.Fatalf("position line does not say a column is off to the left: %q", pos)
	}
	if strings.Contains(ansi.Strip(tb.View(60, 6)), "EMPTY") {
		t.Fatal("a hidden column was drawn")
	}
}

func headerCols(t Model, w int) []string {
	return strings.Fields(ansi.Strip(strings.Split(t.View(w, 6), "\n")[0]))
}

// RowAt maps a line of the view to its row: the header and the lines after
// the rows are no row; with the window scrolled, the offset counts.
func TestRowAt(t *testing.T) {
	tb := newTable()
	tb.SetRows(rowsN(20))
	tb.SetHeight(6) // header, 4 rows, position line
	for y, want := range map[int]string{1: "m0000", 4: "m0003"} {
		if r, ok := tb.RowAt(y, 6); !ok || r.ID != want {
			t.Errorf("line %d: %q %v, want %s", y, r.ID, ok, want)
		}
	}
	for _, y := range []int{0, 5, 9, -1} {
		if r, ok := tb.RowAt(y, 6); ok {
			t.Errorf("line %d is row %q, want none", y, r.ID)
		}
	}
	tb.Bottom()
	if r, ok := tb.RowAt(4, 6); !ok || r.ID != "m0019" {
		t.Errorf("scrolled to the end, the last body line is %q %v", r.ID, ok)
	}
}
