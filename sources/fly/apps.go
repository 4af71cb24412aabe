package fly

import (
	"context"

	"github.com/superfly/fly-go/flaps"

	"github.com/flywake/flywake/sources/sanitize"
)

// ListApps lists the apps of an organization (slug, e.g. "personal").
func (c *Client) ListApps(ctx context.Context, org string) ([]App, error) {
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	apps, err := c.flaps.ListApps(ctx, flaps.ListAppsRequest{OrgSlug: org})
	if err != nil {
		return nil, c.fail(ctx, call{op: "list apps of " + org, scope: otherScope}, err)
	}
	for i := range apps {
		cleanApp(&apps[i])
	}
	if c.tap != nil {
		c.tap.AppsListed(org, apps)
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
	if a != nil {
		cleanApp(a)
	}
	return a, nil
}

// cleanApp makes the names the screen shows inert (the switcher's
// completion, the header's org).
func cleanApp(a *App) {
	a.Name = sanitize.Line(a.Name)
	a.Organization.Slug = sanitize.Line(a.Organization.Slug)
	a.Organization.Name = sanitize.Line(a.Organization.Name)
}
