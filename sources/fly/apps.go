package fly

import (
	"context"

	"github.com/superfly/fly-go/flaps"
)

// ListApps lists the apps of an organization (slug, e.g. "personal").
func (c *Client) ListApps(ctx context.Context, org string) ([]App, error) {
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	apps, err := c.flaps.ListApps(ctx, flaps.ListAppsRequest{OrgSlug: org})
	if err != nil {
		return nil, c.fail(ctx, call{op: "list apps of " + org, scope: otherScope}, err)
	}
	return apps, nil
}

// GetApp returns an app's organization, status and machine count.
func (c *Client) GetApp(ctx context.Context, app string) (*App, error) {
	if err := checkName("app", app); err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	a, err := c.flaps.GetApp(ctx, app)
	if err != nil {
		return nil, c.fail(ctx, call{op: "get app " + app, scope: appScope, app: app}, err)
	}
	return a, nil
}
