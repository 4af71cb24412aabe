package flysim

import (
	"net"
	"net/http"
	"time"
)

// Fault is a misbehaviour injected into one endpoint, for tests of the
// dashboard's error handling. Probabilities are drawn from the platform's
// seeded rng, so a run with the same seed and calls reproduces.
type Fault struct {
	Latency     time.Duration // added before answering (wall time)
	Rate429     float64       // share of calls answered 429 rate limit exceeded
	Rate5xx     float64       // share of calls answered Status5xx
	Status5xx   int           // default 503 (fly-go retries 502/503, not 500/504)
	Malformed   bool          // 200 with a truncated JSON body
	Reset       bool          // close the connection without any response
	ExecTimeout bool          // exec hangs until its timeout, then 408
}

// SetFault installs f on an endpoint: an action name as in APICalls
// ("list", "get", "start", "exec", "logs", "prom", ...) or "*" for every
// endpoint without a fault of its own.
func (s *Sim) SetFault(endpoint string, f Fault) {
	st := &s.apist
	st.mu.Lock()
	defer st.mu.Unlock()
	st.init(s.opts.Seed)
	st.faults[endpoint] = f
}

// ClearFaults removes every injected fault.
func (s *Sim) ClearFaults() {
	st := &s.apist
	st.mu.Lock()
	defer st.mu.Unlock()
	st.init(s.opts.Seed)
	clear(st.faults)
}

func (s *Sim) faultFor(action string) (Fault, bool) {
	st := &s.apist
	st.mu.Lock()
	defer st.mu.Unlock()
	st.init(s.opts.Seed)
	if f, ok := st.faults[action]; ok {
		return f, true
	}
	f, ok := st.faults["*"]
	return f, ok
}

// applyFault plays the endpoint's fault, if any, and reports whether it
// answered the request itself.
func (s *Sim) applyFault(w http.ResponseWriter, r *http.Request, action string) bool {
	f, ok := s.faultFor(action)
	if !ok {
		return false
	}
	if f.Latency > 0 {
		t := time.NewTimer(f.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true
		}
	}
	if f.Reset {
		resetConn(w)
		return true
	}
	var roll429, roll5xx float64
	if f.Rate429 > 0 || f.Rate5xx > 0 {
		s.mu.Lock()
		roll429, roll5xx = s.rng.Float64(), s.rng.Float64()
		s.mu.Unlock()
	}
	switch {
	case f.Rate429 > 0 && roll429 < f.Rate429:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "rate limit exceeded")
		return true
	case f.Rate5xx > 0 && roll5xx < f.Rate5xx:
		code := f.Status5xx
		if code < 500 || code > 599 {
			code = http.StatusServiceUnavailable
		}
		writeError(w, code, "internal error")
		return true
	case f.Malformed:
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"id": `))
		return true
	}
	return false
}

// resetConn drops the connection with a TCP reset and no HTTP response.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler) // net/http closes the connection quietly
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
