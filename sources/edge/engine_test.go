package edge

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunStatusesAndClasses(t *testing.T) {
	tests := []struct {
		status    int
		wantClass ErrClass
		wantOK    int
	}{
		{200, ErrNone, 3},
		{204, ErrNone, 3},
		{404, ErrHTTPStatus, 0},
		{500, ErrHTTPStatus, 0},
		{502, ErrProxy5xx, 0},
		{503, ErrProxy5xx, 0},
		{504, ErrProxy5xx, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
			})
			res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: 3, Timeout: 5 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 3 {
				t.Fatalf("got %d results, want 3", len(res))
			}
			for i, r := range res {
				if r.Index != i || r.Status != tt.status || r.ErrClass != tt.wantClass {
					t.Errorf("result %d = %+v, want index %d status %d class %s", i, r, i, tt.status, tt.wantClass)
				}
			}
			s := Summarize(res)
			if s.OK != tt.wantOK || s.Failed != 3-tt.wantOK || s.ByStatus[tt.status] != 3 {
				t.Errorf("summary = %+v", s)
			}
		})
	}
}

func TestRunRecordsEchoAndRequestIDAndSendsHeaders(t *testing.T) {
	var n atomic.Int64
	var sawToken, sawForced atomic.Int64
	srv, conns := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		if r.Header.Get("Authorization") == "Bearer s3cret" {
			sawToken.Add(1)
		}
		if r.Header.Get(ForcedInstanceHeader) != "" {
			sawForced.Add(1)
		}
		w.Header().Set("Fly-Machine-Id", fmt.Sprintf("m%d", i%3))
		w.Header().Set("Fly-Request-Id", fmt.Sprintf("01REQ%02d-ams", i))
		io.WriteString(w, "ok")
	})
	p := Plan{URL: srv.URL, Path: "/api/health/", Requests: 12, Header: http.Header{"Authorization": {"Bearer s3cret"}}}
	res, err := Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res)
	if got := strings.Join(s.Machines, ","); got != "m0,m1,m2" {
		t.Errorf("machines = %q, want m0,m1,m2", got)
	}
	ids := map[string]bool{}
	for _, r := range res {
		if !strings.HasPrefix(r.RequestID, "01REQ") || r.BodyBytes != 2 {
			t.Errorf("result %+v lacks request id or body", r)
		}
		ids[r.RequestID] = true
	}
	if len(ids) != 12 {
		t.Errorf("%d distinct request ids, want 12", len(ids))
	}
	if sawToken.Load() != 12 || sawForced.Load() != 0 {
		t.Errorf("server saw the header %d times and a forced instance %d times", sawToken.Load(), sawForced.Load())
	}
	// Each request must reach the edge on its own connection, as a user's would.
	if conns.Load() != 12 {
		t.Errorf("server accepted %d connections, want 12", conns.Load())
	}
}

func TestRunForcedInstanceRefusedBeforeSending(t *testing.T) {
	var hits atomic.Int64
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	p := Plan{URL: srv.URL, Requests: 2, Header: http.Header{"Fly-Force-Instance-Id": {"148e"}}}
	if _, err := Run(context.Background(), p, nil); !errors.Is(err, ErrForcedInstance) {
		t.Fatalf("Run = %v, want ErrForcedInstance", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("a refused plan sent %d requests", hits.Load())
	}
	p.AllowForcedInstance = true
	res, err := Run(context.Background(), p, nil)
	if err != nil || len(res) != 2 || hits.Load() != 2 {
		t.Fatalf("allowed run: err %v, %d results, %d hits", err, len(res), hits.Load())
	}
}

func TestRunTTFBVersusTotal(t *testing.T) {
	const bodyDelay = 150 * time.Millisecond
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		io.WriteString(w, "head")
		w.(http.Flusher).Flush()
		time.Sleep(bodyDelay)
		io.WriteString(w, "tail")
	})
	res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.OK() || r.BodyBytes != 8 {
			t.Fatalf("result %+v", r)
		}
		if r.TTFB <= 0 || r.TTFB >= bodyDelay/2 {
			t.Errorf("TTFB = %s, want > 0 and well under %s", r.TTFB, bodyDelay)
		}
		if r.Total-r.TTFB < bodyDelay*9/10 {
			t.Errorf("Total %s − TTFB %s < body delay %s", r.Total, r.TTFB, bodyDelay)
		}
		if r.Wrote <= 0 || r.Wrote > r.TTFB {
			t.Errorf("Wrote = %s, want within (0, TTFB=%s]", r.Wrote, r.TTFB)
		}
	}
}

func TestRunTimeouts(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tests := []struct {
		name    string
		handler http.HandlerFunc
		status  int
	}{
		{"no headers in time", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, 0},
		{"body stalls", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newServer(t, tt.handler)
			const timeout = 100 * time.Millisecond
			res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: 3, Timeout: timeout}, nil)
			if err != nil {
				t.Fatalf("a run whose requests time out still ran to its end, got %v", err)
			}
			for _, r := range res {
				if r.ErrClass != ErrTimeout || r.Status != tt.status || r.OK() {
					t.Errorf("result %+v, want timeout with status %d", r, tt.status)
				}
				if r.Total < timeout || r.Total > 2*time.Second {
					t.Errorf("Total = %s, want about %s", r.Total, timeout)
				}
			}
		})
	}
}

func TestRunResetAndRefused(t *testing.T) {
	hijackThen := func(close func(net.Conn)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			c, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				panic(err) // test server only
			}
			close(c)
		}
	}
	closed, _ := newServer(t, hijackThen(func(c net.Conn) { c.Close() }))
	rst, _ := newServer(t, hijackThen(func(c net.Conn) {
		c.(*net.TCPConn).SetLinger(0) // RST instead of FIN
		c.Close()
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + ln.Addr().String()
	ln.Close()

	tests := []struct {
		name, url string
		want      ErrClass
	}{
		{"closed before answering", closed.URL, ErrReset},
		{"reset", rst.URL, ErrReset},
		{"nothing listening", refusedURL, ErrRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run(context.Background(), Plan{URL: tt.url, Requests: 3, Timeout: 5 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				if r.ErrClass != tt.want || r.Err == "" || r.Status != 0 {
					t.Errorf("result %+v, want class %s", r, tt.want)
				}
			}
		})
	}
}

// Every request is in flight when the run is aborted: the server answers none
// until all have arrived (a loaded machine may run the last request's
// goroutine after the first answers, and a request not yet sent when the run
// is cancelled is rightly never sent), then the first few at once.
func TestRunAbortMidRunIsTruthful(t *testing.T) {
	const fast, total = 4, 10
	var n atomic.Int64
	allSent := make(chan struct{})
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		if k == total {
			close(allSent)
		}
		select {
		case <-allSent:
		case <-r.Context().Done():
			return
		}
		if k <= fast {
			return // answer 200 at once
		}
		<-r.Context().Done() // hang until the client gives up
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen int
	res, err := Run(ctx, Plan{URL: srv.URL, Requests: total}, func(r Result) {
		seen++ // not synchronised on purpose: -race proves calls are serial
		if seen == fast {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run err = %v, want context.Canceled", err)
	}
	if len(res) != total || seen != total {
		t.Fatalf("%d results, %d callbacks; want %d of each", len(res), seen, total)
	}
	s := Summarize(res)
	if s.OK != fast || s.Aborted != total-fast || s.Failed != 0 {
		t.Fatalf("summary ok %d aborted %d failed %d; want %d/%d/0", s.OK, s.Aborted, s.Failed, fast, total-fast)
	}
	for _, r := range res {
		if r.ErrClass == ErrAborted && (r.Status != 0 || r.Sent.IsZero()) {
			t.Errorf("aborted result %+v should carry its send time and no status", r)
		}
	}
}

func TestRunCancelledBeforeStartSendsNothing(t *testing.T) {
	var hits atomic.Int64
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, Plan{URL: srv.URL, Requests: 5}, nil)
	if !errors.Is(err, context.Canceled) || len(res) != 0 || hits.Load() != 0 {
		t.Fatalf("err %v, %d results, %d hits; want Canceled, 0, 0", err, len(res), hits.Load())
	}
}

func TestRunMaxTotalCutsOff(t *testing.T) {
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	start := time.Now()
	res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: 3, Timeout: 10 * time.Second, MaxTotal: 150 * time.Millisecond}, nil)
	if !errors.Is(err, ErrMaxTotal) {
		t.Fatalf("err = %v, want ErrMaxTotal", err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("run took %s despite a 150 ms limit", el)
	}
	if s := Summarize(res); s.Aborted != 3 {
		t.Fatalf("summary %+v, want 3 aborted", s)
	}
}

func TestRunCallsOnResultFromCallerGoroutine(t *testing.T) {
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	var order []int // appended without a lock: -race fails if calls overlap
	res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: 50}, func(r Result) {
		order = append(order, r.Index)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(order) != 50 || len(res) != 50 {
		t.Fatalf("%d callbacks, %d results", len(order), len(res))
	}
	seen := map[int]bool{}
	for _, i := range order {
		seen[i] = true
	}
	if len(seen) != 50 {
		t.Fatalf("callbacks covered %d distinct indexes, want 50", len(seen))
	}
}

func TestRunStartSkew40(t *testing.T) {
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: 40}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res)
	t.Logf("40 requests: start skew %s, wire skew %s, p50 %s", s.StartSkew, s.WireSkew, s.P50)
	if s.OK != 40 {
		t.Fatalf("ok = %d", s.OK)
	}
	// Loose on purpose: CI machines are noisy; the benchmark reports the real figure.
	if s.StartSkew <= 0 || s.StartSkew > 50*time.Millisecond {
		t.Fatalf("start skew %s, want (0, 50ms]", s.StartSkew)
	}
}

func TestRunLeaksNoGoroutines(t *testing.T) {
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-r.Context().Done()
		}
	})
	base := goroutineBaseline()
	for _, p := range []Plan{
		{URL: srv.URL, Requests: 100},
		{URL: srv.URL, Path: "/slow", Requests: 20, Timeout: 50 * time.Millisecond},
	} {
		if _, err := Run(context.Background(), p, nil); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	Run(ctx, Plan{URL: srv.URL, Path: "/slow", Requests: 20}, nil)
	srv.CloseClientConnections()
	if n := settledGoroutines(base); n > base {
		t.Fatalf("goroutines: %d before, %d after", base, n)
	}
}

// The default transport must not multiplex the burst over HTTP/2, even when
// the edge offers it.
func TestDefaultTransportIsHTTP1PerRequest(t *testing.T) {
	var protos sync.Map
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protos.Store(r.Proto, true)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	defer srv.Close()

	tr := NewTransport()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	tr.TLSClientConfig.RootCAs = pool
	defer tr.CloseIdleConnections()

	res, err := (&Engine{Transport: tr}).Run(context.Background(), Plan{URL: srv.URL, Requests: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := Summarize(res); s.OK != 8 {
		t.Fatalf("summary %+v", s)
	}
	var got []string
	protos.Range(func(k, _ any) bool { got = append(got, k.(string)); return true })
	if len(got) != 1 || got[0] != "HTTP/1.1" {
		t.Errorf("server saw protocols %v, want only HTTP/1.1", got)
	}
	if conns.Load() != 8 {
		t.Errorf("%d TLS connections for 8 requests", conns.Load())
	}
}

// fakeRoundTripper answers without a network, for the injectable transport.
type fakeRoundTripper struct{ calls atomic.Int64 }

func (f *fakeRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	n := f.calls.Add(1)
	if n%2 == 0 {
		return nil, io.ErrUnexpectedEOF
	}
	h := http.Header{}
	h.Set("X-Served-By", "fake-1")
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader("hello")), Request: r}, nil
}

func TestEngineUsesInjectedTransport(t *testing.T) {
	f := &fakeRoundTripper{}
	res, err := (&Engine{Transport: f}).Run(context.Background(),
		Plan{URL: "https://app.fly.dev", Requests: 6, EchoHeader: "X-Served-By"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res)
	if f.calls.Load() != 6 || s.OK != 3 || s.ByErrClass[ErrReset] != 3 || strings.Join(s.Machines, ",") != "fake-1" {
		t.Fatalf("calls %d, summary %+v", f.calls.Load(), s)
	}
}

// A hostname is resolved once before the burst; every request still reaches
// the server, falling through addresses that refuse (e.g. ::1 first).
func TestRunResolvesHostnameOnce(t *testing.T) {
	srv, conns := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Host, "localhost:") {
			t.Errorf("Host header %q, want the name, not the address", r.Host)
		}
	})
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	res, err := Run(context.Background(), Plan{URL: "http://localhost:" + port, Requests: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := Summarize(res); s.OK != 5 || conns.Load() != 5 {
		t.Fatalf("summary %+v, %d connections", s, conns.Load())
	}
}
