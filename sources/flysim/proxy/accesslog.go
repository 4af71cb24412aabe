package proxy

import (
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
)

// Who sends the background requests (the access line's format is
// logs.Access).

// accessLog draws the clients and hosts of background requests from its own
// rng, so access lines never shift the platform's or the traffic's draws.
type accessLog struct {
	rng *rand.Rand
}

func newAccessLog(seed uint64) *accessLog {
	return &accessLog{rng: rand.New(rand.NewPCG(seed^0xacce55, seed+0x10c))}
}

// Client pools, all in documentation ranges (RFC 5737, RFC 3849): the apps'
// users poll from many addresses, the scanner from a few, a load test from one.
const (
	pollClients    = 1500
	scannerClients = 42
)

// loadTester is the one address a load test comes from.
const loadTester = "198.51.100.250"

// scannerHostWords are the subdomains the scanner invents (31 host names).
var scannerHostWords = []string{
	"dev", "staging", "test", "admin", "api", "beta", "old", "backup", "mail", "ftp", "git",
	"jenkins", "ci", "internal", "vpn", "portal", "app", "www", "shop", "blog", "cdn",
	"static", "db", "grafana", "kibana", "prometheus", "status", "auth", "sso", "demo", "sandbox",
}

// pollClient is one of the apps' users: IPv4 from TEST-NET-1/2, the rest of
// the pool IPv6 (mobile networks) under 2001:db8::/32.
func (l *accessLog) pollClient() string {
	i := l.rng.IntN(pollClients)
	switch {
	case i < 250:
		return "192.0.2." + strconv.Itoa(i+1)
	case i < 500:
		return "198.51.100." + strconv.Itoa(i-249)
	default:
		return "2001:db8:" + hex(0x100+i/256) + ":" + hex(i%256) + "::" + hex(1+i%7)
	}
}

// hex is n in lower-case hexadecimal, as an IPv6 group is written.
func hex(n int) string { return strconv.FormatInt(int64(n), 16) }

// scanner is one of the scanner's few addresses (TEST-NET-3) and one of the
// host names it invents under the app's domain.
func (l *accessLog) scanner(app string) (client, host string) {
	client = "203.0.113." + strconv.Itoa(10+l.rng.IntN(scannerClients))
	host = scannerHostWords[l.rng.IntN(len(scannerHostWords))] + "." + appHost(app)
	return client, host
}

// appHost is the app's public host name.
func appHost(app string) string { return app + ".fly.dev" }

// backgroundRequester is who sent a background request of class cls.
func (l *accessLog) requester(app string, cls Class) (client, host string) {
	switch cls {
	case ClassScan:
		return l.scanner(app)
	case ClassHeavy:
		return loadTester, appHost(app)
	}
	return l.pollClient(), appHost(app)
}

// outsideRequester is the client and host of a request through the edge
// listener: the connection's own address (what Fly puts in Fly-Client-IP)
// and the Host it sent.
func outsideRequester(r *http.Request) (client, host string) {
	client = r.RemoteAddr
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		client = h
	}
	return client, r.Host
}
