package checklist

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/ui/uitest"

	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// t0 is the platform time every fixture is taken at (never time.Now: the
// golden files must not change from run to run).
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// The scale-to-zero demo's three machines and its one image.
var machineIDs = []string{"3d8d9e1c", "91e5f02a", "e2869d4b"}

const digest = "sha256:9f86d081884c7d659a2feaa0c55ad015"

func sec(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

type logs []diagnose.LogLine

// coldBoot writes the scale-to-zero demo's cold boot of machine m
// (uitest.ColdBoot): migrations and collectstatic run before the server on
// every boot.
func (l *logs) coldBoot(m string, begin time.Time) {
	*l = append(*l, uitest.ColdBoot(m, begin, uitest.Boot{Migrations: sec(11.3), Static: sec(6), Serve: sec(9)}, time.Time{})...)
}

// machine is one scale-to-zero machine: swap 2048, autostop stop,
// autostart on, hard limit 25, an HTTP check on /api/health/.
func machine(id, state string) *fly.Machine {
	swap, minRunning := 2048, 1
	stop, autostart := fly.MachineAutostopStop, true
	httpCheck, path := "http", "/api/health/"
	return &fly.Machine{
		ID: id, State: state, Region: "ams", InstanceID: "01J" + id,
		ImageRef: fly.MachineImageRef{Digest: digest},
		Config: &fly.MachineConfig{
			Init:     fly.MachineInit{SwapSizeMB: &swap},
			Guest:    &fly.MachineGuest{MemoryMB: 1024, CPUs: 1, CPUKind: "shared"},
			Metadata: map[string]string{"fly_release_version": "7"},
			Services: []fly.MachineService{{
				Protocol: "tcp", InternalPort: 8000,
				Autostop: &stop, Autostart: &autostart, MinMachinesRunning: &minRunning,
				Concurrency: &fly.MachineServiceConcurrency{Type: "requests", SoftLimit: 12, HardLimit: 25},
				Checks: []fly.MachineServiceCheck{{
					Type: &httpCheck, HTTPPath: &path,
					Interval: &fly.Duration{Duration: 15 * time.Second},
				}},
			}},
		},
	}
}

// meminfo is /proc/meminfo of a machine whose 2 GB of swap was never used.
const meminfo = `MemTotal:         985220 kB
MemFree:          412332 kB
MemAvailable:     601944 kB
SwapCached:            0 kB
SwapTotal:       2097148 kB
SwapFree:        2097148 kB
`

// procNetTCP is a socket table with the server listening and one request
// its client gave up on (CLOSE_WAIT, state 08).
const procNetTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F40 0100007F:C350 08 00000000:00000000 00:00000000 00000000     0        0 12346 1 0000000000000000 20 4 30 10 -1
`

// bytecodeJSON is the image probe of the demo: nothing cached in
// site-packages, 218 stale .pyc of another Python in the app.
const bytecodeJSON = `{"python":"3.14.0","cache_tag":"cpython-314","dont_write_bytecode":true,` +
	`"site_packages":{"py":5707,"pyc":0,"foreign_pyc":0},` +
	`"app":{"dir":"/app","py":412,"pyc":218,"foreign_pyc":218,"foreign_tags":["cpython-315"]}}`

// fixture says how far the model has got.
type fixture struct {
	state  string // every machine's state
	boots  int    // cold boots in the logs, one every 15 minutes before t0
	probed bool   // meminfo and sockets on every machine and the bytecode probe answered
}

// app builds the model of the scale-to-zero demo by hand.
func (f fixture) app() *snapshot.App {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	var ms []*fly.Machine
	for _, id := range machineIDs {
		ms = append(ms, machine(id, f.state))
	}
	a.ApplyMachines(ms, t0)
	var l logs
	for i := 0; i < f.boots; i++ {
		l.coldBoot(machineIDs[i%len(machineIDs)], t0.Add(-time.Duration(f.boots-i)*15*time.Minute))
	}
	sort.SliceStable(l, func(i, j int) bool { return l[i].Time.Before(l[j].Time) })
	a.ApplyLogs(l)
	if f.probed {
		for _, id := range machineIDs {
			a.ApplyProbe(snapshot.ProbeRequest{Kind: snapshot.ProbeMeminfo, Machine: id, Key: id + "/boot"},
				snapshot.ExecResult{Stdout: meminfo}, t0)
			a.ApplyProbe(snapshot.ProbeRequest{Kind: snapshot.ProbeSockets, Machine: id, Key: id + "/boot"},
				snapshot.ExecResult{Stdout: procNetTCP}, t0)
		}
		a.ApplyProbe(snapshot.ProbeRequest{Kind: snapshot.ProbeBytecode, Machine: machineIDs[0], Key: digest},
			snapshot.ExecResult{Stdout: bytecodeJSON}, t0)
	}
	return a
}

// project loads the scale-to-zero demo's own project directory.
func project(t *testing.T) (*repo.Project, []error) {
	t.Helper()
	fsys, ok := repo.DemoProject("scale-to-zero")
	if !ok {
		t.Fatal("no scale-to-zero demo project")
	}
	return repo.LoadFS(fsys)
}

// newPane builds the pane over the demo project, fed with f's model.
func newPane(t *testing.T, th *theme.Theme, f fixture) *Pane {
	t.Helper()
	proj, errs := project(t)
	km := keys.Default()
	p := New(pane.Context{Theme: th, Keys: &km}, proj, errs, checklist.Options{})
	p.SetData(f.app(), t0)
	return p
}

// demoDay is the scale-to-zero app's day: the machines are up, a day of cold boots is
// in the logs and every probe has answered.
var demoDay = fixture{state: "started", boots: 24, probed: true}

// asleep: every machine is stopped and nothing was probed.
var asleep = fixture{state: "stopped", boots: 24}

// press sends keys by name: "n", "p", "enter", "up", "down", "pgdown"…
func press(p *Pane, names ...string) {
	for _, n := range names {
		p.Update(uitest.Key(n))
	}
}

// plain is the view without escape codes, trailing blanks trimmed per line.
func plain(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// itemOf returns the item with id as the pane last evaluated it.
func itemOf(t *testing.T, p *Pane, id string) checklist.Item {
	t.Helper()
	for _, it := range p.Items() {
		if it.ID == id {
			return it
		}
	}
	t.Fatalf("no item %q", id)
	return checklist.Item{}
}
