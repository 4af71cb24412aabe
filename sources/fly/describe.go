package fly

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/flywake/flywake/sources/sanitize"
)

// DescribeMachine is one machine as the API answers GET machine, as
// indented JSON lines for people to read (the dashboard's describe view):
// config, services, mounts, metadata, every event with its exit code and
// request. Every line is made inert (sources/sanitize) and the token
// redacted; fly-go's decoding decides which fields there are.
func (c *Client) DescribeMachine(ctx context.Context, app, id string) ([]string, error) {
	m, err := c.GetMachine(ctx, app, id)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return strings.Split(sanitize.Text(Redact(string(b), c.cfg.Token)), "\n"), nil
}
