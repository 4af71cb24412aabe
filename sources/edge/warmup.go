package edge

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
)

// warmUp runs, before the barrier, the one-time work the first round trip
// would otherwise do while its siblings wait for a CPU (the transport's
// protocol setup, the proxy environment, the network poller), without
// sending anything: the probe request's context is already cancelled. Only for a transport Run
// owns; an injected one might count the call.
func warmUp(t *http.Transport, target *url.URL) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return
	}
	// A local socket that never sends: initialises the runtime's network
	// poller and the socket code paths the first dial would otherwise pay for.
	if pc, err := net.ListenPacket("udp", "127.0.0.1:0"); err == nil {
		pc.Close()
	}
	if t.Proxy != nil {
		t.Proxy(req) //nolint:errcheck // only warms its once-parsed environment
	}
	if resp, err := t.RoundTrip(req); err == nil {
		resp.Body.Close() // cannot happen with a cancelled context; be tidy anyway
	}
}

// resolveOnce looks the target's host up before the burst, so the burst
// does not make N identical DNS queries on the way out (every user of an
// anycast edge lands on the same addresses anyway). The returned dial
// function sends connections for host:port to those addresses and leaves
// any other address (a configured HTTP proxy) alone.
func resolveOnce(ctx context.Context, target *url.URL) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	host, port := target.Hostname(), target.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[target.Scheme]
	}
	var d net.Dialer
	d.KeepAlive = -1
	if _, err := netip.ParseAddr(host); err == nil {
		return d.DialContext, nil // a literal IP needs no lookup
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("resolve %s: no addresses", host)
	}
	hostPort := net.JoinHostPort(host, port)
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr != hostPort {
			return d.DialContext(ctx, network, addr)
		}
		var firstErr error
		for _, ip := range ips {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			if firstErr == nil {
				firstErr = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, firstErr
	}, nil
}
