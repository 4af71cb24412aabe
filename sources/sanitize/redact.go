package sanitize

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/superfly/fly-go/tokens"
)

// Redacted replaces every secret Redact finds.
const Redacted = "[REDACTED]"

// minSecretLen keeps Redact from blanking short, common substrings when a
// token piece is oddly short.
const minSecretLen = 6

// held is every form of every secret the process holds (AddSecret);
// Line, Text and Redact remove them all.
var (
	heldMu sync.Mutex
	held   atomic.Pointer[secretSet]
	// version counts the secrets added (SecretsVersion).
	version atomic.Uint64
)

// SecretsVersion moves whenever a secret is added (AddSecret): a cache of
// cleaned text made at another version may hold what is now a secret.
func SecretsVersion() uint64 { return version.Load() }

// secretSet is forms of secrets, longest first, and the few of them that
// hold no other: a text without any of those holds none (the common case,
// decided with a handful of searches).
type secretSet struct {
	forms, cores []string
}

func newSet(forms []string) *secretSet {
	byLength(forms)
	set := &secretSet{forms: forms}
	for i, f := range forms {
		core := true
		for _, g := range forms[i+1:] {
			if len(g) < len(f) && strings.Contains(f, g) {
				core = false
				break
			}
		}
		if core {
			set.cores = append(set.cores, f)
		}
	}
	return set
}

// in reports whether s holds any form.
func (set *secretSet) in(s string) bool {
	for _, c := range set.cores {
		if strings.Contains(s, c) {
			return true
		}
	}
	return false
}

func (set *secretSet) remove(s string) string {
	if s == "" || !set.in(s) {
		return s
	}
	for _, f := range set.forms {
		if strings.Contains(s, f) {
			s = strings.ReplaceAll(s, f, Redacted)
		}
	}
	return s
}

// AddSecret makes every Line, Text, Redact and RedactAll from now on remove
// secret, in each of its forms (see forms): the API token, once the
// process holds it, whatever text it might reach — a project file, a
// decoded log line, an error.
func AddSecret(secret string) {
	fs := forms(secret)
	if len(fs) == 0 {
		return
	}
	heldMu.Lock()
	defer heldMu.Unlock()
	var all []string
	if p := held.Load(); p != nil {
		all = slices.Clone(p.forms)
	}
	for _, f := range fs {
		if !slices.Contains(all, f) {
			all = append(all, f)
		}
	}
	held.Store(newSet(all))
	version.Add(1)
}

// Redact removes every form of the process's secrets (AddSecret) and of
// extra from s: the raw string, the string without an auth scheme, each of
// its tokens (flyctl tokens are often "FlyV1 fm2_a,fm2_b": the macaroons
// and user tokens of fly-go's tokens.Parse), each macaroon without its
// prefix, and each of those as JSON escapes it (a secret quoted inside
// encoded JSON). It is the one redactor: errors, the screen, saved results
// and the debug log all pass through it.
func Redact(s string, extra ...string) string {
	s = redact(s)
	if len(extra) == 0 || s == "" {
		return s
	}
	var fs []string
	for _, e := range extra {
		fs = append(fs, forms(e)...)
	}
	return newSet(fs).remove(s)
}

// RedactAll applies Redact (without extra secrets) to every exported
// string reachable from ptr, as All does with Line: for answers decoded
// from JSON, whose escapes ("\u0066m2_…") hid a secret from a redaction of
// the raw bytes. It changes nothing else.
func RedactAll(ptr any) {
	if held.Load() == nil {
		return
	}
	walk(ptr, redact)
}

// redact removes the held secrets.
func redact(s string) string {
	if set := held.Load(); set != nil {
		return set.remove(s)
	}
	return s
}

// forms are the strings that give secret away, each at least minSecretLen
// long.
func forms(secret string) []string {
	secret = strings.TrimSpace(secret)
	if secret == "" {
		return nil
	}
	stripped := tokens.StripAuthorizationScheme(secret)
	plain := []string{secret, stripped}
	toks := tokens.Parse(stripped)
	for _, m := range toks.GetMacaroonTokens() {
		_, body, _ := strings.Cut(m, "_") // "fm2_lJPE…": the macaroon itself
		plain = append(plain, m, body)
	}
	plain = append(plain, toks.GetUserTokens()...)
	var out []string
	add := func(f string) {
		if len(f) >= minSecretLen && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, f := range plain {
		add(f)
		// As a JSON encoder writes it: Go's escapes < > & and controls,
		// others escape "/" too.
		if q, err := json.Marshal(f); err == nil {
			add(strings.Trim(string(q), `"`))
		}
		add(strings.ReplaceAll(f, "/", `\/`))
	}
	return out
}

// byLength orders forms longest first, so a whole token is replaced before
// the pieces it holds.
func byLength(fs []string) {
	slices.SortStableFunc(fs, func(a, b string) int { return len(b) - len(a) })
}
