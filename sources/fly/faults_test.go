package fly

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
)

// The client against a real flysim with each of its fault knobs: every
// fault ends as the typed error the dashboard expects (never a fatal one),
// within the caller's deadline, without the token in the text, and without
// ever tripping the platform's own rate limiter.

const faultToken = "flysim_CANARY_faults_0123456789abcdef"

func faultSim(t *testing.T) (*flysim.Sim, *Client) {
	t.Helper()
	sim := flysim.New(flysim.Options{Seed: 7, Speed: 20, Token: faultToken, NoTraffic: true})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	c, err := New(context.Background(), Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return sim, c
}

// assertWithinFlyLimits checks flysim's counters: no call was refused by the
// platform's rate limiter and no bucket saw more calls in one wall second
// than Fly's documented burst.
func assertWithinFlyLimits(t *testing.T, sim *flysim.Sim) {
	t.Helper()
	for key, st := range sim.APIStats() {
		action, _, _ := strings.Cut(key, ":")
		burst := 3
		switch action {
		case "get":
			burst = 10
		case "logs", "prom", "unknown":
			continue // no documented limit
		}
		if st.Limited > 0 || st.MaxPerSecond > burst {
			t.Errorf("%s: %d refused by the rate limiter, %d calls in one second (burst %d)", key, st.Limited, st.MaxPerSecond, burst)
		}
	}
}

func TestListUnderEachFault(t *testing.T) {
	cases := []struct {
		name      string
		fault     flysim.Fault
		wantErr   error // nil: a plain (non-fatal) error is enough
		wantCalls [2]int
		wantAfter string // substring of the error
	}{
		{"429 burst", flysim.Fault{Rate429: 1}, ErrRateLimited{}, [2]int{4, 4}, "429"},
		{"500", flysim.Fault{Rate5xx: 1, Status5xx: 500}, ErrAPIDown{}, [2]int{1, 1}, "HTTP 500"},
		{"502", flysim.Fault{Rate5xx: 1, Status5xx: 502}, ErrAPIDown{}, [2]int{4, 4}, "HTTP 502"},
		{"503", flysim.Fault{Rate5xx: 1, Status5xx: 503}, ErrAPIDown{}, [2]int{4, 4}, "HTTP 503"},
		{"malformed JSON", flysim.Fault{Malformed: true}, ErrBadAnswer{}, [2]int{1, 1}, `list machines of snappy-api: the API answered something that is not JSON: "{\"id\":"`},
		{"an HTML 200", flysim.Fault{Body: "<html><title>502 Bad Gateway</title></html>"}, ErrBadAnswer{}, [2]int{1, 1}, "not JSON: \"<html><title>502 Bad Gateway"},
		{"reset connection", flysim.Fault{Reset: true}, ErrAPIDown{}, [2]int{1, 8}, "not answering"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sim, client := faultSim(t)
			app := flysim.DemoTuned
			sim.SetFault("list", c.fault)
			start := time.Now()
			_, err := client.ListMachines(context.Background(), app)
			took := time.Since(start)
			if err == nil {
				t.Fatal("ListMachines succeeded under the fault")
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("error %T %v, want %T", err, err, c.wantErr)
			}
			if errors.Is(err, ErrBadToken{}) || errors.Is(err, ErrUnknownApp{}) {
				t.Errorf("a transient fault became a fatal error: %v", err)
			}
			if !strings.Contains(err.Error(), c.wantAfter) || strings.Contains(err.Error(), faultToken) {
				t.Errorf("error text %q: want %q and no token", err, c.wantAfter)
			}
			calls := sim.APICalls()["list:"+app]
			if calls < c.wantCalls[0] || calls > c.wantCalls[1] {
				t.Errorf("%d list calls reached flysim, want %d–%d", calls, c.wantCalls[0], c.wantCalls[1])
			}
			if took > defaultDeadline {
				t.Errorf("took %s, past the %s deadline", took, defaultDeadline)
			}
			// Every fault is the last error, a bad 200 included.
			if st := client.Stats(); st.LastError == "" || strings.Contains(st.LastError, faultToken) {
				t.Errorf("Stats.LastError %q: want the failure, redacted", st.LastError)
			}
			// The fault ends: the same client recovers at once.
			sim.ClearFaults()
			if ms, err := client.ListMachines(context.Background(), app); err != nil || len(ms) == 0 {
				t.Errorf("after the fault: %d machines, %v", len(ms), err)
			}
			assertWithinFlyLimits(t, sim)
			t.Logf("%s: %s in %s over %d calls", c.name, err, took.Round(time.Millisecond), calls)
		})
	}
}

// Latency within the deadline is waited out; past it, the call ends at the
// deadline as ErrAPIDown wrapping context.DeadlineExceeded.
func TestLatencyAgainstDeadlines(t *testing.T) {
	t.Parallel()
	sim, client := faultSim(t)
	sim.SetFault("list", flysim.Fault{Latency: 600 * time.Millisecond})
	if _, err := client.ListMachines(context.Background(), flysim.DemoTuned); err != nil {
		t.Fatalf("a slow answer inside the deadline failed: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := client.ListMachines(ctx, flysim.DemoTuned)
	if !errors.Is(err, ErrAPIDown{}) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("past the deadline: %v, want ErrAPIDown wrapping DeadlineExceeded", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the deadline of 300ms ended the call after %s", took)
	}
}

// An exec that outlives its timeout answers 408 once: it is not sent again
// (a rerun would hold the call as long again and end at the deadline).
func TestExecTimeoutIsNotRetried(t *testing.T) {
	t.Parallel()
	sim, client := faultSim(t)
	ms, err := client.ListMachines(context.Background(), flysim.DemoTuned)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, m := range ms {
		if m.State == "started" {
			id = m.ID
		}
	}
	if id == "" {
		t.Fatal("no started machine to exec on")
	}
	sim.SetFault("exec", flysim.Fault{ExecTimeout: true})
	start := time.Now()
	_, err = client.Exec(context.Background(), flysim.DemoTuned, id, "cat /proc/meminfo", time.Second)
	took := time.Since(start)
	if !errors.Is(err, ErrRejected{}) || errors.Is(err, ErrAPIDown{}) || !strings.Contains(err.Error(), "timed out on the machine") {
		t.Errorf("exec timeout = %v, want a rejection saying the command timed out (not an API outage)", err)
	}
	if n := sim.APICalls()["exec:"+id]; n != 1 {
		t.Errorf("%d exec calls, want 1", n)
	}
	if took > 3*time.Second {
		t.Errorf("a 1 s exec timeout took %s", took)
	}
	assertWithinFlyLimits(t, sim)
}

// The platform goes away and comes back on the same address: refused
// calls are ErrAPIDown, and the same client works again after Resume.
func TestPlatformPauseAndResume(t *testing.T) {
	t.Parallel()
	sim, client := faultSim(t)
	if _, err := client.ListMachines(context.Background(), flysim.DemoTuned); err != nil {
		t.Fatal(err)
	}
	if err := sim.Pause(); err != nil {
		t.Fatal(err)
	}
	_, err := client.ListMachines(context.Background(), flysim.DemoTuned)
	if !errors.Is(err, ErrAPIDown{}) || strings.Contains(err.Error(), faultToken) {
		t.Errorf("paused platform: %v, want ErrAPIDown", err)
	}
	if err := sim.Resume(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ListMachines(context.Background(), flysim.DemoTuned); err != nil {
		t.Errorf("after Resume: %v", err)
	}
	assertWithinFlyLimits(t, sim)
}

// A 50 MB error page (HTML, or JSON whose message is 50 MB) is quoted,
// never copied: the error, the header's last error and the debug log each
// hold a few hundred bytes of it, on every API the client calls.
func TestHugeErrorBodyIsQuoted(t *testing.T) {
	t.Parallel()
	const size = 50 << 20
	bodies := map[string]flysim.Fault{
		"an HTML page":             {Body: "<html>" + strings.Repeat("x", size) + "</html>", Status: 500},
		"a JSON message":           {Body: `{"error":"` + strings.Repeat("y", size) + `"}`, Status: 500, ContentType: "application/json"},
		"a 400 with a message":     {Body: `{"message":"` + strings.Repeat("z", size) + `"}`, Status: 400, ContentType: "application/json"},
		"a 502 the client retries": {Body: strings.Repeat("w", size), Status: 502},
	}
	for name, fault := range bodies {
		t.Run(name, func(t *testing.T) {
			sim, _ := faultSim(t)
			var log strings.Builder
			c, err := New(context.Background(), Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token(), Debug: NewDebugLog(&log)})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			calls := map[string]func() error{
				"list": func() error { _, err := c.ListMachines(ctx, flysim.DemoTuned); return err },
				"logs": func() error { _, _, err := c.Logs(ctx, flysim.DemoTuned, "", "", ""); return err },
				"prom": func() error { _, err := c.PromQuery(ctx, sim.Org(), "up", time.Time{}); return err },
			}
			for endpoint, call := range calls {
				sim.ClearFaults()
				sim.SetFault(endpoint, fault)
				err := call()
				if err == nil {
					t.Fatalf("%s: no error from a %d", endpoint, fault.Status)
				}
				if n := len(err.Error()); n > 1024 {
					t.Errorf("%s: the error is %d bytes: %.120s…", endpoint, n, err)
				}
				if last := c.Stats().LastError; len(last) > 1024 {
					t.Errorf("%s: the last error is %d bytes", endpoint, len(last))
				}
			}
			if n := log.Len(); n > 16<<10 {
				t.Errorf("the debug log holds %d bytes after %d calls", n, len(calls))
			}
		})
	}
}
