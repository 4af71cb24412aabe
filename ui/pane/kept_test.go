package pane

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Each machine gets its own previous entry, whatever the listing did to
// the order, and a machine not listed before gets none.
func TestKeptFindsEachMachinesPreviousEntry(t *testing.T) {
	type entry struct{ id, from string }
	listings := [][]string{
		{"a", "b", "c", "d"},
		{"a", "b", "c", "d"},     // the same
		{"d", "c", "b", "a"},     // reversed
		{"x", "d", "c", "b"},     // one new in front, one gone
		{"x", "b"},               // some gone
		{"b", "x", "y", "z"},     // new ones after
		{},                       // none
		{"a", "b", "a", "c", ""}, // back, one twice
	}
	var k Kept[entry]
	prev := map[string]bool{}
	for round, ids := range listings {
		got := k.Refresh(len(ids), func(i int) string { return ids[i] }, func(i int, old, e *entry) {
			*e = entry{id: ids[i], from: "new"}
			if old != nil {
				if old.id != ids[i] {
					t.Errorf("round %d: %s handed %s's entry", round, ids[i], old.id)
				}
				e.from = fmt.Sprint(round)
			} else if prev[ids[i]] {
				t.Errorf("round %d: %s listed before got no entry", round, ids[i])
			}
		})
		if len(got) != len(ids) || !slices.Equal(k.Entries(), got) {
			t.Fatalf("round %d: %d entries, want %d", round, len(got), len(ids))
		}
		for i, e := range got {
			if e.id != ids[i] {
				t.Errorf("round %d: entry %d is %s, want %s", round, i, e.id, ids[i])
			}
		}
		k.Release()
		prev = map[string]bool{}
		for _, id := range ids {
			prev[id] = true
		}
	}
	if want := "a b a c "; strings.Join(k.ids, " ") != want {
		t.Errorf("ids %q, want %q", strings.Join(k.ids, " "), want)
	}
}

// A refresh of as many machines as the last allocates nothing.
func TestKeptReusesItsBuffers(t *testing.T) {
	var k Kept[int]
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	id := func(i int) string { return ids[i] }
	fill := func(i int, old, e *int) { *e = i }
	k.Refresh(len(ids), id, fill)
	k.Refresh(len(ids), id, fill)
	if n := testing.AllocsPerRun(10, func() { k.Refresh(len(ids), id, fill) }); n > 0 {
		t.Errorf("a refresh of 1,000 kept machines allocates %.0f times", n)
	}
}
