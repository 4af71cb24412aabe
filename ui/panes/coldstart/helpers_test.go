package coldstart

import (
	"sort"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// t0 is the platform time every fixture is taken at.
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func sec(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

type logs []diagnose.LogLine

func (l *logs) add(at time.Time, m, provider, msg string) {
	*l = append(*l, diagnose.LogLine{Time: at, Machine: m, Provider: provider, Message: msg})
}

// coldBoot writes the demo's Django cold boot of machine m (uitest.ColdBoot).
// until cuts the boot short (a live boot): lines after it are not written.
func (l *logs) coldBoot(m string, begin time.Time, migrations, static, server time.Duration, until time.Time) {
	*l = append(*l, uitest.ColdBoot(m, begin, uitest.Boot{Migrations: migrations, Static: static, Serve: server}, until)...)
}

// resume writes a resume from suspend that serves after took.
func (l *logs) resume(m string, begin time.Time, took time.Duration) {
	l.add(begin.Add(-time.Millisecond), m, "proxy", "Starting machine")
	l.add(begin, m, "runner", "Resuming machine from snapshot")
	l.add(begin.Add(took*3/4), m, "runner", "Machine resumed in 284ms")
	l.add(begin.Add(took), m, "app", `"GET /api/items/ HTTP/1.1" 200 812 9ms`)
}

func machine(id, state string) *fly.Machine {
	swap := 2048
	return &fly.Machine{
		ID: id, State: state, Region: "ams",
		ImageRef: fly.MachineImageRef{Digest: "sha256:0123456789abcdef"},
		Config: &fly.MachineConfig{
			Init:  fly.MachineInit{SwapSizeMB: &swap},
			Guest: &fly.MachineGuest{MemoryMB: 1024, CPUs: 1, CPUKind: "shared"},
		},
	}
}

// app builds the model from machines and log lines (any order).
func app(ms []*fly.Machine, l logs) *snapshot.App {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	a.ApplyMachines(ms, t0)
	sort.SliceStable(l, func(i, j int) bool { return l[i].Time.Before(l[j].Time) })
	a.ApplyLogs(l)
	return a
}

func newPane(t *theme.Theme) *Pane {
	return New(pane.Context{Theme: t})
}

// crashLoop writes n starts of machine m, one every 4 s from begin, each
// serving after 2.7 s and exiting 1 at 3.3 s (the demo's crashy app).
func (l *logs) crashLoop(m string, begin time.Time, n int) {
	for i := range n {
		b := begin.Add(time.Duration(i) * 4 * time.Second)
		l.add(b, m, "runner", "Configuring firecracker")
		l.add(b.Add(sec(0.8)), m, "runner", "Machine started in 800ms")
		l.add(b.Add(sec(1)), m, "app", "[INFO] Starting uvicorn (workers 1)")
		l.add(b.Add(sec(2.7)), m, "health", "Health check on port 8080 is now passing.")
		l.add(b.Add(sec(3.3)), m, "app", " INFO Main child exited normally with code: 1")
	}
}
