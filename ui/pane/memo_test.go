package pane

import (
	"slices"
	"testing"

	"github.com/flywake/flywake/ui/components/cell"
)

// WrapMemo answers what cell.WrapAll does, wrapping again only for lines
// or a width it does not hold.
func TestWrapMemoIsWrapAll(t *testing.T) {
	var m WrapMemo
	lines := []string{"the edge answered 900 requests the app never saw in 24 h", "a legend that wraps at a narrow width"}
	check := func(ls []string, w int) []string {
		t.Helper()
		got := m.WrapAll(ls, w, 2)
		if want := cell.WrapAll(ls, w, 2); !slices.Equal(got, want) {
			t.Fatalf("width %d: %q, want %q", w, got, want)
		}
		return got
	}
	at30 := check(lines, 30)
	at50 := check(lines, 50)
	if again := check(lines, 30); &again[0] != &at30[0] {
		t.Error("the same lines at a width held were wrapped again")
	}
	if again := check(slices.Clone(lines), 50); &again[0] != &at50[0] {
		t.Error("equal lines at a width held were wrapped again")
	}
	changed := slices.Clone(lines)
	changed[1] = "another legend, longer than the first one was"
	check(changed, 30) // new lines: wrapped afresh, evicting the oldest held
	if again := check(lines, 50); &again[0] != &at50[0] {
		t.Error("the lines at 50 were evicted before older ones")
	}
}
