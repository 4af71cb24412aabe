package fly

import (
	"context"

	flygo "github.com/superfly/fly-go"
)

// Volume is one of an app's volumes as the Machines API lists it.
type Volume = flygo.Volume

// ListVolumes lists the app's volumes, destroyed ones left out (fly-go's
// GetVolumes, as `fly volumes list` shows them).
func (c *Client) ListVolumes(ctx context.Context, app string) ([]Volume, error) {
	if err := checkName("app", app); err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	vs, err := c.flaps.GetVolumes(ctx, app)
	if err != nil {
		return nil, c.fail(ctx, call{op: "list volumes of " + app, scope: appScope, app: app}, err)
	}
	if c.tap != nil {
		c.tap.VolumesListed(app, vs)
	}
	return vs, nil
}
