package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
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
	RetryAfter  string        // Retry-After of an injected 429 (default "1")

	// Body answers Status (default 200) with this body instead (an HTML
	// page from a proxy, garbage, a 50 MB error page), as ContentType
	// (default text/html).
	Body        string
	ContentType string
	Status      int

	// These alter the real answer. NullEntries adds a null machine to a
	// list, and a null check and a null event to every machine. Hostile is
	// appended to every machine name and check output (list, get) and to
	// every log message (logs): text carrying escape sequences.
	// EscapeHostile writes each character of Hostile as a JSON \u escape,
	// so the answer's raw bytes never hold it and only decoding does.
	NullEntries   bool
	Hostile       string
	EscapeHostile bool
	// Odd alters the named machines' entries in a machines answer (list,
	// get), by machine id: what a platform whose answers changed shape
	// could send.
	Odd map[string]Oddity
}

// Oddity is one way a machine's entry can be odd.
type Oddity string

const (
	OddNull          Oddity = "null"           // the entry is null
	OddUndecodable   Oddity = "undecodable"    // a field of another type: concurrency "soft_limit": "20"
	OddNoConfig      Oddity = "no_config"      // no config at all
	OddNoRelease     Oddity = "no_release"     // a config without fly_release_version
	OddUntimedEvents Oddity = "untimed_events" // events without a timestamp (nor an exit time)
	OddBarePayloads  Oddity = "bare_payloads"  // exit events without their exit payload
	OddChecks        Oddity = "odd_checks"     // checks without a status, and one null check
)

// SetFault installs f on an endpoint: an action name as in APICalls
// ("list", "get", "start", "exec", "logs", "prom", ...) or "*" for every
// endpoint without a fault of its own.
func (g *Gate) SetFault(endpoint string, f Fault) {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	st.faults[endpoint] = f
}

// ClearFaults removes every injected fault.
func (g *Gate) ClearFaults() {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	clear(st.faults)
}

// FaultFor is the fault installed on action, if any.
func (g *Gate) FaultFor(action string) (Fault, bool) {
	st := g
	st.mu.Lock()
	defer st.mu.Unlock()
	if f, ok := st.faults[action]; ok {
		return f, true
	}
	f, ok := st.faults["*"]
	return f, ok
}

// applyFault plays the endpoint's fault, if any, and reports whether it
// answered the request itself. Otherwise the handler writes to out, and
// finish (always safe to call) alters that answer as the fault says.
func (g *Gate) applyFault(w http.ResponseWriter, r *http.Request, action string) (out http.ResponseWriter, finish func(), answered bool) {
	f, ok := g.FaultFor(action)
	if !ok {
		return w, func() {}, false
	}
	if g.answerFault(w, r, f) {
		return w, func() {}, true
	}
	if !f.NullEntries && f.Hostile == "" && len(f.Odd) == 0 {
		return w, func() {}, false
	}
	rw := &rewriter{ResponseWriter: w, header: http.Header{}, status: http.StatusOK}
	for k, v := range w.Header() {
		rw.header[k] = v
	}
	return rw, func() { rw.finish(f) }, false
}

// answerFault plays the faults that answer in place of the handler.
func (g *Gate) answerFault(w http.ResponseWriter, r *http.Request, f Fault) bool {
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
		g.mu.Lock()
		roll429, roll5xx = g.dice.Float64(), g.dice.Float64()
		g.mu.Unlock()
	}
	switch {
	case f.Rate429 > 0 && roll429 < f.Rate429:
		ra := f.RetryAfter
		if ra == "" {
			ra = "1"
		}
		w.Header().Set("Retry-After", ra)
		WriteError(w, http.StatusTooManyRequests, "rate limit exceeded")
		return true
	case f.Rate5xx > 0 && roll5xx < f.Rate5xx:
		code := f.Status5xx
		if code < 500 || code > 599 {
			code = http.StatusServiceUnavailable
		}
		WriteError(w, code, "internal error")
		return true
	case f.Malformed:
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"id": `))
		return true
	case f.Body != "":
		ct := f.ContentType
		if ct == "" {
			ct = "text/html"
		}
		w.Header().Set("Content-Type", ct)
		status := f.Status
		if status == 0 {
			status = http.StatusOK
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(f.Body))
		return true
	}
	return false
}

// rewriter holds the handler's answer so a fault can alter it.
type rewriter struct {
	http.ResponseWriter
	header http.Header
	status int
	body   bytes.Buffer
}

func (rw *rewriter) Header() http.Header         { return rw.header }
func (rw *rewriter) WriteHeader(status int)      { rw.status = status }
func (rw *rewriter) Write(b []byte) (int, error) { return rw.body.Write(b) }

// finish alters a 200 JSON answer as f says and sends it.
func (rw *rewriter) finish(f Fault) {
	body := rw.body.Bytes()
	if rw.status == http.StatusOK {
		var v any
		if json.Unmarshal(body, &v) == nil {
			if b, err := json.Marshal(alter(v, f)); err == nil {
				body = b
				if f.EscapeHostile {
					body = escapeAll(body, f.Hostile)
				}
			}
		}
	}
	h := rw.ResponseWriter.Header()
	for k, v := range rw.header {
		h[k] = v
	}
	h.Del("Content-Length")
	rw.ResponseWriter.WriteHeader(rw.status)
	_, _ = rw.ResponseWriter.Write(body)
}

// escapeAll rewrites every occurrence of s (as JSON writes it) in body
// with each of its characters as a \u escape.
func escapeAll(body []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil || s == "" {
		return body
	}
	var esc strings.Builder
	for _, r := range s {
		if r > 0xffff {
			esc.WriteRune(r) // beyond one escape; written as it is
			continue
		}
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	return bytes.ReplaceAll(body, bytes.Trim(q, `"`), []byte(esc.String()))
}

// alter applies f to a decoded answer: a machines list or machine, or a
// logs page.
func alter(v any, f Fault) any {
	machine := func(m map[string]any) {
		if f.Hostile != "" {
			if name, ok := m["name"].(string); ok {
				m["name"] = name + f.Hostile
			}
			if checks, ok := m["checks"].([]any); ok {
				for _, c := range checks {
					if c, ok := c.(map[string]any); ok {
						out, _ := c["output"].(string)
						c["output"] = out + f.Hostile
					}
				}
			}
		}
		if f.NullEntries {
			checks, _ := m["checks"].([]any)
			events, _ := m["events"].([]any)
			m["checks"], m["events"] = append(checks, nil), append([]any{nil}, events...)
		}
	}
	switch v := v.(type) {
	case []any: // a machines list
		for i, m := range v {
			if m, ok := m.(map[string]any); ok {
				machine(m)
				v[i] = oddMachine(m, f.Odd)
			}
		}
		if f.NullEntries {
			v = append([]any{nil}, v...)
		}
		return v
	case map[string]any:
		if data, ok := v["data"].([]any); ok { // a logs page
			for _, d := range data {
				d, _ := d.(map[string]any)
				if attrs, ok := d["attributes"].(map[string]any); ok && f.Hostile != "" {
					msg, _ := attrs["message"].(string)
					attrs["message"] = msg + f.Hostile
				}
			}
			return v
		}
		if _, ok := v["id"]; ok { // one machine
			machine(v)
			return oddMachine(v, f.Odd)
		}
	}
	return v
}

// oddMachine alters m as odd says for its id.
func oddMachine(m map[string]any, odd map[string]Oddity) any {
	id, _ := m["id"].(string)
	child := func(parent map[string]any, key string) map[string]any {
		c, ok := parent[key].(map[string]any)
		if !ok {
			c = map[string]any{}
			parent[key] = c
		}
		return c
	}
	events := func(each func(e map[string]any)) {
		list, _ := m["events"].([]any)
		for _, e := range list {
			if e, ok := e.(map[string]any); ok {
				each(e)
			}
		}
	}
	switch odd[id] {
	case OddNull:
		return nil
	case OddUndecodable:
		cfg := child(m, "config")
		services, _ := cfg["services"].([]any)
		if len(services) == 0 {
			services = []any{map[string]any{}}
			cfg["services"] = services
		}
		if svc, ok := services[0].(map[string]any); ok {
			child(svc, "concurrency")["soft_limit"] = "20"
		}
	case OddNoConfig:
		delete(m, "config")
	case OddNoRelease:
		if cfg, ok := m["config"].(map[string]any); ok {
			if md, ok := cfg["metadata"].(map[string]any); ok {
				delete(md, "fly_release_version")
			}
		}
	case OddUntimedEvents:
		events(func(e map[string]any) {
			delete(e, "timestamp")
			if req, ok := e["request"].(map[string]any); ok {
				if ee, ok := req["exit_event"].(map[string]any); ok {
					delete(ee, "exited_at")
				}
			}
		})
	case OddBarePayloads:
		events(func(e map[string]any) {
			if e["type"] == "exit" {
				delete(e, "request")
			}
		})
	case OddChecks:
		checks, _ := m["checks"].([]any)
		for _, c := range checks {
			if c, ok := c.(map[string]any); ok {
				delete(c, "status")
			}
		}
		m["checks"] = append(checks, nil)
	}
	return m
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
