package fly

import (
	"strings"

	"github.com/superfly/fly-go/tokens"
)

const redacted = "[REDACTED]"

// minSecretLen keeps Redact from blanking short, common substrings when a
// token piece is oddly short.
const minSecretLen = 6

// Redact removes every form of token from s: the raw string, the string
// without an auth scheme, and each comma-separated piece (flyctl tokens are
// often "fm2_a,fm2_b").
func Redact(s, token string) string {
	if token == "" || s == "" {
		return s
	}
	secrets := []string{token, tokens.StripAuthorizationScheme(token)}
	for _, piece := range strings.Split(tokens.StripAuthorizationScheme(token), ",") {
		secrets = append(secrets, strings.TrimSpace(piece))
	}
	for _, sec := range secrets {
		if len(sec) >= minSecretLen {
			s = strings.ReplaceAll(s, sec, redacted)
		}
	}
	return s
}
