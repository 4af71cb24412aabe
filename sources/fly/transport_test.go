package fly

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// recordingServer answers machine lists, events and logs, tagging each answer
// with its name so a test can tell which server was reached.
type recordingServer struct {
	name string
	mu   sync.Mutex
	auth []string
	uas  []string
	urls []string
}

func (rs *recordingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rs.mu.Lock()
	rs.auth = append(rs.auth, r.Header.Get("Authorization"))
	rs.uas = append(rs.uas, r.Header.Get("User-Agent"))
	rs.urls = append(rs.urls, r.URL.RequestURI())
	rs.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, "/machines/m1"):
		writeJSON(w, 200, `{"id":"m1","state":"started","region":"`+rs.name+`"}`)
	case strings.HasSuffix(r.URL.Path, "/machines"):
		writeJSON(w, 200, `[{"id":"`+rs.name+`","state":"started"}]`)
	case strings.HasSuffix(r.URL.Path, "/logs"):
		writeJSON(w, 200, `{"data":[{"id":"1","attributes":{"message":"`+rs.name+`"}}],"meta":{"next_token":"1"}}`)
	default:
		writeJSON(w, 404, `{"error":"not found"}`)
	}
}

func (rs *recordingServer) seen() (auth, uas, urls []string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.auth...), append([]string(nil), rs.uas...), append([]string(nil), rs.urls...)
}

func TestTwoClientsReachTheirOwnServers(t *testing.T) {
	// fly-go reads these process-global settings; they must not matter.
	t.Setenv("FLY_FLAPS_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("FLY_API_BASE_URL", "http://127.0.0.1:1")
	ctx := context.Background()
	servers := map[string]*recordingServer{"alpha": {name: "alpha"}, "beta": {name: "beta"}}
	clients := map[string]*Client{}
	for name, rs := range servers {
		srv := newLocalServer(t, rs)
		c, err := New(ctx, Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "tok-" + name, UserAgent: "flywake-test"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		clients[name] = c
	}
	for name, c := range clients {
		ms, err := c.ListMachines(ctx, "app1")
		if err != nil || len(ms) != 1 || ms[0].ID != name {
			t.Fatalf("%s: ListMachines = %v, %v; want the machine named after its own server", name, ms, err)
		}
		m, err := c.GetMachine(ctx, "app1", "m1")
		if err != nil || m.Region != name {
			t.Fatalf("%s: GetMachine = %v, %v", name, m, err)
		}
		logs, _, err := c.Logs(ctx, "app1", "", "", "")
		if err != nil || len(logs) != 1 || logs[0].Message != name {
			t.Fatalf("%s: Logs = %v, %v", name, logs, err)
		}
	}
	for name, rs := range servers {
		auth, uas, urls := rs.seen()
		if len(urls) != 3 {
			t.Errorf("%s saw %d requests, want 3: %v", name, len(urls), urls)
		}
		for i := range auth {
			if auth[i] != "Bearer tok-"+name {
				t.Errorf("%s request %s: Authorization %q, want its own client's token", name, urls[i], auth[i])
			}
			if uas[i] != "flywake-test" {
				t.Errorf("%s request %s: User-Agent %q", name, urls[i], uas[i])
			}
		}
	}
}

func TestAuthorizationHeaderByTokenKind(t *testing.T) {
	tests := []struct {
		name, token, want string
	}{
		{"no token sends no header", "", ""},
		{"user token is Bearer", "fo1_usertoken", "Bearer fo1_usertoken"},
		{"macaroon is FlyV1", "FlyV1 fm2_macaroon1,fm2_macaroon2", "FlyV1 fm2_macaroon1,fm2_macaroon2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := &recordingServer{name: "x"}
			srv := newLocalServer(t, rs)
			c, _ := newTestClient(t, srv.URL, tt.token)
			if _, err := c.ListMachines(context.Background(), "app1"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.Logs(context.Background(), "app1", "", "", ""); err != nil {
				t.Fatal(err)
			}
			auth, _, _ := rs.seen()
			for i, got := range auth {
				if got != tt.want {
					t.Errorf("request %d: Authorization %q, want %q", i, got, tt.want)
				}
			}
		})
	}
}

func TestRebase(t *testing.T) {
	tests := []struct {
		in, base, want string
	}{
		{"https://api.machines.dev/v1/apps/a/machines?x=1", "http://127.0.0.1:4280", "http://127.0.0.1:4280/v1/apps/a/machines?x=1"},
		{"/api/v1/apps/a/logs?next_token=", "http://127.0.0.1:9", "http://127.0.0.1:9/api/v1/apps/a/logs?next_token="},
		{"https://api.fly.io/prometheus/o/api/v1/query", "https://proxy.example/fly", "https://proxy.example/fly/prometheus/o/api/v1/query"},
		{"https://proxy.example/fly/v1/apps", "https://proxy.example/fly/", "https://proxy.example/fly/v1/apps"},
	}
	for _, tt := range tests {
		in, _ := url.Parse(tt.in)
		base, _ := url.Parse(tt.base)
		if got := rebase(in, base).String(); got != tt.want {
			t.Errorf("rebase(%q, %q) = %q, want %q", tt.in, tt.base, got, tt.want)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	env := map[string]string{"FLY_FLAPS_BASE_URL": "http://127.0.0.1:4280"}
	got := Config{}.withDefaults(func(k string) string { return env[k] })
	if got.FlapsURL != "http://127.0.0.1:4280" || got.APIURL != DefaultAPIURL || got.UserAgent != "flywake" {
		t.Errorf("defaults = %+v", got)
	}
	if _, err := New(context.Background(), Config{FlapsURL: "127.0.0.1:4280"}); err == nil {
		t.Error("a base URL without scheme must be refused")
	}
}

// An error answer is read up to maxErrorBody and the rest left unread: a
// 50 MB error page costs the client 64 KB, not 50 MB (the server manages to
// write only what the connection's buffers take before it is closed).
func TestErrorBodyIsNotReadWhole(t *testing.T) {
	const size = 50 << 20
	var written atomic.Int64
	srv := newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		chunk := []byte(strings.Repeat("x", 64<<10))
		for written.Load() < size {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	c, _ := newTestClient(t, srv.URL, "tok-abcdefgh")
	_, err := c.ListMachines(context.Background(), "app1")
	if err == nil || len(err.Error()) > 1024 {
		t.Fatalf("err = %.200v (%d bytes)", err, len(fmt.Sprint(err)))
	}
	if n := written.Load(); n >= size/2 {
		t.Errorf("the server wrote %d MB of its 50 MB page: the client read it", n>>20)
	}
}
