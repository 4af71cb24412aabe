package wake

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/flywake/flywake/ui/uitest"

	tea "github.com/charmbracelet/bubbletea"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// t0 is the fixed platform time of every canned report.
var t0 = time.Date(2025, 3, 14, 9, 26, 0, 0, time.UTC)

const testApp = "snappy-api"

// fixtureMachines are a tuned app: three targets (one blocked by swap) and
// one kept running by min_machines_running.
func fixtureMachines() []*fly.Machine {
	mk := func(id, state string, swap int) *fly.Machine {
		stop, start, minRun := fly.MachineAutostopSuspend, true, 1
		check := "http"
		path := "/healthz"
		m := &fly.Machine{ID: id, State: state, Region: "ams", InstanceID: "i-" + id, Config: &fly.MachineConfig{
			Guest:    &fly.MachineGuest{MemoryMB: 512},
			Metadata: map[string]string{"fly_process_group": "app", "fly_release_version": "7"},
			Services: []fly.MachineService{{
				Autostop: &stop, Autostart: &start, MinMachinesRunning: &minRun,
				Concurrency: &fly.MachineServiceConcurrency{Type: "requests", SoftLimit: 20, HardLimit: 25},
				Checks:      []fly.MachineServiceCheck{{Type: &check, HTTPPath: &path}},
			}},
		}}
		if swap > 0 {
			m.Config.Init.SwapSizeMB = &swap
		}
		return m
	}
	return []*fly.Machine{
		mk("0a1b2c3d4e5f60", "started", 0), // kept running
		mk("148e3d5f2a9c01", "suspended", 0),
		mk("3d8d6e5a9b2c81", "stopped", 512),
		mk("9080aa11bb22cc", "suspended", 0),
	}
}

var targetIDs = []string{"148e3d5f2a9c01", "3d8d6e5a9b2c81", "9080aa11bb22cc"}

// fakeRunner answers with canned data. Run sends events, then either
// returns report or (block) waits for ctx and returns the aborted report.
type fakeRunner struct {
	mu       sync.Mutex
	prepares []waketest.Setup
	prepErr  error
	runs     int
	ranPlan  *waketest.Plan
	events   []waketest.Event
	report   *waketest.Report
	block    bool
	aborted  *waketest.Report
	saved    []*waketest.Report
	previous *waketest.Report
}

func (f *fakeRunner) Prepare(_ context.Context, s waketest.Setup) (*waketest.Plan, error) {
	f.mu.Lock()
	f.prepares = append(f.prepares, s)
	err := f.prepErr
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return waketest.Preflight(fixtureMachines(), s)
}

func (f *fakeRunner) Run(ctx context.Context, plan *waketest.Plan, onEvent func(waketest.Event)) (*waketest.Report, error) {
	f.mu.Lock()
	f.runs++
	f.ranPlan = plan
	f.mu.Unlock()
	for _, e := range f.events {
		onEvent(e)
	}
	if f.block {
		<-ctx.Done()
		return f.aborted, waketest.ErrAborted
	}
	return f.report, nil
}

func (f *fakeRunner) Save(r *waketest.Report) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = append(f.saved, r)
	return "/state/flywake/wake/snappy-api-20250314T092600.000Z.json", nil
}

func (f *fakeRunner) LoadLast(string) (*waketest.Report, string, error) {
	if f.previous == nil {
		return nil, "", nil
	}
	return f.previous, "/state/flywake/wake/snappy-api-20250301T120000.000Z.json", nil
}

func (f *fakeRunner) prepareCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.prepares)
}

func newTestPane(t *testing.T, th *theme.Theme, r Runner, readOnly bool) *Pane {
	t.Helper()
	km := keys.Default()
	if readOnly {
		km.ReadOnly()
	}
	return New(pane.Context{Theme: th, Keys: &km, ReadOnly: readOnly}, Options{
		Setup:  waketest.Setup{App: testApp, AppURL: "https://snappy-api.fly.dev", Speed: 1, Secrets: []string{"FlyV1 sekrit-token-value"}},
		Runner: r,
	})
}

// driver runs a pane's commands the way bubbletea does (each in its own
// goroutine) and hands their messages back to the pane on the test's.
type driver struct {
	t    *testing.T
	p    *Pane
	msgs chan tea.Msg
}

func newDriver(t *testing.T, p *Pane) *driver {
	return &driver{t: t, p: p, msgs: make(chan tea.Msg, 64)}
}

func (d *driver) do(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.msgs <- cmd() }()
}

// key sends a key and runs what it returns.
func (d *driver) key(s string) { d.do(d.p.Update(uitest.Key(s))) }

// until handles messages until cond holds.
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.handle(msg)
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s (stage %s)", what, d.p.Stage())
		}
	}
}

func (d *driver) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.do(c)
		}
	default:
		d.do(d.p.Update(msg))
	}
}

// planned waits for the setup to hold a plan.
func (d *driver) planned() {
	d.t.Helper()
	d.until("a plan", func() bool { return d.p.plan != nil && !d.p.preparing })
}

var errListFailed = errors.New("listing machines: 503 Service Unavailable (token FlyV1 sekrit-token-value)")
