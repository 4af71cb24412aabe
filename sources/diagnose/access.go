package diagnose

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Fly's proxy logs no line per request, only its errors; the per-request
// record of an app is its own server's access log. Behind Fly a server sees
// the proxy's address as the peer, so the client is known only when the app
// logs the Fly-Client-IP header (gunicorn: %({fly-client-ip}i)s), and the
// host the client asked for when it logs Host (%({host}i)s).

// AccessLine is one request from an app's access log.
type AccessLine struct {
	Time   time.Time
	Client string // the client's address; "" when the line has none (or only the proxy's)
	Host   string // the Host asked for; "" when not logged
	Method string
	Path   string // without the query string
	Status int
}

// requestRE finds `"GET /path HTTP/1.1" 301` in an access line, whatever
// comes before it (gunicorn, granian, uvicorn and Django all quote it).
var requestRE = regexp.MustCompile(`"([A-Z]{3,7}) (\S+) HTTP/[0-9.]+" ([1-5]\d\d)\b`)

// ParseAccessLine reads a request line from an app log message; ok is false
// for any other line. Before the quoted request it takes the first address
// that is not Fly's own (6PN fdaa::/16, private or loopback: the proxy or a
// health check) as the client and the first host name as the Host.
func ParseAccessLine(at time.Time, msg string) (AccessLine, bool) {
	loc := requestRE.FindStringSubmatchIndex(msg)
	if loc == nil {
		return AccessLine{}, false
	}
	status, _ := strconv.Atoi(msg[loc[6]:loc[7]])
	path := msg[loc[4]:loc[5]]
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if path == "" {
		return AccessLine{}, false
	}
	l := AccessLine{Time: at, Method: msg[loc[2]:loc[3]], Path: path, Status: status}
	for _, tok := range strings.Fields(msg[:loc[0]]) {
		tok = strings.Trim(tok, "[],")
		if addr, ok := parseAddr(tok); ok {
			if l.Client == "" && !fromFly(addr) {
				l.Client = addr.String()
			}
			continue
		}
		if l.Host == "" && isHostName(tok) {
			l.Host = strings.ToLower(tok)
		}
	}
	return l, true
}

// parseAddr reads "203.0.113.7", "203.0.113.7:5123", "2001:db8::1" or
// "[2001:db8::1]:443".
func parseAddr(tok string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(tok); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(tok); err == nil {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}

var flyPrivate = netip.MustParsePrefix("fdaa::/16")

// fromFly: the address is Fly's (the proxy, a health check) or local, not a client.
func fromFly(a netip.Addr) bool {
	return flyPrivate.Contains(a) || a.IsPrivate() || a.IsLoopback() || a.IsUnspecified() || a.IsLinkLocalUnicast()
}

// isHostName accepts "sleepy-api.fly.dev" and "api.example.com:443": a dot,
// letters, digits and hyphens, and at least one letter in the last label.
func isHostName(tok string) bool {
	if i := strings.LastIndexByte(tok, ':'); i > 0 {
		if _, err := strconv.ParseUint(tok[i+1:], 10, 16); err == nil {
			tok = tok[:i]
		}
	}
	if len(tok) < 3 || len(tok) > 253 || !strings.Contains(tok, ".") || strings.HasPrefix(tok, ".") || strings.HasSuffix(tok, ".") {
		return false
	}
	for _, r := range tok {
		if !(r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	last := tok[strings.LastIndexByte(tok, '.')+1:]
	return strings.IndexFunc(last, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
}
