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
	// Not MarshalIndent: it writes & < > as \u0026…, which a command such
	// as `migrate && serve` should not read as.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return strings.Split(sanitize.Text(sanitize.Redact(strings.TrimSuffix(b.String(), "\n"), c.cfg.Token)), "\n"), nil
}
