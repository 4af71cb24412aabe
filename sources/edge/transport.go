package edge

import (
	"crypto/tls"
	"net"
	"net/http"
)

// NewTransport returns the transport a wake test uses by default: one fresh
// HTTP/1.1 connection per request, no connection limit.
//
// HTTP/2 is off on purpose: it would multiplex the whole burst over one
// connection, and a service whose concurrency type is "connections" would
// then see one unit of load instead of N, never waking another machine.
// Keep-alives are off because every request already has its own connection
// and an idle pool would only hold sockets after the run.
func NewTransport() *http.Transport {
	var http1Only http.Protocols
	http1Only.SetHTTP1(true)
	return &http.Transport{
		Protocols: &http1Only,
		Proxy:     http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			// Deadlines come from the request context, not the dialer.
			KeepAlive: -1,
		}).DialContext,
		TLSClientConfig:     &tls.Config{MinVersion: tls.VersionTLS12},
		DisableKeepAlives:   true,
		DisableCompression:  true,
		MaxConnsPerHost:     0,
		MaxIdleConnsPerHost: -1,
	}
}
