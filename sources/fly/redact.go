package fly

import (
	"encoding/json"
	"strings"

	"github.com/superfly/fly-go/tokens"
)

// Redacted replaces every secret Redact finds.
const Redacted = "[REDACTED]"

// minSecretLen keeps Redact from blanking short, common substrings when a
// token piece is oddly short.
const minSecretLen = 6

// Redact removes every form of each secret from s: the raw string, the
// string without an auth scheme, each comma-separated piece (flyctl tokens
// are often "fm2_a,fm2_b"), and each of those as JSON escapes it (a secret
// quoted inside encoded JSON). It is the one redactor: errors, the screen,
// saved results and the debug log all pass through it.
func Redact(s string, secrets ...string) string {
	if s == "" {
		return s
	}
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		stripped := tokens.StripAuthorizationScheme(secret)
		forms := []string{secret, stripped}
		for _, piece := range strings.Split(stripped, ",") {
			forms = append(forms, strings.TrimSpace(piece))
		}
		for _, f := range forms {
			if len(f) < minSecretLen {
				continue
			}
			s = strings.ReplaceAll(s, f, Redacted)
			if q, err := json.Marshal(f); err == nil {
				if esc := strings.Trim(string(q), `"`); esc != f {
					s = strings.ReplaceAll(s, esc, Redacted)
				}
			}
		}
	}
	return s
}
