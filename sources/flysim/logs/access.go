package logs

import (
	"strconv"
	"time"
)

// Access is the text of an app's access line. Fly's proxy writes no line
// per request (only its errors, with code, method, URL and status), so the
// per-request record a real app has is what its server prints. Fly hands every request the
// client's address in the Fly-Client-IP header and passes the Host the client
// asked for, so an app behind Fly can log both; the demo apps log the way a
// gunicorn configured with
//
//	access_log_format = '%({fly-client-ip}i)s %({host}i)s "%(r)s" %(s)s %(b)s %(M)sms'
//
// does ({header}i is gunicorn's request-header directive, M the time taken in
// milliseconds):
//
//	203.0.113.17 staging.sleepy-api.fly.dev "GET /.env HTTP/1.1" 301 0 12ms
//
// No field here is one Fly does not have: the address is the client's as
// the proxy saw it, the host is the request's own header.
func Access(client, host, method, path string, status, bytes int, took time.Duration) string {
	// Built by concatenation, not fmt: the day's history writes tens of
	// thousands of these at start-up.
	return client + " " + host + ` "` + method + " " + path + ` HTTP/1.1" ` +
		strconv.Itoa(status) + " " + strconv.Itoa(bytes) + " " + strconv.FormatInt(took.Milliseconds(), 10) + "ms"
}
