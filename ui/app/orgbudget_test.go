package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/longtest"
	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// The org overview's API budget, counted at flysim for 100 steady apps with 10,000
// machines: the dashboard has one app open (at its own adaptive interval)
// and the overview watching the other 99.
const (
	budgetApps        = 100
	budgetPerApp      = 100
	budgetCallsPerMin = 300
	budgetFirstFrame  = 3 * time.Second
)

// orgBudget is what one run measured.
type orgBudget struct {
	firstFrame time.Duration // esc → every app's row listed
	window     time.Duration // the steady window the calls were counted in
	calls      int           // Machines API calls in the window (flywake's own)
	byAction   map[string]int
	logsProm   int // logs and Prometheus calls in the window (not Machines API)
	limited    int // 429s over the whole run, first round included
	detected   time.Duration
	changedApp string
}

func (b orgBudget) perMin() float64 {
	return float64(b.calls) * float64(time.Minute) / float64(b.window)
}

func (b orgBudget) String() string {
	if b.window == 0 {
		return fmt.Sprintf("%d apps / %d machines: first full overview frame %s; %d × 429",
			budgetApps, budgetApps*budgetPerApp, b.firstFrame.Round(10*time.Millisecond), b.limited)
	}
	return fmt.Sprintf("%d apps / %d machines: first full overview frame %s; %.0f Machines API calls/min over %s (%v; +%d logs/Prometheus calls); %d × 429; a stopped machine of %s showed in %s (background interval %s)",
		budgetApps, budgetApps*budgetPerApp, b.firstFrame.Round(10*time.Millisecond), b.perMin(), b.window, b.byAction, b.logsProm,
		b.limited, b.changedApp, b.detected.Round(100*time.Millisecond), watch.OrgListEvery)
}

// measureOrgBudget runs the dashboard headless on an org of 100 steady apps:
// steady-000 open, esc opens the overview; the first full frame is timed;
// then the Machines API calls are counted over window, while one machine of
// a background app is stopped and the time until its row shows it is timed.
func measureOrgBudget(t testing.TB, window time.Duration) orgBudget {
	t.Helper()
	sim := flysim.New(flysim.Options{Apps: flysim.SteadyOrg(budgetApps, budgetPerApp), NoTraffic: true, History: time.Minute, Seed: 1})
	src, client := simSource(t, sim)
	t.Cleanup(func() { client.Close(); _ = sim.Close() })

	// The machine the test stops, looked up (and stopped) by its own client
	// so that its calls can be told from the dashboard's.
	changed := flysim.SteadyAppName(budgetApps / 2)
	other, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	l, err := other.List(context.Background(), changed)
	if err != nil {
		t.Fatal(err)
	}
	victim := ""
	for _, m := range l.Machines {
		if m.State == "started" {
			victim = m.ID
			break
		}
	}
	if victim == "" {
		t.Fatal("no started machine to stop")
	}

	var (
		mu         sync.Mutex
		firstFrame time.Time
		stoppedAt  time.Time
		seenAt     time.Time
	)
	start := time.Now()
	obs := observed{Model: dashboard(src, flysim.SteadyAppName(0))}
	obs.onMsg = func(m *Model, _ tea.Msg, at time.Time) {
		mu.Lock()
		defer mu.Unlock()
		if firstFrame.IsZero() && len(m.org.Apps()) == budgetApps {
			all := true
			for _, r := range m.org.Rows(m.now(), m.patience()) {
				all = all && r.Listed
			}
			if all {
				firstFrame = at
			}
		}
		if !stoppedAt.IsZero() && seenAt.IsZero() {
			for _, r := range m.org.Rows(m.now(), m.patience()) {
				if r.App == changed && r.Listed && startedCount(r) < budgetPerApp/2 {
					seenAt = at
				}
			}
		}
	}
	hl := runHeadless(t, obs, 160, 48)
	defer hl.stop(t)
	escAt := time.Now()
	hl.p.Send(tea.KeyMsg{Type: tea.KeyEsc})
	if !settle(30*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return !firstFrame.IsZero() }) {
		t.Fatalf("the overview never listed all %d apps (%s since start)", budgetApps, time.Since(start))
	}
	mu.Lock()
	b := orgBudget{firstFrame: firstFrame.Sub(escAt), changedApp: changed}
	mu.Unlock()

	if window == 0 { // the first frame only
		for _, st := range sim.APIStats() {
			b.limited += st.Limited
		}
		b.limited += client.Stats().Throttled
		b.detected = -1
		return b
	}
	// The steady window: from 10 s after the first round, so that it holds
	// the next two background rounds whole (at about 30 s and 60 s).
	time.Sleep(10 * time.Second)
	sim.ResetAPICalls()
	windowStart := time.Now()
	time.Sleep(window / 6)
	stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	if err := other.Stop(stopCtx, changed, victim, "", 0); err != nil {
		cancel()
		t.Fatalf("stopping %s: %v", victim, err)
	}
	cancel()
	mu.Lock()
	stoppedAt = time.Now()
	mu.Unlock()
	time.Sleep(time.Until(windowStart.Add(window)))
	b.window = time.Since(windowStart)
	stats := sim.APIStats()
	calls := map[string]int{}
	for k, st := range stats {
		if strings.HasSuffix(k, ":"+victim) {
			continue // the test's own stop (and its lease), not the dashboard's
		}
		calls[k] = st.Calls
		b.limited += st.Limited
	}
	b.byAction, b.calls = machinesAPI(calls)
	b.logsProm = b.byAction["logs"] + b.byAction["prom"]
	delete(b.byAction, "logs")
	delete(b.byAction, "prom")
	b.limited += client.Stats().Throttled
	mu.Lock()
	if !seenAt.IsZero() {
		b.detected = seenAt.Sub(stoppedAt)
	} else {
		b.detected = -1
	}
	mu.Unlock()
	return b
}

func startedCount(r snapshot.OrgRow) int {
	for _, sc := range r.States {
		if sc.State == "started" {
			return sc.N
		}
	}
	return 0
}

// TestOrgFirstFrame is the budget's first part alone (about 10 s): the
// overview of 100 apps / 10,000 machines is whole, and the first round of
// listings draws no 429. How soon it is whole is printed against the 3 s
// budget where it is measured alone (.ci/perf.sh, FLYWAKE_PERF=1): on a
// machine loaded by other work the frame comes later, but it must come.
func TestOrgFirstFrame(t *testing.T) {
	if race.Enabled {
		t.Skip("a wall-clock budget for real builds: not measured under -race")
	}
	if !perfOn() {
		// The budget is asserted alone (FLYWAKE_PERF=1); beside the other
		// tests only the 429s are, which no neighbour changes.
		t.Parallel()
	}
	b := measureOrgBudget(t, 0)
	t.Log(b)
	checkFirstFrame(t, b)
	if b.limited != 0 {
		t.Errorf("%d requests were answered 429", b.limited)
	}
}

// firstFrameCeiling is how late the overview's first frame may come on a
// busy machine before the test calls it a hang.
const firstFrameCeiling = 30 * time.Second

// checkFirstFrame fails a first frame later than the ceiling and, under
// FLYWAKE_PERF, prints it against the 3 s budget. The budget is a figure
// to print, not to fail on: on 2 shared cores a neighbour's work moves it
// by a second (3.65 s in a CI run beside two benchmarks).
func checkFirstFrame(t *testing.T, b orgBudget) {
	t.Helper()
	switch {
	case b.firstFrame > firstFrameCeiling:
		t.Errorf("first full overview frame took %s: want within %s", b.firstFrame, firstFrameCeiling)
	case b.firstFrame > budgetFirstFrame && perfOn():
		perfLine(t, "org.first_frame", "NOT MET: %s, over the budget of %s", b.firstFrame.Round(time.Millisecond), budgetFirstFrame)
	case perfOn():
		perfLine(t, "org.first_frame", "%s (budget %s)", b.firstFrame.Round(time.Millisecond), budgetFirstFrame)
	}
}

// TestOrgBudget asserts that budget. It runs for about 80 s (a whole
// minute of steady state is what "calls per minute" means), in the long
// mode only (BenchmarkOrgBudget prints the same figures).
func TestOrgBudget(t *testing.T) {
	longtest.Need(t, "80 s: a minute of steady state (or BenchmarkOrgBudget)")
	t.Parallel() // counts calls at its own platform, as TestAPIEconomy does: beside the other tests
	window := 60 * time.Second
	b := measureOrgBudget(t, window)
	t.Log(b)
	checkFirstFrame(t, b)
	if b.limited != 0 {
		t.Errorf("%d requests were answered 429", b.limited)
	}
	if b.perMin() > budgetCallsPerMin {
		t.Errorf("%.0f Machines API calls/min, budget %d", b.perMin(), budgetCallsPerMin)
	}
	// Every background app is listed in a minute (twice, at 30 s): far
	// fewer calls would mean the overview is not watching them. A tenth is
	// left for a loaded machine, where the minute's last round runs late
	// (CI at a load of 9: 193 of 198).
	if got := b.byAction["list"]; got < 2*(budgetApps-1)*9/10 {
		t.Errorf("%d listings in a minute: the background apps are not all listed every %s", got, watch.OrgListEvery)
	}
	// And their sockets: about OrgSocketSample execs every OrgSocketsPace.
	if got, want := b.byAction["exec"], int(window/watch.OrgSocketsPace)*watch.OrgSocketSample/2; got < want {
		t.Errorf("%d exec calls in a minute, want at least %d: the background apps' sockets are not being read", got, want)
	}
	if b.detected < 0 || b.detected > watch.OrgListEvery+5*time.Second {
		t.Errorf("the stopped machine of %s showed after %s, want within one background interval (%s)", b.changedApp, b.detected, watch.OrgListEvery)
	}
}

// BenchmarkOrgBudget prints the budget figures (one run; b.N is ignored):
//
//	go test ./ui/app -run XXX -bench OrgBudget -benchtime 1x
func BenchmarkOrgBudget(b *testing.B) {
	r := measureOrgBudget(b, 60*time.Second)
	b.ReportMetric(r.perMin(), "calls/min")
	b.ReportMetric(float64(r.limited), "429s")
	b.ReportMetric(float64(r.firstFrame.Milliseconds()), "first-frame-ms")
	b.ReportMetric(r.detected.Seconds(), "change-seen-s")
	b.ReportMetric(watch.OrgListEvery.Seconds(), "bg-interval-s")
	b.Log(r)
}
