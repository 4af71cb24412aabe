package fly

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRouteOf(t *testing.T) {
	tests := []struct {
		method, path string
		want         route
		wantLimit    limit
		wantPaced    bool
	}{
		{"POST", "/v1/apps/a/machines/m1/start", route{"POST start", "m1"}, actionLimit, true},
		{"POST", "/v1/apps/a/machines/m1/stop", route{"POST stop", "m1"}, actionLimit, true},
		{"GET", "/v1/apps/a/machines/m1/wait", route{"GET wait", "m1"}, actionLimit, true},
		{"GET", "/v1/apps/a/machines/m1/events", route{"GET events", "m1"}, actionLimit, true},
		{"GET", "/v1/apps/a/machines/m1", route{"GET machine", "m1"}, getMachineLimit, true},
		{"POST", "/v1/apps/a/machines/m1", route{"POST machine", "m1"}, actionLimit, true},
		{"GET", "/v1/apps/a/machines", route{"GET list", "a"}, listMachinesLimit, true},
		{"GET", "/v1/apps/a", route{"GET app", "a"}, actionLimit, true},
		{"GET", "/v1/apps", route{"GET apps", ""}, actionLimit, true},
		{"GET", "/api/v1/apps/a/logs", route{}, limit{}, false},
		{"GET", "/prometheus/o/api/v1/query", route{}, limit{}, false},
	}
	for _, tt := range tests {
		got, lim, paced := routeOf(tt.method, tt.path)
		if got != tt.want || lim != tt.wantLimit || paced != tt.wantPaced {
			t.Errorf("routeOf(%s %s) = %+v %+v %v, want %+v %+v %v", tt.method, tt.path, got, lim, paced, tt.want, tt.wantLimit, tt.wantPaced)
		}
	}
}

func TestBucketReservations(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tests := []struct {
		name  string
		lim   limit
		at    []time.Duration // offsets of successive reservations
		waits []time.Duration
	}{
		{"burst 3 then one per second", limit{1, 3}, []time.Duration{0, 0, 0, 0, 0},
			[]time.Duration{0, 0, 0, time.Second, 2 * time.Second}},
		{"refills over time", limit{1, 3}, []time.Duration{0, 0, 0, 2 * time.Second, 2 * time.Second, 2 * time.Second},
			[]time.Duration{0, 0, 0, 0, 0, time.Second}},
		{"burst 10 at 5/s", limit{5, 10}, []time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			[]time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bucket
			for i, off := range tt.at {
				if got := b.reserve(t0.Add(off), tt.lim); got != tt.waits[i] {
					t.Errorf("reservation %d at +%s: wait %s, want %s", i, off, got, tt.waits[i])
				}
			}
		})
	}
}

// The client's buckets stay under Fly's documented limits, with a margin.
func TestLimitsStayUnderFlys(t *testing.T) {
	tests := []struct {
		name     string
		lim      limit
		flyRate  float64
		flyBurst int
	}{
		{"action per machine", actionLimit, 1, 3},
		{"get machine", getMachineLimit, 5, 10},
		{"list machines per app", listMachinesLimit, 1, 3},
	}
	for _, tt := range tests {
		if tt.lim.PerSecond >= tt.flyRate || tt.lim.Burst >= tt.flyBurst || tt.lim.Burst < 1 || tt.lim.PerSecond <= 0 {
			t.Errorf("%s: %v/s burst %d, want under Fly's %v/s burst %d", tt.name, tt.lim.PerSecond, tt.lim.Burst, tt.flyRate, tt.flyBurst)
		}
	}
}

// countingServer answers every machine call with a plausible body.
func countingServer(t *testing.T, hits *atomic.Int64) string {
	return newLocalServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if serveLease(w, r) {
			return // not counted: hits are the machine calls themselves
		}
		hits.Add(1)
		switch {
		case strings.HasSuffix(r.URL.Path, "/start"):
			writeJSON(w, 200, `{"previous_state":"stopped"}`)
		case strings.HasSuffix(r.URL.Path, "/machines"):
			writeJSON(w, 200, `[]`)
		default:
			writeJSON(w, 200, `{"id":"m1","state":"started"}`)
		}
	})).URL
}

func TestBurstOfStartsIsPaced(t *testing.T) {
	var hits atomic.Int64
	c, clk := newTestClient(t, countingServer(t, &hits), "")
	ctx := context.Background()
	for i := range 10 {
		if _, err := c.Start(ctx, "app1", "m1"); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
	}
	// Past the burst, every start waits 1/rate: never faster than Fly's 1/s.
	want := seconds(float64(10-actionLimit.Burst) / actionLimit.PerSecond)
	if got := clk.totalSlept(); got < want-time.Millisecond || want < 8*time.Second {
		t.Errorf("10 starts on one machine waited %s for tokens, want %s (>= 8 s: burst ≤ 3, then ≤ 1/s)", got, want)
	}
	before := clk.totalSlept()
	for range actionLimit.Burst {
		if _, err := c.Start(ctx, "app1", "m2"); err != nil {
			t.Fatal(err)
		}
	}
	if got := clk.totalSlept() - before; got != 0 {
		t.Errorf("another machine's first %d starts waited %s, want 0 (buckets are per machine)", actionLimit.Burst, got)
	}
	if n := int64(10 + actionLimit.Burst); hits.Load() != n {
		t.Errorf("server saw %d requests, want %d", hits.Load(), n)
	}
	if got, n := c.Stats().CallsLastMinute, 4*(10+actionLimit.Burst); got != n { // lease look-up, take, start, release
		t.Errorf("CallsLastMinute = %d, want %d", got, n)
	}
}

func TestGetAndListLimits(t *testing.T) {
	var hits atomic.Int64
	c, clk := newTestClient(t, countingServer(t, &hits), "")
	ctx := context.Background()
	for range getMachineLimit.Burst {
		if _, err := c.GetMachine(ctx, "app1", "m1"); err != nil {
			t.Fatal(err)
		}
	}
	if got := clk.totalSlept(); got != 0 || getMachineLimit.Burst > 10 {
		t.Errorf("%d GETs of one machine waited %s, want 0 (burst ≤ 10)", getMachineLimit.Burst, got)
	}
	if _, err := c.GetMachine(ctx, "app1", "m1"); err != nil {
		t.Fatal(err)
	}
	if got, want := clk.totalSlept(), seconds(1/getMachineLimit.PerSecond); got != want || want < 200*time.Millisecond {
		t.Errorf("the GET past the burst waited %s, want %s (≥ 200ms: ≤ 5/s)", got, want)
	}
	before := clk.totalSlept()
	for range listMachinesLimit.Burst + 2 {
		if _, err := c.ListMachines(ctx, "app1"); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := clk.totalSlept()-before, seconds(2/listMachinesLimit.PerSecond); got != want || want < 2*time.Second {
		t.Errorf("2 lists past the burst waited %s, want %s (≥ 2 s: ≤ 1/s per app)", got, want)
	}
}

// Unpaced, the client sends past the burst at once (a platform without
// limits: flysim with its rate limits off); paced, the same calls wait.
func TestUnpacedSendsPastTheBurst(t *testing.T) {
	for _, unpaced := range []bool{false, true} {
		var hits atomic.Int64
		srvURL := countingServer(t, &hits)
		clk := newFakeClock()
		c, err := newClient(context.Background(), Config{FlapsURL: srvURL, APIURL: srvURL, Unpaced: unpaced},
			func(string) string { return "" }, clk)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		n := listMachinesLimit.Burst + 3
		for range n {
			if _, err := c.ListMachines(context.Background(), "app1"); err != nil {
				t.Fatal(err)
			}
		}
		slept := clk.totalSlept()
		if unpaced && slept != 0 {
			t.Errorf("unpaced: %d lists waited %s, want 0", n, slept)
		}
		if !unpaced && slept < 2*time.Second {
			t.Errorf("paced: %d lists waited %s, want the pacing past the burst", n, slept)
		}
		if hits.Load() != int64(n) {
			t.Errorf("unpaced %v: the server saw %d lists, want %d", unpaced, hits.Load(), n)
		}
	}
}

// blockingClock never lets time pass: a sleeper waits until its context ends.
type blockingClock struct{ *fakeClock }

func (b blockingClock) Sleep(ctx context.Context, d time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

func TestTokenWaitRespectsContext(t *testing.T) {
	var hits atomic.Int64
	srvURL := countingServer(t, &hits)
	c, err := newClient(context.Background(), Config{FlapsURL: srvURL, APIURL: srvURL},
		func(string) string { return "" }, blockingClock{newFakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	for range actionLimit.Burst {
		if _, err := c.Start(context.Background(), "app1", "m1"); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.Start(ctx, "app1", "m1")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Start cancelled while waiting for a token = %v, want context.Canceled", err)
	}
	if hits.Load() != int64(actionLimit.Burst) {
		t.Errorf("server saw %d requests, want %d: a cancelled wait must not send", hits.Load(), actionLimit.Burst)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	_, err = c.Start(ctx2, "app1", "m1")
	if !errors.Is(err, ErrAPIDown{}) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Start past its deadline = %v, want ErrAPIDown wrapping DeadlineExceeded", err)
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
