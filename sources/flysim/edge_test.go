package flysim

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/race"
)

// startSim starts a quiet platform (no background load, no history) for
// edge tests.
func startSim(t *testing.T, opts Options) *Sim {
	t.Helper()
	opts.NoTraffic = true
	if opts.History == 0 {
		opts.History = -1
	}
	s := New(opts)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

type edgeResult struct {
	status  int
	machine string
	took    time.Duration // platform time
	err     error
}

// fireBurst fires n concurrent GETs at url after warming n keep-alive
// connections with requests forced onto warmID (so the burst itself arrives
// at once, as hey's would).
func fireBurst(t *testing.T, s *Sim, url, warmID string, n int) []edgeResult {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}}
	t.Cleanup(client.CloseIdleConnections)
	do := func(req *http.Request) edgeResult {
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return edgeResult{err: err}
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return edgeResult{status: resp.StatusCode, machine: resp.Header.Get(MachineIDHeader),
			took: s.clock.PlatformDuration(time.Since(start))}
	}
	run := func(warm bool) []edgeResult {
		out := make([]edgeResult, n)
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i := range out {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
				if warm {
					req.Header.Set(ForceInstanceHeader, warmID)
				}
				<-gate
				out[i] = do(req)
			}()
		}
		close(gate)
		wg.Wait()
		return out
	}
	run(true)
	return run(false)
}

func startedMachine(s *Sim, app string) *machines.Machine {
	s.sched.Lock()
	defer s.sched.Unlock()
	for _, m := range s.store.App(app).Machines() {
		if m.State() == "started" && m.Serving() {
			return m
		}
	}
	return nil
}

// waitMachine waits (10 s of wall time at most) until m is in state.
func waitMachine(t *testing.T, s *Sim, m *machines.Machine, state string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		s.sched.Lock()
		now, changed := m.State(), m.Changed()
		s.sched.Unlock()
		if now == state {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("machine %s is %s, never %s", m.ID(), now, state)
		}
	}
}

func countLines(s *Sim, app, provider, contains string) int {
	s.sched.Lock()
	defer s.sched.Unlock()
	n := 0
	for _, ln := range s.logs.Lines(app) {
		if ln.Provider == provider && strings.Contains(ln.Message, contains) {
			n++
		}
	}
	return n
}

func TestEdgeHeadersAndAnswers(t *testing.T) {
	t.Parallel()
	s := startSim(t, Options{Speed: 50})
	url := s.EdgeURL(DemoScaleToZero)
	if url == "" || len(s.Edges()) != 4 {
		t.Fatalf("edges: %v", s.Edges())
	}
	up := startedMachine(s, DemoScaleToZero)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	reqID := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}-ams$`)
	tests := []struct {
		path   string
		status int
	}{
		{"/", 200}, {"/api/health/", 200}, {"/api/v1/notifications/unread_count/", 200},
		{"/.env", 301}, {"/.env.production", 301}, {"/wp-config.php~", 301}, {"/actuator/configprops", 301},
		{"/nope", 404},
	}
	for _, tt := range tests {
		resp, err := client.Get(url + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != tt.status || h.Get(MachineIDHeader) != up.ID() {
			t.Errorf("%s: %d from %q, want %d from %s", tt.path, resp.StatusCode, h.Get(MachineIDHeader), tt.status, up.ID())
		}
		if !reqID.MatchString(h.Get("fly-request-id")) || !strings.HasPrefix(h.Get("server"), "Fly/") || h.Get("via") != "1.1 fly.io" {
			t.Errorf("%s: headers %v", tt.path, h)
		}
	}
	if got := s.metrics.EdgeTotals(DemoScaleToZero)[301]; got != 4 {
		t.Errorf("edge 301s = %v, want 4", got)
	}
	if got := s.metrics.AppTotals(DemoScaleToZero)[up.ID()][200]; got != 3 {
		t.Errorf("app 200s on %s = %v, want 3", up.ID(), got)
	}
}

// burstPatience is below the scale-to-zero app's fastest cold boot.
const burstPatience = 20 * time.Second

// TestEdgeWakeScaleToZero: 40 concurrent requests to the scale-to-zero app
// wake machines, and a request held for a machine that boots past the proxy's
// patience fails with 502 at the patience. Which request wakes which machine
// depends on how the burst lands (real HTTP on a shared machine), so the test
// sets the patience below the app's fastest possible cold boot: every held
// request must then fail at the patience, whatever machine it woke.
// TestScaleToZeroBootStraddlesPatience holds the demo's own figures.
func TestEdgeWakeScaleToZero(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		t.Skip("simulated boot and patience timings: meaningless at the race detector's slowdown")
	}
	const patience = burstPatience
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			s := startSim(t, Options{Speed: 10, Seed: seed, ProxyPatience: patience})
			res := fireBurst(t, s, s.EdgeURL(DemoScaleToZero)+"/api/v1/notifications/", startedMachine(s, DemoScaleToZero).ID(), 40)
			n502, n200 := 0, 0
			for _, r := range res {
				switch {
				case r.err != nil:
					t.Errorf("%v", r.err)
				case r.status == 502:
					n502++
					if r.took < patience-time.Second {
						t.Errorf("502 after %s, before the proxy's patience of %s", r.took, patience)
					}
				case r.status == 200:
					n200++
				default:
					t.Errorf("status %d", r.status)
				}
			}
			woken := countLines(s, DemoScaleToZero, "proxy", "Starting machine")
			if woken == 0 {
				t.Errorf("40 concurrent requests woke no machine")
			}
			if n502 == 0 {
				t.Errorf("woke %d machines that boot past the patience, but no request failed", woken)
			}
			if pm03 := countLines(s, DemoScaleToZero, "proxy", "[PM03]"); pm03 != n502 {
				t.Errorf("%d PM03 lines for %d 502s", pm03, n502)
			}
			t.Logf("woke %d machines: %d×200, %d×502", woken, n200, n502)
		})
	}
}

// TestScaleToZeroBootStraddlesPatience: the demo's scale-to-zero cold boot
// (runner, init, the app's phases, first health check) spans the default
// proxy patience, so some wakes at the edge fail and some get through, as
// the 25–33 s boots against Fly's proxy did.
func TestScaleToZeroBootStraddlesPatience(t *testing.T) {
	var p *profile.App
	for _, a := range profile.DemoApps() {
		if a.Name == DemoScaleToZero {
			p = &a
		}
	}
	if p == nil {
		t.Fatalf("no demo app %s", DemoScaleToZero)
	}
	lo := p.PlatformBoot.Min + p.InitTook.Min + p.FirstHealth.Min
	hi := p.PlatformBoot.Max + p.InitTook.Max + p.FirstHealth.Max
	for _, ph := range p.Phases {
		lo, hi = lo+ph.Took.Min, hi+ph.Took.Max
	}
	var o Options
	o.defaults()
	if !(lo < o.ProxyPatience && o.ProxyPatience < hi) {
		t.Errorf("cold boot %s–%s does not straddle the proxy's patience of %s", lo, hi, o.ProxyPatience)
	}
	if lo <= burstPatience {
		t.Errorf("cold boot can be as fast as %s: TestEdgeWakeScaleToZero's patience of %s no longer fails every wake", lo, burstPatience)
	}
}

// TestEdgeWakeTuned: the same burst against the suspend app all returns 200,
// the slowest within ~2.5 s (measured on Fly: 40×200, slowest 2.1 s).
func TestEdgeWakeTuned(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		t.Skip("simulated boot and patience timings: meaningless at the race detector's slowdown")
	}
	// At a slow clock the burst lands at once in platform time even when a
	// loaded machine spreads its 40 requests over tens of milliseconds;
	// at 20× such a spread let two awake machines serve it all, waking none.
	s := startSim(t, Options{Speed: 4})
	res := fireBurst(t, s, s.EdgeURL(DemoTuned)+"/api/v1/notifications/", startedMachine(s, DemoTuned).ID(), 40)
	var slowest time.Duration
	machines := map[string]bool{}
	for _, r := range res {
		if r.err != nil || r.status != 200 {
			t.Fatalf("got %d %v, want 200", r.status, r.err)
		}
		slowest = max(slowest, r.took)
		machines[r.machine] = true
	}
	resumed := countLines(s, DemoTuned, "runner", "Resuming machine from snapshot")
	t.Logf("40×200 from %d machines (%d resumed), slowest %s", len(machines), resumed, slowest.Round(10*time.Millisecond))
	if resumed == 0 || len(machines) < 2 {
		t.Errorf("the burst resumed %d machines, answered from %d", resumed, len(machines))
	}
	if slowest > 2500*time.Millisecond {
		t.Errorf("slowest %s, want ≤ 2.5 s", slowest)
	}
}

// TestEdgeForcedInstance: fly-force-instance-id to a sleeping machine fails
// with 502 after the proxy's patience and leaves it asleep; the proxy says
// "recently stopped" when it was.
func TestEdgeForcedInstance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		stopNow     bool
		wantMessage string
	}{
		{"long stopped", false, "could not find a good candidate"},
		{"recently stopped", true, "machine was recently stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startSim(t, Options{Speed: 50})
			want := "stopped"
			if tt.stopNow {
				want = "started" // stopped by the test a moment before the request
			}
			var target *machines.Machine
			s.sched.Lock()
			for _, m := range s.store.App(DemoScaleToZero).Machines() {
				if m.State() == want {
					target = m
					break
				}
			}
			if tt.stopNow {
				s.sched.Instant(func() { _ = s.store.Stop(target, SourceUser) })
			}
			s.sched.Unlock()
			waitMachine(t, s, target, "stopped")
			req, _ := http.NewRequest(http.MethodGet, s.EdgeURL(DemoScaleToZero)+"/", nil)
			req.Header.Set(ForceInstanceHeader, target.ID())
			start := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			took := s.clock.PlatformDuration(time.Since(start))
			s.sched.Lock()
			state := target.State()
			s.sched.Unlock()
			if resp.StatusCode != 502 || took < 29*time.Second || state != "stopped" {
				t.Errorf("got %d after %s, machine %s; want 502 after ~30 s, still stopped", resp.StatusCode, took, state)
			}
			if n := countLines(s, DemoScaleToZero, "proxy", tt.wantMessage); n != 1 {
				t.Errorf("%d proxy lines %q, want 1", n, tt.wantMessage)
			}
		})
	}
}

// TestAutostopToMinRunning: idle machines go back down to
// min_machines_running, one per pass, stopped or suspended per the service,
// and a machine that cannot suspend (swap) is stopped instead.
func TestAutostopToMinRunning(t *testing.T) {
	t.Parallel()
	swapSuspend := DemoApps()[0]
	swapSuspend.Name, swapSuspend.Autostop = "swap-suspend", "suspend"
	tuned := DemoApps()[1]
	tuned.MoreRegions = nil // one region here; region_test.go has two
	tests := []struct {
		app       AppProfile
		wantSleep string
		verb      string
	}{
		{DemoApps()[0], "stopped", "autostopping"},
		{tuned, "suspended", "autosuspending"},
		{swapSuspend, "stopped", "autostopping"},
	}
	for _, tt := range tests {
		t.Run(tt.app.Name, func(t *testing.T) {
			s := startSim(t, Options{Speed: 200, AutostopInterval: time.Minute, Apps: []AppProfile{tt.app}})
			a := s.store.App(tt.app.Name)
			s.sched.Lock()
			woken := 0
			for _, m := range a.Machines() {
				if m.State() != "started" && woken < 3 {
					if _, err := s.store.Start(m, SourceUser); err != nil {
						t.Fatal(err)
					}
					woken++
				}
			}
			s.sched.Unlock()
			running := func() (n, asleep int) {
				s.sched.Lock()
				defer s.sched.Unlock()
				for _, m := range a.Machines() {
					switch m.State() {
					case "started", "starting":
						n++
					case tt.wantSleep:
						asleep++
					}
				}
				return n, asleep
			}
			deadline := time.Now().Add(10 * time.Second)
			for n, _ := running(); n > tt.app.MinRunning && time.Now().Before(deadline); n, _ = running() {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(50 * time.Millisecond) // the last stop/suspend completes
			n, asleep := running()
			if n != tt.app.MinRunning || asleep != tt.app.Machines-tt.app.MinRunning {
				t.Fatalf("%d running, %d %s; want %d running", n, asleep, tt.wantSleep, tt.app.MinRunning)
			}
			lines := countLines(s, tt.app.Name, "proxy", "has excess capacity, "+tt.verb)
			if lines != 3 {
				t.Errorf("%d %q lines, want 3 (one per pass)", lines, tt.verb)
			}
			if countLines(s, tt.app.Name, "proxy", "1 out of 10 machines left running") == 0 && tt.app.Machines == 10 {
				t.Errorf("missing the last pass's '1 out of 10 machines left running'")
			}
			if tt.app.SwapMB > 0 && tt.app.Autostop == "suspend" {
				if n := countLines(s, tt.app.Name, "proxy", "Machines with swap cannot be suspended"); n != 3 {
					t.Errorf("%d suspend fallbacks logged, want 3", n)
				}
			}
			s.sched.Lock()
			defer s.sched.Unlock()
			proxyEvents := 0
			for _, m := range a.Machines() {
				for _, e := range m.Events() {
					if e.Source == SourceProxy && (e.Status == "stopping" || e.Status == "suspending") {
						proxyEvents++
					}
				}
			}
			if proxyEvents != 3 {
				t.Errorf("%d fly-proxy stop/suspend events, want 3", proxyEvents)
			}
		})
	}
}

// TestEdgeHardLimitQueue: over the hard limit requests queue, and a queue
// that waits longer than QueuePatience ends in 503.
func TestEdgeHardLimitQueue(t *testing.T) {
	t.Parallel()
	p := DemoApps()[1]
	p.Name, p.Machines, p.InitialAwake, p.Autostart = "queue-api", 1, 1, false
	p.MoreRegions = nil
	p.SoftLimit, p.HardLimit, p.ResponseTime = 1, 2, Span{Min: 20 * time.Second, Max: 20 * time.Second}
	// The queue's patience is a wall-clock wait (5 s of platform time at the
	// speed) and took is wall time × speed, so a loaded machine's delay is
	// multiplied by the speed: at 10 the 503 must come between its patience
	// and the 20 s a slot takes to free, a second of wall time apart (at 50,
	// 0.3 s: it once came at 21 s).
	s := startSim(t, Options{Speed: 10, QueuePatience: 5 * time.Second, Apps: []AppProfile{p}})
	inflight := func() int {
		s.sched.Lock()
		defer s.sched.Unlock()
		n, _ := s.px.Load(s.store.App(p.Name).Machines()[0])
		return n
	}
	res := make([]edgeResult, 3)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			resp, err := http.Get(s.EdgeURL(p.Name) + "/")
			if err != nil {
				res[i].err = err
				return
			}
			resp.Body.Close()
			res[i] = edgeResult{status: resp.StatusCode, took: s.clock.PlatformDuration(time.Since(start))}
		}()
		// In order: the next request goes once this one is on the machine.
		for deadline := time.Now().Add(5 * time.Second); i < 2 && inflight() < i+1 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	wg.Wait()
	got := []int{res[0].status, res[1].status, res[2].status}
	if got[0] != 200 || got[1] != 200 || got[2] != 503 {
		t.Fatalf("statuses %v, want [200 200 503]", got)
	}
	if res[2].took < 5*time.Second || res[2].took > 15*time.Second {
		t.Errorf("503 after %s, want after the 5 s queue patience", res[2].took)
	}
}
