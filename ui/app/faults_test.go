package app

// The dashboard against a real flysim whose API misbehaves (429 bursts,
// 5xx, malformed JSON, reset connections, latency, exec timeouts, an
// outage): it keeps running in a real bubbletea program, shows the stale
// notice and the back-off while the fault lasts, keeps the last good data,
// never trips Fly's rate limits, and is fresh again within one refresh
// interval of the fault ending.

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

const faultCanary = "flysim_CANARY_5e3f_dashboard_faults_0123456789"

// faultFrame is what the root model held after one Update.
type faultFrame struct {
	wall      time.Time
	header    string // the header line as drawn, plain text
	failing   bool   // the last listing failed
	failDelay time.Duration
	fatal     error
	listedAt  time.Time // platform time of the last good listing
	ids       []string  // machine ids of the last good listing
	probeErrs []string  // probe errors held in the snapshot
	failErr   string    // the failing listing's error
	malformed int       // entries the last listing skipped
	view      string    // the screen, plain text, only while malformed > 0
}

// faultRecorder sees every frame, from inside the program's Update.
type faultRecorder struct {
	mu     sync.Mutex
	frames []faultFrame
	ticks  int // clock ticks handled
	panics []string
}

func (r *faultRecorder) see(m *Model, msg tea.Msg) {
	fail := m.sched.Failure()
	f := faultFrame{wall: time.Now(), failing: fail.Err != nil, failDelay: fail.Delay, fatal: m.fatal, listedAt: m.app.ListedAt,
		malformed: m.app.Malformed}
	if fail.Err != nil {
		f.failErr = fail.Err.Error()
	}
	if f.malformed > 0 && m.width > 0 {
		f.view = ansi.Strip(m.View())
	}
	if m.width > 0 {
		f.header = ansi.Strip(m.headerLine())
	}
	for _, mc := range m.app.Machines {
		f.ids = append(f.ids, mc.ID)
	}
	slices.Sort(f.ids)
	for _, p := range m.app.Meminfo {
		if p.Err != "" {
			f.probeErrs = append(f.probeErrs, p.Err)
		}
	}
	for _, p := range m.app.Sockets {
		if p.Err != "" {
			f.probeErrs = append(f.probeErrs, p.Err)
		}
	}
	for _, p := range m.app.Bytecode {
		if p.Err != "" {
			f.probeErrs = append(f.probeErrs, p.Err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := msg.(clockMsg); ok {
		r.ticks++
	}
	r.frames = append(r.frames, f)
}

func (r *faultRecorder) last() faultFrame {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.frames) == 0 {
		return faultFrame{}
	}
	return r.frames[len(r.frames)-1]
}

// since returns the frames recorded at or after wall time t.
func (r *faultRecorder) since(t time.Time) []faultFrame {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []faultFrame
	for _, f := range r.frames {
		if !f.wall.Before(t) {
			out = append(out, f)
		}
	}
	return out
}

func (r *faultRecorder) tickCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ticks
}

// waitFor polls the newest frame until ok holds, and returns it.
func (r *faultRecorder) waitFor(t *testing.T, within time.Duration, what string, ok func(f faultFrame) bool) faultFrame {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		f := r.last()
		if ok(f) {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; last header %q (failing %v, fatal %v)", within, what, f.header, f.failing, f.fatal)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitFirst waits until a frame recorded at or after wall time since
// satisfies ok, and returns the first such frame: one the newest-frame poll
// of waitFor could have missed on a loaded machine (a failure's frame
// already followed by the next one), and whose wall time is when it was
// drawn, not when the test looked.
func (r *faultRecorder) waitFirst(t *testing.T, within time.Duration, what string, since time.Time, ok func(f faultFrame) bool) faultFrame {
	t.Helper()
	deadline := time.Now().Add(within)
	seen := 0 // frames already looked at
	for {
		r.mu.Lock()
		frames := r.frames[seen:]
		r.mu.Unlock()
		for _, f := range frames {
			if !f.wall.Before(since) && ok(f) {
				return f
			}
		}
		seen += len(frames)
		if time.Now().After(deadline) {
			f := r.last()
			t.Fatalf("waited %s for %s; last header %q (failing %v, fatal %v)", within, what, f.header, f.failing, f.fatal)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// faultPatience is how long a fault test waits for a step that must come
// before it calls the dashboard stuck. It is no timing claim (those are
// asserted apart, outside -race): under the race detector on a loaded
// machine, a reset listing's retries and the event loop's redraws take
// many times as long as alone, and a tighter wait failed a dashboard that
// worked.
const faultPatience = time.Minute

// recorded wraps the root model so every Update is seen.
type recorded struct {
	Model
	rec *faultRecorder
}

func (o recorded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			o.rec.mu.Lock()
			o.rec.panics = append(o.rec.panics, ansi.Strip(strings.TrimSpace(strings.ReplaceAll(toString(p), "\n", " "))))
			o.rec.mu.Unlock()
			panic(p)
		}
	}()
	next, cmd := o.Model.Update(msg)
	o.Model = next.(Model)
	o.rec.see(&o.Model, msg)
	return o, cmd
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if e, ok := v.(error); ok {
		return e.Error()
	}
	return "panic"
}

// faultRig is one platform, one dashboard on it, in a real program.
type faultRig struct {
	sim  *flysim.Sim
	rec  *faultRecorder
	prog *tea.Program
	done chan error
	app  string
}

func startFaultRig(t *testing.T, speed float64) *faultRig {
	t.Helper()
	return startFaultRigWith(t, speed, nil)
}

// startFaultRigWith is startFaultRig with the model given to adjust
// before the program starts (a test's timer, say).
func startFaultRigWith(t *testing.T, speed float64, adjust func(*Model)) *faultRig {
	t.Helper()
	sim := flysim.New(flysim.Options{Seed: 11, Speed: speed, Token: faultCanary, NoTraffic: true})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	src := &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}
	rig := &faultRig{sim: sim, rec: &faultRecorder{}, done: make(chan error, 1), app: flysim.DemoScaleToZero}
	m := New(Config{Source: src, App: rig.app, Demo: true, Theme: theme.New(true)})
	if adjust != nil {
		adjust(&m)
	}
	rig.prog = tea.NewProgram(recorded{Model: m, rec: rig.rec},
		tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	go func() {
		_, err := rig.prog.Run()
		rig.done <- err
	}()
	rig.prog.Send(tea.WindowSizeMsg{Width: 160, Height: 40})
	t.Cleanup(func() { rig.stop(t) })
	return rig
}

// stop quits with q; the program must end cleanly (a panic in Update, View
// or a command ends it with ErrProgramPanic).
func (rig *faultRig) stop(t *testing.T) {
	t.Helper()
	if rig.prog == nil {
		return
	}
	rig.prog.Send(runes("q"))
	select {
	case err := <-rig.done:
		if err != nil {
			t.Errorf("the dashboard ended with %v", err)
		}
	case <-time.After(faultPatience): // q waits behind every reply queued for the event loop
		rig.prog.Kill()
		t.Errorf("the dashboard did not quit within %s of q", faultPatience)
	}
	rig.prog = nil
	rig.rec.mu.Lock()
	defer rig.rec.mu.Unlock()
	if len(rig.rec.panics) > 0 {
		t.Errorf("panics: %q", rig.rec.panics)
	}
}

func fresh(f faultFrame) bool {
	return !f.failing && !f.listedAt.IsZero() && len(f.ids) > 0 && strings.Contains(f.header, "updated") && !strings.Contains(f.header, "stale")
}

// checkFlyLimits asserts flysim's per-bucket counters stayed within Fly's
// documented bursts (3 per action per machine or app, 10 for get machine)
// and that the platform's own limiter never had to refuse a call.
func checkFlyLimits(t *testing.T, sim *flysim.Sim) map[string]int {
	t.Helper()
	peaks := map[string]int{}
	for key, st := range sim.APIStats() {
		action, _, _ := strings.Cut(key, ":")
		burst := 3
		switch action {
		case "get":
			burst = 10
		case "logs", "prom", "unknown":
			continue // no documented limit
		}
		peaks[action] = max(peaks[action], st.MaxPerSecond)
		if st.Limited > 0 || st.MaxPerSecond > burst {
			t.Errorf("%s: %d calls refused by Fly's limiter, %d in one second (burst %d)", key, st.Limited, st.MaxPerSecond, burst)
		}
	}
	return peaks
}

// checkFrames asserts what must hold at every moment of a run: never a
// fatal screen for a transient fault, never the token on screen.
func checkFrames(t *testing.T, frames []faultFrame) {
	t.Helper()
	for _, f := range frames {
		if f.fatal != nil {
			t.Fatalf("a transient fault became the fatal screen: %v", f.fatal)
		}
		if strings.Contains(f.header, faultCanary) {
			t.Fatalf("the token is on screen: %q", f.header)
		}
	}
}

func TestDashboardRidesOutListFaults(t *testing.T) {
	cases := []struct {
		name        string
		fault       flysim.Fault
		pause       bool // take the whole API off the network instead
		wantBackoff bool // the client's 429 back-off shows in the header
		doubling    bool // wait for a second failure (kept to the quick faults)
	}{
		{name: "429 burst", fault: flysim.Fault{Rate429: 1}, wantBackoff: true},
		{name: "500", fault: flysim.Fault{Rate5xx: 1, Status5xx: 500}, doubling: true},
		{name: "502", fault: flysim.Fault{Rate5xx: 1, Status5xx: 502}},
		{name: "503", fault: flysim.Fault{Rate5xx: 1, Status5xx: 503}},
		{name: "malformed JSON", fault: flysim.Fault{Malformed: true}},
		{name: "reset connections", fault: flysim.Fault{Reset: true}},
		{name: "flysim stopped and started again", pause: true, doubling: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rig := startFaultRig(t, 10)
			good := rig.rec.waitFor(t, faultPatience, "the first listing", fresh)

			faultAt := time.Now()
			if c.pause {
				if err := rig.sim.Pause(); err != nil {
					t.Fatal(err)
				}
			} else {
				rig.sim.SetFault("list", c.fault)
			}
			rig.prog.Send(runes("r"))
			first := rig.rec.waitFirst(t, faultPatience, "the stale notice", faultAt, func(f faultFrame) bool {
				return f.failing && strings.Contains(f.header, "stale · ") && strings.Contains(f.header, "retrying in")
			})
			// Retries double: the second failure waits twice as long.
			second := first
			if c.doubling {
				second = rig.rec.waitFirst(t, faultPatience, "a second, longer back-off", first.wall, func(f faultFrame) bool {
					return f.failing && f.failDelay > first.failDelay
				})
				if second.failDelay != 2*watch.RetryFirst {
					t.Errorf("second retry delay %s, want %s", second.failDelay, 2*watch.RetryFirst)
				}
			}
			if first.failDelay != watch.RetryFirst {
				t.Errorf("first retry delay %s, want %s", first.failDelay, watch.RetryFirst)
			}
			during := rig.rec.since(faultAt)
			for _, f := range during {
				if f.failing && !slices.Equal(f.ids, good.ids) {
					t.Fatalf("while stale the dashboard shows %v, not the last good %v", f.ids, good.ids)
				}
				if f.failing && (strings.Contains(f.header, "API ✔") || !strings.Contains(f.header, "API ")) {
					t.Fatalf("a failing API shows as healthy: %q", f.header)
				}
			}
			if c.wantBackoff && !slices.ContainsFunc(during, func(f faultFrame) bool { return strings.Contains(f.header, "back-off") }) {
				t.Error("the 429 back-off never showed in the header")
			}

			clearedWall, clearedPlat := time.Now(), rig.sim.Clock().Now()
			if c.pause {
				if err := rig.sim.Resume(); err != nil {
					t.Fatal(err)
				}
			} else {
				rig.sim.ClearFaults()
			}
			back := rig.rec.waitFirst(t, faultPatience, "fresh data after the fault", clearedWall, func(f faultFrame) bool {
				return fresh(f) && f.listedAt.After(clearedPlat)
			})
			recovery := back.wall.Sub(clearedWall)
			if recovery > watch.ListSteady && !race.Enabled {
				t.Errorf("fresh again %s after the fault ended, want within one refresh interval (%s)", recovery, watch.ListSteady)
			}
			rig.stop(t)
			checkFrames(t, rig.rec.since(time.Time{}))
			peaks := checkFlyLimits(t, rig.sim)
			retries := first.failDelay.String()
			if c.doubling {
				retries += "→" + second.failDelay.String()
			}
			t.Logf("%s: stale after %s, retrying every %s, fresh %s after the fault ended; busiest second per bucket %v",
				c.name, first.wall.Sub(faultAt).Round(time.Millisecond), retries, recovery.Round(time.Millisecond), peaks)
		})
	}
}

// Ten seconds added to every endpoint: each listing takes 10 s, inside the
// client's 15 s deadline, so nothing fails; the program keeps handling its
// clock meanwhile (the screen is never frozen) and the data arrives.
func TestDashboardRidesOutTenSecondsOfLatency(t *testing.T) {
	t.Parallel()
	rig := startFaultRig(t, 10)
	good := rig.rec.waitFor(t, 20*time.Second, "the first listing", fresh)
	const latency = 10 * time.Second
	rig.sim.SetFault("*", flysim.Fault{Latency: latency})
	slowFrom, slowPlat, ticks := time.Now(), rig.sim.Clock().Now(), rig.rec.tickCount()
	rig.prog.Send(runes("r"))
	slow := rig.rec.waitFor(t, latency+5*time.Second, "the slow listing", func(f faultFrame) bool {
		return f.listedAt.After(slowPlat)
	})
	took := slow.wall.Sub(slowFrom)
	if took < latency-time.Second {
		t.Errorf("the listing arrived after %s, before the injected %s latency", took, latency)
	}
	if n := rig.rec.tickCount() - ticks; n < int(latency/time.Second)-2 {
		t.Errorf("only %d clock ticks handled during %s of latency: the program stalled", n, took)
	}
	for _, f := range rig.rec.since(slowFrom) {
		if f.failing || f.fatal != nil {
			t.Fatalf("a slow but answering API was treated as failing: %q", f.header)
		}
		if len(f.ids) == 0 || !slices.Equal(f.ids, good.ids) {
			t.Fatalf("the machines changed from %v to %v during a slow listing", good.ids, f.ids)
		}
	}
	clearedWall, clearedPlat := time.Now(), rig.sim.Clock().Now()
	rig.sim.ClearFaults()
	rig.prog.Send(runes("r"))
	back := rig.rec.waitFor(t, watch.ListSteady+5*time.Second, "a quick listing after the latency", func(f faultFrame) bool {
		return fresh(f) && f.listedAt.After(clearedPlat)
	})
	rig.stop(t)
	checkFrames(t, rig.rec.since(time.Time{}))
	peaks := checkFlyLimits(t, rig.sim)
	t.Logf("10 s latency: listing took %s, never stale; fresh %s after it ended; busiest second per bucket %v",
		took.Round(time.Millisecond), back.wall.Sub(clearedWall).Round(time.Millisecond), peaks)
}

// Every exec hangs until its timeout: the probes fail calmly (an error held
// for the pane, no stale notice, no fatal screen) while the listings stay
// fresh.
func TestDashboardProbesFailCalmlyOnExecTimeouts(t *testing.T) {
	t.Parallel()
	rig := startFaultRig(t, 10)
	rig.sim.SetFault("exec", flysim.Fault{ExecTimeout: true})
	start := time.Now()
	// How calmly, not how soon: the first probe may come a budgeted minute
	// after the fault is set (20 s was too short under -race).
	f := rig.rec.waitFor(t, faultPatience, "a probe to time out", func(f faultFrame) bool {
		return len(f.probeErrs) > 0
	})
	for _, e := range f.probeErrs {
		if !strings.Contains(e, "408") || strings.Contains(e, faultCanary) {
			t.Errorf("probe error %q: want the API's 408, without the token", e)
		}
	}
	if !fresh(f) {
		t.Errorf("an exec timeout made the listing look stale: %q", f.header)
	}
	rig.stop(t)
	checkFrames(t, rig.rec.since(time.Time{}))
	peaks := checkFlyLimits(t, rig.sim)
	if n := rig.sim.APICalls(); countPrefix(n, "exec:") > watch.MaxProbes*2 {
		t.Errorf("%d exec calls for %d probes in flight: timed-out execs were sent again", countPrefix(n, "exec:"), watch.MaxProbes)
	}
	t.Logf("exec timeout: probe failed after %s (%q); busiest second per bucket %v",
		f.wall.Sub(start).Round(time.Millisecond), f.probeErrs[0], peaks)
}

func countPrefix(calls map[string]int, prefix string) int {
	n := 0
	for k, v := range calls {
		if strings.HasPrefix(k, prefix) {
			n += v
		}
	}
	return n
}
