package edge

import "time"

// ErrClass says why a request did not end in a complete response.
type ErrClass string

const (
	ErrNone ErrClass = "none"
	// ErrTimeout: the request's own Timeout ran out (or a net timeout fired).
	ErrTimeout ErrClass = "timeout"
	// ErrReset: the peer closed or reset the connection mid-exchange.
	ErrReset ErrClass = "reset"
	// ErrRefused: nothing listened (connection refused).
	ErrRefused ErrClass = "refused"
	// ErrProxy5xx: 502, 503 or 504, the statuses the edge answers with when
	// no machine served in time.
	ErrProxy5xx ErrClass = "proxy_5xx"
	// ErrHTTPStatus: any other non-2xx status (the app answered, not OK).
	ErrHTTPStatus ErrClass = "http_status"
	// ErrAborted: the run was cancelled (or hit MaxTotal) while in flight.
	ErrAborted ErrClass = "aborted"
	// ErrOther: DNS, TLS, malformed response, anything else.
	ErrOther ErrClass = "other"
)

// Result is one request as the client saw it. Durations are measured from
// Sent on the monotonic clock.
type Result struct {
	Index int `json:"index"`
	// Sent is when the request was handed to the transport, just after the
	// start barrier; dialing happens after it, as for a user.
	Sent time.Time `json:"sent"`
	// Wrote is when the request was fully on the wire (after dial and TLS);
	// 0 when it never was.
	Wrote time.Duration `json:"wrote_ns"`
	// TTFB is when the first response byte arrived; 0 when none did.
	TTFB time.Duration `json:"ttfb_ns"`
	// Total runs until the body was drained and closed, or the request failed.
	Total     time.Duration `json:"total_ns"`
	Status    int           `json:"status"`
	BodyBytes int64         `json:"body_bytes"`
	ErrClass  ErrClass      `json:"err_class"`
	Err       string        `json:"err,omitempty"`
	// Machine is the app's echo header (Plan.EchoHeader), empty when absent.
	Machine string `json:"machine,omitempty"`
	// RequestID is the edge's fly-request-id.
	RequestID string `json:"request_id,omitempty"`
}

// OK reports a complete 2xx response.
func (r Result) OK() bool {
	return r.ErrClass == ErrNone && r.Status >= 200 && r.Status < 300
}

// Completed reports whether the request ran to an outcome of its own
// (success or failure), as opposed to being cut off by an abort.
func (r Result) Completed() bool { return r.ErrClass != ErrAborted }
