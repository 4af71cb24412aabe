package pane

import "slices"

// Kept holds one entry per machine of the last listing, in the listing's
// order, for a pane that keeps each machine's row between refreshes. Two
// buffers take turns, so a refresh of 10,000 machines allocates no entry;
// a machine's previous entry is found at its position, or by id (a map
// made only then) when the listing's order moved. The zero value is empty.
type Kept[E any] struct {
	entries, spare []E
	ids, spareIDs  []string
}

// Refresh makes the entries of n machines, the i-th called id(i): fill
// gets each machine's previous entry (nil for a machine not listed last
// time) and writes its new one into e, in place (entries are copied no
// more than once). It returns the new entries, which stay put until the
// next Refresh (pointers into them hold until then).
func (k *Kept[E]) Refresh(n int, id func(i int) string, fill func(i int, old, e *E)) []E {
	prev, prevIDs := k.entries, k.ids
	next, nextIDs := slices.Grow(k.spare[:0], n), slices.Grow(k.spareIDs[:0], n)
	var index map[string]int
	for i := range n {
		s := id(i)
		var old *E
		switch {
		case i < len(prev) && prevIDs[i] == s:
			old = &prev[i]
		case len(prev) > 0:
			if index == nil {
				index = make(map[string]int, len(prev))
				for j, pid := range prevIDs {
					index[pid] = j
				}
			}
			if j, ok := index[s]; ok {
				old = &prev[j]
			}
		}
		next = next[:i+1]
		fill(i, old, &next[i])
		nextIDs = append(nextIDs, s)
	}
	k.entries, k.spare = next, prev
	k.ids, k.spareIDs = nextIDs, prevIDs
	return next
}

// Entries are the last Refresh's.
func (k *Kept[E]) Entries() []E { return k.entries }

// Release drops the previous refresh's entries (what they point at may
// go) once nothing reads them: after the table holds the new rows.
func (k *Kept[E]) Release() {
	clear(k.spare)
	clear(k.spareIDs)
}
