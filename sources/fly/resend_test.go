package fly

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Go's http.Transport resends a GET on a new connection when a reused one
// is reset before the answer. The server counts that call, so the client
// must pace it and count it too: every request the server saw is in Stats,
// and the bucket made the client wait once the burst was spent.
func TestTransportResendsArePacedAndCounted(t *testing.T) {
	var mu sync.Mutex
	perConn := map[string]int{}
	seen := 0
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		perConn[r.RemoteAddr]++
		reset := perConn[r.RemoteAddr] == 2 // the second request on every connection
		mu.Unlock()
		if reset {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close()
			return
		}
		writeJSON(w, http.StatusOK, `[]`)
	}))
	c, clk := newTestClient(t, srv.URL, "")
	for i := 0; i < 3; i++ {
		if _, err := c.ListMachines(context.Background(), "app1"); err != nil {
			t.Fatalf("list %d: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// 1 + (reset + resend) + (reset + resend) = 5 requests on the wire.
	if seen != 5 {
		t.Fatalf("server saw %d requests, want 5 (two resends)", seen)
	}
	if got := c.Stats().CallsLastMinute; got != seen {
		t.Errorf("Stats counts %d calls, the server saw %d", got, seen)
	}
	// Burst 3 at 1/s: the 4th and 5th wire attempts wait 1 s each.
	if got := clk.totalSlept(); got < 2*time.Second {
		t.Errorf("slept %s before the resends, want ≥ 2s: resends bypass the bucket", got)
	}
}
