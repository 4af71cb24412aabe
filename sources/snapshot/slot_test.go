package snapshot

import "testing"

// Two slots of the same type are two places; an app's slot starts empty
// and another app's is its own.
func TestSlotsAreTheirOwnPlaces(t *testing.T) {
	var first, second slot[[]string]
	a, b := New("org", "a", nil), New("org", "b", nil)
	if got := first.get(a); got != nil {
		t.Fatalf("a new app's slot holds %v", got)
	}
	first.set(a, []string{"one"})
	second.set(a, []string{"two"})
	if got := first.get(a); len(got) != 1 || got[0] != "one" {
		t.Errorf("first slot %v", got)
	}
	if got := second.get(a); len(got) != 1 || got[0] != "two" {
		t.Errorf("second slot %v", got)
	}
	if got := first.get(b); got != nil {
		t.Errorf("another app's slot holds %v", got)
	}
}
