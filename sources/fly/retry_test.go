package fly

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// scriptedServer answers with statuses[i] for the i-th request (the last one
// repeats) and records the request URIs.
type scriptedServer struct {
	statuses   []int
	retryAfter string
	okBody     string
	n          atomic.Int64
	mu         sync.Mutex
	uris       []string
}

func (s *scriptedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(s.n.Add(1)) - 1
	s.mu.Lock()
	s.uris = append(s.uris, r.URL.RequestURI())
	s.mu.Unlock()
	status := s.statuses[min(i, len(s.statuses)-1)]
	if status >= 300 {
		if s.retryAfter != "" {
			w.Header().Set("Retry-After", s.retryAfter)
		}
		writeJSON(w, status, `{"error":"`+http.StatusText(status)+`"}`)
		return
	}
	writeJSON(w, status, s.okBody)
}

func TestRetryOn429And408(t *testing.T) {
	tests := []struct {
		name          string
		statuses      []int
		retryAfter    string
		wantErr       error // nil = success
		wantSleeps    []time.Duration
		wantAttempts  int
		wantThrottled int
	}{
		{"429 with Retry-After twice, then ok", []int{429, 429, 200}, "2", nil,
			[]time.Duration{2 * time.Second, 2 * time.Second}, 3, 2},
		{"429 without Retry-After backs off exponentially, gives up", []int{429}, "", ErrRateLimited{},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, 4, 4},
		{"Retry-After beyond the deadline is answered at once", []int{429, 200}, "3600", ErrRateLimited{},
			nil, 1, 1},
		{"408 is retried", []int{408, 200}, "", nil,
			[]time.Duration{time.Second}, 2, 0},
		{"500 is not retried here", []int{500, 200}, "", ErrAPIDown{},
			nil, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &scriptedServer{statuses: tt.statuses, retryAfter: tt.retryAfter, okBody: `{"id":"m1"}`}
			c, clk := newTestClient(t, newLocalServer(t, srv).URL, "")
			_, err := c.GetMachine(context.Background(), "app1", "m1")
			if tt.wantErr == nil && err != nil {
				t.Fatalf("GetMachine: %v", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("GetMachine = %v, want %T", err, tt.wantErr)
			}
			if got := clk.sleeps(); !equalDurations(got, tt.wantSleeps) {
				t.Errorf("sleeps = %v, want %v", got, tt.wantSleeps)
			}
			st := c.Stats()
			if int(srv.n.Load()) != tt.wantAttempts || st.CallsLastMinute != tt.wantAttempts {
				t.Errorf("server saw %d, CallsLastMinute %d, want %d attempts", srv.n.Load(), st.CallsLastMinute, tt.wantAttempts)
			}
			if st.Throttled != tt.wantThrottled {
				t.Errorf("Throttled = %d, want %d", st.Throttled, tt.wantThrottled)
			}
			if len(tt.wantSleeps) > 0 && st.BackoffUntil.IsZero() {
				t.Error("BackoffUntil not set after a backoff")
			}
		})
	}
}

// Retry-After is honoured up to MaxRetryAfter (60 s) when the caller's
// deadline leaves room; beyond the deadline the 429 is answered at once with
// the wait it asked for, so the caller's own retry can honour it.
func TestRetryAfterHonouredUpToTheCap(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		deadline   time.Duration
		wantSleeps []time.Duration
		wantErr    bool
		wantAsked  time.Duration
	}{
		{"30 s within a 2 min deadline", "30", 2 * time.Minute, []time.Duration{30 * time.Second}, false, 0},
		{"3600 s is capped to 60 s", "3600", 2 * time.Minute, []time.Duration{MaxRetryAfter}, false, 0},
		{"30 s past a 20 s deadline", "30", 20 * time.Second, nil, true, 30 * time.Second},
		{"an HTTP date 45 s ahead", "Fri, 01 May 2026 12:00:45 GMT", 20 * time.Second, nil, true, 45 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &scriptedServer{statuses: []int{429, 200}, retryAfter: tt.retryAfter, okBody: `{"id":"m1"}`}
			c, clk := newTestClient(t, newLocalServer(t, srv).URL, "")
			ctx, cancel := context.WithTimeout(context.Background(), tt.deadline)
			defer cancel()
			_, err := c.GetMachine(ctx, "app1", "m1")
			if got := clk.sleeps(); !equalDurations(got, tt.wantSleeps) {
				t.Errorf("sleeps = %v, want %v", got, tt.wantSleeps)
			}
			if !tt.wantErr {
				if err != nil {
					t.Fatalf("GetMachine: %v", err)
				}
				return
			}
			var rl ErrRateLimited
			if !errors.As(err, &rl) || rl.RetryAfter != tt.wantAsked {
				t.Fatalf("GetMachine = %#v, want ErrRateLimited asking %s", err, tt.wantAsked)
			}
			if !strings.Contains(err.Error(), "asked to wait "+tt.wantAsked.String()) {
				t.Errorf("error %q does not say how long", err)
			}
			if until := c.Stats().BackoffUntil; until.Sub(clk.Now()) != tt.wantAsked {
				t.Errorf("BackoffUntil is %s ahead, want %s", until.Sub(clk.Now()), tt.wantAsked)
			}
			if srv.n.Load() != 1 {
				t.Errorf("%d attempts, want 1: waiting past the deadline is pointless", srv.n.Load())
			}
		})
	}
}

func TestWait408IsATimeoutNotARetry(t *testing.T) {
	srv := &scriptedServer{statuses: []int{408}}
	c, clk := newTestClient(t, newLocalServer(t, srv).URL, "")
	err := c.Wait(context.Background(), "app1", "m1", "01INST", 5*time.Second, "started", "suspended")
	var wt ErrWaitTimeout
	if !errors.As(err, &wt) || wt.ID != "m1" || wt.Timeout != 5*time.Second {
		t.Fatalf("Wait on 408 = %#v, want ErrWaitTimeout for m1 after 5s", err)
	}
	if srv.n.Load() != 1 || len(clk.sleeps()) != 0 {
		t.Errorf("wait 408 made %d attempts and %d sleeps, want 1 and 0", srv.n.Load(), len(clk.sleeps()))
	}
	uri := srv.uris[0]
	for _, want := range []string{"/v1/apps/app1/machines/m1/wait?", "state=started", "state=suspended", "timeout=5", "version=01INST"} {
		if !strings.Contains(uri, want) {
			t.Errorf("wait request %q lacks %q", uri, want)
		}
	}
	if st := c.Stats(); st.LastError != "" || st.LastOK.IsZero() || st.CallsLastMinute != 1 {
		t.Errorf("Stats after wait 408 = %+v, want an OK answer, not an error", st)
	}
}

func TestFlyGoRetriesOf503AreCounted(t *testing.T) {
	srv := &scriptedServer{statuses: []int{503, 200}, okBody: `{"id":"m1"}`}
	c, _ := newTestClient(t, newLocalServer(t, srv).URL, "")
	stop := make(chan struct{})
	go func() { // Stats must be safe while requests run (go test -race)
		for {
			select {
			case <-stop:
				return
			default:
				_ = c.Stats()
			}
		}
	}()
	_, err := c.GetMachine(context.Background(), "app1", "m1")
	close(stop)
	if err != nil {
		t.Fatalf("GetMachine after one 503: %v", err)
	}
	st := c.Stats()
	if st.CallsLastMinute != 2 || st.MachinesLastMinute != 2 || st.LastOK.IsZero() || st.LastError != "" {
		t.Errorf("Stats = %+v, want 2 Machines API calls (fly-go's retry counted), LastOK set, the 503 cleared by the success after it", st)
	}
}

// The last error has its time and stays until the same call succeeds;
// another call's success leaves it; expected refusals (409, 412) are not
// errors; calls are counted per API.
func TestLastErrorAgeAndClearing(t *testing.T) {
	var r recorder
	t0 := time.Unix(5000, 0)
	list, wait := callKey("GET", "/v1/apps/a/machines"), callKey("GET", "/v1/apps/a/machines/m/wait")
	r.attempt(t0, machinesAPI)
	r.answered(t0, list, 503, "GET /v1/apps/a/machines: 503 Service Unavailable")
	r.attempt(t0, platformAPI)
	r.answered(t0.Add(time.Second), callKey("GET", "/api/v1/apps/a/logs"), 200, "GET /logs: 200 OK")
	r.answered(t0.Add(time.Second), wait, 200, "GET …/wait: 200 OK")
	st := r.snapshot(t0.Add(2 * time.Second))
	if !strings.Contains(st.LastError, "503") || !st.LastErrorAt.Equal(t0) {
		t.Fatalf("after a 503 and other calls' 200s: %q at %v", st.LastError, st.LastErrorAt)
	}
	if st.CallsLastMinute != 2 || st.MachinesLastMinute != 1 {
		t.Fatalf("calls %d, Machines API %d; want 2 and 1", st.CallsLastMinute, st.MachinesLastMinute)
	}
	r.answered(t0.Add(3*time.Second), callKey("POST", "/v1/apps/a/machines/m/suspend"), 412, "POST /v1/apps/a/machines/m/suspend: 412 Precondition Failed")
	r.answered(t0.Add(3*time.Second), callKey("POST", "/v1/apps/a/machines/m/lease"), 409, "POST /v1/apps/a/machines/m/lease: 409 Conflict")
	if st := r.snapshot(t0.Add(4 * time.Second)); !strings.Contains(st.LastError, "503") {
		t.Fatalf("an expected refusal replaced the last error: %q", st.LastError)
	}
	r.answered(t0.Add(5*time.Second), list, 200, "GET /v1/apps/a/machines: 200 OK")
	if st := r.snapshot(t0.Add(6 * time.Second)); st.LastError != "" || !st.LastErrorAt.IsZero() {
		t.Fatalf("a success did not clear the last error: %q", st.LastError)
	}
	r.answered(t0.Add(7*time.Second), callKey("POST", "/v1/apps/a/machines/m/suspend"), 412, "POST …/suspend: 412 Precondition Failed")
	if st := r.snapshot(t0.Add(8 * time.Second)); st.LastError != "" {
		t.Fatalf("a 412 became the last error: %q", st.LastError)
	}
}

func TestCallsLastMinuteSlides(t *testing.T) {
	var r recorder
	t0 := time.Unix(5000, 0)
	for _, off := range []time.Duration{0, 10 * time.Second, 59 * time.Second, 70 * time.Second} {
		r.attempt(t0.Add(off), machinesAPI)
	}
	tests := []struct {
		at   time.Duration
		want int
	}{{70 * time.Second, 2}, {119 * time.Second, 1}, {130 * time.Second, 0}}
	for _, tt := range tests {
		if got := r.snapshot(t0.Add(tt.at)).CallsLastMinute; got != tt.want {
			t.Errorf("at +%s: CallsLastMinute = %d, want %d", tt.at, got, tt.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"", 0, false},
		{"Fri, 01 May 2026 12:00:05 GMT", 5 * time.Second, true},
		{"Fri, 01 May 2026 11:00:00 GMT", 0, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseRetryAfter(%q) = %s %v, want %s %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The last error names the app its call was about, from the path; a call
// about no app (GraphQL, metrics) names none.
func TestLastErrorNamesItsApp(t *testing.T) {
	t0 := time.Unix(5000, 0)
	for _, c := range []struct{ method, path, app string }{
		{"GET", "/v1/apps/nope/machines", "nope"},
		{"POST", "/v1/apps/a/machines/m/stop", "a"},
		{"GET", "/api/v1/apps/sleepy-api/logs", "sleepy-api"},
		{"POST", "/graphql", ""},
		{"GET", "/prometheus/personal/api/v1/query", ""},
	} {
		var r recorder
		r.answered(t0, callKey(c.method, c.path), 503, c.method+" "+c.path+": 503")
		if got := r.snapshot(t0).LastErrorApp; got != c.app {
			t.Errorf("%s %s: last error's app %q, want %q", c.method, c.path, got, c.app)
		}
	}
}
