package fly

import "context"

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
}

// List lists the app's machines like ListMachines, with what the answer
// held beyond fly-go's types.
func (c *Client) List(ctx context.Context, app string) (Listing, error) {
	ctx, rep := withReport(ctx)
	ms, err := c.ListMachines(ctx, app)
	if err != nil {
		return Listing{}, err
	}
	r := rep.get()
	return Listing{Machines: ms, Cordoned: r.cordoned, Malformed: r.malformed}, nil
}
