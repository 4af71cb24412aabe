package fly

import (
	"context"
	"hash/maphash"
)

// Listing is one machines listing as flywake reads it: the machines fly-go
// decoded, and what the answer held that fly-go v0.5.0 does not decode or
// would crash on.
type Listing struct {
	Machines []*Machine
	// Cordoned is by machine id ("cordoned": newer than fly-go v0.5.0).
	Cordoned map[string]bool
	// Malformed counts the entries skipped: null or undecodable machines,
	// null checks, events and containers.
	Malformed int
	// Skipped are the machine entries skipped whole (null, or fly-go could
	// not decode them), one each: the id when the entry names one, else "".
	// A judge must not read them as machines that went away.
	Skipped []string
	// Partial counts, by machine id, the null checks, events and
	// containers dropped from a machine that was kept: what it says of
	// them may be missing something.
	Partial map[string]int
	// Hashes are, by machine id, EntryHash of the machine's entry as the
	// API sent it: equal hashes, equal machines (Cordoned and Partial
	// included), so a converter may reuse what it made of the entry last
	// time. An id without one is converted afresh.
	Hashes map[string]uint64
	// Order are the entries' hashes in Machines' order (Order[i] is
	// Machines[i]'s, for every machine), so a converter reads them in
	// sequence instead of looking each id up in a map of thousands. A
	// listing whose Order is not as long as Machines has none.
	Order []uint64
}

// entrySeed keys EntryHash: its values are compared within one process only.
var entrySeed = maphash.MakeSeed()

// EntryHash is the hash Listing.Hashes holds for one machine's entry
// (maphash: a 10,000-machine answer of some 20 MB hashes in milliseconds).
func EntryHash(raw []byte) uint64 { return maphash.Bytes(entrySeed, raw) }

// List lists the app's machines like ListMachines, with what the answer
// held beyond fly-go's types.
func (c *Client) List(ctx context.Context, app string) (Listing, error) {
	ctx, rep := withReport(ctx)
	ms, err := c.ListMachines(ctx, app)
	if err != nil {
		return Listing{}, err
	}
	got := rep.get().machines
	n := len(got.skipped)
	for _, k := range got.partial {
		n += k
	}
	l := Listing{Machines: ms, Cordoned: got.cordoned, Malformed: n, Skipped: got.skipped, Partial: got.partial, Hashes: got.hashes}
	if len(got.order) == len(ms) {
		l.Order = got.order
	}
	if c.tap != nil {
		c.tap.Listed(app, l)
	}
	return l, nil
}
