package fly

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock advances only when something sleeps, and remembers every sleep.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slept = append(f.slept, d)
	f.now = f.now.Add(d)
	return nil
}

func (f *fakeClock) totalSlept() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	var sum time.Duration
	for _, d := range f.slept {
		sum += d
	}
	return sum
}

func (f *fakeClock) sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.slept...)
}

// newLocalServer serves h on 127.0.0.1 only.
func newLocalServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// newTestClient points both APIs at baseURL, with a fake clock and an
// environment that is empty (so nothing leaks in from the test runner).
func newTestClient(t *testing.T, baseURL, token string) (*Client, *fakeClock) {
	t.Helper()
	clk := newFakeClock()
	c, err := newClient(context.Background(), Config{FlapsURL: baseURL, APIURL: baseURL, Token: token},
		func(string) string { return "" }, clk)
	if err != nil {
		t.Fatalf("newClient: %v", err)
	}
	t.Cleanup(c.Close)
	return c, clk
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// serveLease answers the lease calls every start, stop and suspend makes
// (none held, then granted and released) and reports whether r was one.
func serveLease(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasSuffix(r.URL.Path, "/lease") {
		return false
	}
	switch r.Method {
	case http.MethodGet:
		writeJSON(w, 404, `{"error":"lease not found"}`)
	case http.MethodPost:
		writeJSON(w, 201, `{"status":"success","data":{"nonce":"n0nce","expires_at":1900000000,"owner":"me@example.com","version":"v1"}}`)
	default:
		writeJSON(w, 200, `{"status":"success","data":{"ok":true}}`)
	}
	return true
}
