package app

import (
	"fmt"
	"testing"

	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/swap"
)

// tileRows places every pane exactly once, in rows of at most perRow, the
// fuller rows last (five panes were once laid out as [2 2], dropping one).
func TestTileRowsPlacesEveryPane(t *testing.T) {
	want := map[int]string{1: "[1]", 2: "[2]", 3: "[3]", 4: "[2 2]", 5: "[2 3]", 6: "[3 3]", 7: "[2 2 3]"}
	for n := 1; n <= 7; n++ {
		ps := make([]pane.Pane, n)
		for i := range ps {
			ps[i] = swap.New(pane.Context{})
		}
		var sizes []int
		placed := 0
		for _, row := range tileRows(ps) {
			sizes = append(sizes, len(row))
			placed += len(row)
		}
		if got := fmt.Sprint(sizes); got != want[n] || placed != n {
			t.Errorf("%d panes: rows %s, want %s", n, got, want[n])
		}
	}
}
