package coldstart

import (
	"sort"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// t0 is the platform time every fixture is taken at.
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func sec(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

type logs []diagnose.LogLine

func (l *logs) add(at time.Time, m, provider, msg string) {
	*l = append(*l, diagnose.LogLine{Time: at, Machine: m, Provider: provider, Message: msg})
}

// coldBoot writes the demo's Django cold boot of machine m in the log
// vocabulary flysim emits. until cuts the boot short (a live boot): lines
// after it are not written.
func (l *logs) coldBoot(m string, begin time.Time, migrations, static, server time.Duration, until time.Time) {
	at := begin
	step := func(d time.Duration, provider, msg string) {
		at = at.Add(d)
		if until.IsZero() || !at.After(until) {
			l.add(at, m, provider, msg)
		}
	}
	step(0, "proxy", "Starting machine")
	step(sec(0.01), "runner", "Configuring firecracker")
	step(sec(1.04), "runner", "Machine started in 1.042s")
	step(sec(0.1), "app", " INFO Starting init (commit: 6c3fc2e)...")
	step(sec(0.1), "app", " INFO Preparing to run: `/app/entrypoint.sh` as root")
	step(sec(0.2), "app", "entrypoint: python manage.py migrate --noinput")
	step(sec(0.1), "app", "Operations to perform:")
	step(sec(0.1), "app", "Running migrations:")
	step(sec(0.1), "app", "  No migrations to apply.")
	step(migrations-sec(0.3), "app", "Migrations complete")
	step(sec(0.05), "app", "entrypoint: python manage.py collectstatic --noinput &")
	step(static, "app", "0 static files copied to '/app/staticfiles', 1268 unmodified.")
	step(sec(0.05), "app", "[INFO] Starting granian (WSGI; workers 2)")
	step(server, "app", "[INFO] Listening at: http://0.0.0.0:8000")
	step(sec(0.3), "app", `"GET /api/health/ HTTP/1.1" 200 15 3ms`)
	step(sec(0.2), "health", "Health check on port 8000 is now passing.")
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
