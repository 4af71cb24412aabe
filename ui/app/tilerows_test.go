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

// prioritise gives a row short of its need lines from the roomiest row
// above its own need, never below least, and keeps the total.
func TestPrioritiseMovesLinesToWhatMustShow(t *testing.T) {
	cases := []struct {
		out, need []int
		want      string
	}{
		{[]int{13, 14}, []int{16, 7}, "[16 11]"},
		{[]int{13, 14}, nil, "[13 14]"},
		{[]int{8, 8, 8}, []int{12, 7, 7}, "[10 7 7]"}, // the others stop at least
		{[]int{20, 10}, []int{16, 7}, "[20 10]"},      // already has it
	}
	for _, c := range cases {
		got := prioritise(append([]int(nil), c.out...), c.need, minBox)
		if fmt.Sprint(got) != c.want {
			t.Errorf("prioritise(%v, %v) = %v, want %s", c.out, c.need, got, c.want)
		}
	}
}
