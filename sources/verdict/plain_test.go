package verdict

import (
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/snapshot/machine"
)

// The tests build machines as the API answers them (fly-go's), alter them
// the ways an answer can be hostile, and hand the judge what the model
// makes of them: the plain machines sources/snapshot converts.

// plain converts ms for the judge, nil entries kept nil.
func plain(ms []*fly.Machine) []*machine.Machine {
	out := make([]*machine.Machine, len(ms))
	for i, fm := range ms {
		if fm != nil {
			m := machine.FromFly(fm)
			out[i] = &m
		}
	}
	return out
}

// rawListing is a listing before conversion, as a hostility alters it.
type rawListing struct {
	Machines []*fly.Machine
	Skipped  []string
	Partial  map[string]int
}

// plain is the listing as the judge reads it.
func (l rawListing) plain() Listing {
	return Listing{Machines: plain(l.Machines), Skipped: l.Skipped, Partial: l.Partial}
}

// plainOne converts one machine (nil stays nil).
func plainOne(fm *fly.Machine) *machine.Machine {
	if fm == nil {
		return nil
	}
	m := machine.FromFly(fm)
	return &m
}
