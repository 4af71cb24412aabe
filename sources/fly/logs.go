package fly

import "context"

// Logs fetches one page of app logs. nextToken "" returns the latest lines
// (up to 100 from the last 24 h); pass the returned token to page forward.
// instance (a machine id) and region narrow the query when not "".
func (c *Client) Logs(ctx context.Context, app, nextToken, instance, region string) ([]LogEntry, string, error) {
	if err := checkName("app", app); err != nil {
		return nil, "", err
	}
	ctx, cancel := withDeadline(ctx, defaultDeadline)
	defer cancel()
	entries, next, err := c.logs.GetAppLogs(ctx, app, nextToken, region, instance)
	if err != nil {
		return nil, "", c.fail(ctx, call{op: "read logs of " + app, scope: appScope, app: app}, err)
	}
	redactDecoded(ctx, &entries) // a JSON escape no longer hides the token
	if c.tap != nil && instance == "" && region == "" {
		c.tap.Logged(app, entries)
	}
	return entries, next, nil
}
