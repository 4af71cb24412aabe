package wake

import (
	"github.com/flywake/flywake/sources/sanitize"
)

// errLine is an error as the screen may show it: the root's secrets
// redacted (an API error may quote a request) and inert (a file error
// names a path from the environment).
func (p *Pane) errLine(err error) string {
	if err == nil {
		return ""
	}
	return sanitize.Line(sanitize.Redact(err.Error(), p.base.Secrets...))
}
