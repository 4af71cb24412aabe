// Package flytest builds client values for tests of the packages above
// the client.
package flytest

import (
	"encoding/json"
	"testing"

	fly "github.com/superfly/fly-go"

	flyc "github.com/flywake/flywake/sources/fly"
)

// Hashed is a listing of ms as the client hands it: each entry's hash by
// id and in order (flyc.EntryHash of the entry's JSON).
func Hashed(tb testing.TB, ms []*fly.Machine) flyc.Listing {
	tb.Helper()
	l := flyc.Listing{Machines: ms, Hashes: make(map[string]uint64, len(ms)), Order: make([]uint64, 0, len(ms))}
	for _, m := range ms {
		raw, err := json.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		h := flyc.EntryHash(raw)
		l.Hashes[m.ID] = h
		l.Order = append(l.Order, h)
	}
	return l
}
