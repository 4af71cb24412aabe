package wake

import (
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/ui/components/cell"
)

// errLine is an error as the screen may show it: the root's secrets
// redacted (an API error may quote a request), control characters dropped.
func (p *Pane) errLine(err error) string {
	if err == nil {
		return ""
	}
	return cell.Sanitize(sanitize.Redact(err.Error(), p.base.Secrets...))
}
