package app

import (
	"fmt"
	"strings"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/uitest"
)

// A deterministic sleepy-api, built by hand so frames can be compared byte
// for byte: n machines with 2048 MB swap (the first one started, the rest
// stopped by autostop), 90 cold boots of 25–33 s over the day before t0 in
// flysim's log vocabulary (sources/flysim/machines, sources/flysim/profile), and canned meminfo, socket and
// bytecode probe output for the started machine. Nothing reads a clock.

const (
	fixtureApp    = "sleepy-api"
	fixtureOrg    = "demo-org"
	fixtureDigest = "sha256:5f1c0de2a9b84e7d3c6b1a09e8f7d6c5b4a39281706f5e4d3c2b1a0998877665"
	fixtureBoots  = 90
)

func fsec(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

func fixtureID(i int) string { return fmt.Sprintf("%014x", 0x148e4d55f36278+i*0x1f3a7) }

// fixtureBoot is one cold boot: which machine, when it began, and its phase
// lengths (spread deterministically so p50/p95/max differ).
type fixtureBoot struct {
	machine                   int
	begin                     time.Time
	migrations, static, serve time.Duration
}

// fixtureBootsFor spreads the boots over the 24 h before now, 16 min apart;
// the newest boot is machine 0's, the one still running.
func fixtureBootsFor(machines int, now time.Time) []fixtureBoot {
	out := make([]fixtureBoot, fixtureBoots)
	first := now.Add(-24*time.Hour + 5*time.Minute)
	for i := range out {
		out[i] = fixtureBoot{
			machine:    (i + 1) % min(machines, 10), // machines ≥ 1
			begin:      first.Add(time.Duration(i) * 16 * time.Minute),
			migrations: fsec(9.5 + float64(i*37%21)/10), // 9.5–11.5 s
			static:     fsec(7.5 + float64(i*53%21)/10), // 7.5–9.5 s
			serve:      fsec(6.5 + float64(i*29%21)/10), // 6.5–8.5 s
		}
	}
	return out
}

// fixtureLines writes one boot (and, unless it is still running, its
// autostop 6 minutes later) as flysim would log it.
func fixtureLines(b fixtureBoot, id string, running bool) []diagnose.LogLine {
	out := uitest.ColdBoot(id, b.begin, uitest.Boot{Migrations: b.migrations, Static: b.static, Serve: b.serve}, time.Time{})
	step := func(at time.Time, provider, msg string) {
		out = append(out, diagnose.LogLine{Time: at, Machine: id, Provider: provider, Message: msg})
	}
	if running {
		return out
	}
	stop := b.begin.Add(6 * time.Minute)
	step(stop, "proxy", fmt.Sprintf("App %s has excess capacity, autostopping machine %s. 1 out of 10 machines left running (region=ams, process group=app)", fixtureApp, id))
	step(stop.Add(fsec(0.01)), "app", " INFO Sending signal SIGINT to main child process w/ PID 637")
	step(stop.Add(fsec(1.21)), "app", " INFO Main child exited normally with code: 0")
	return out
}

// fixtureMachine is machine i as the Machines API lists it; lastBoot is the
// begin of its newest boot.
func fixtureMachine(i int, lastBoot fixtureBoot, started bool) *fly.Machine {
	intp := func(v int) *int { return &v }
	strp := func(v string) *string { return &v }
	autostop, autostart := fly.MachineAutostopStop, true
	ms := func(t time.Time) int64 { return t.UnixMilli() }
	begin := lastBoot.begin
	served := begin.Add(fsec(2.0) + lastBoot.migrations + lastBoot.static + lastBoot.serve)
	stopAt := begin.Add(6 * time.Minute)
	prevStop := begin.Add(-40 * time.Minute)

	m := &fly.Machine{
		ID: fixtureID(i), Name: fmt.Sprintf("%s-%02d", []string{"quiet", "misty", "bold", "late", "calm"}[i%5], i),
		Region: "ams", InstanceID: fmt.Sprintf("01KB1Y6Q3T8M2%05X", i), HostStatus: "ok",
		ImageRef:  fly.MachineImageRef{Registry: "registry.fly.io", Repository: "sleepy-api", Tag: "deployment-01KB1Y6Q3T8M2", Digest: fixtureDigest},
		CreatedAt: t0.Add(-72 * time.Hour).Format(time.RFC3339),
		Config: &fly.MachineConfig{
			Guest: &fly.MachineGuest{CPUKind: "shared", CPUs: 1, MemoryMB: 1024},
			Init:  fly.MachineInit{SwapSizeMB: intp(2048)},
			Image: "registry.fly.io/sleepy-api:deployment-01KB1Y6Q3T8M2",
			Metadata: map[string]string{
				"fly_platform_version": "v2", "fly_process_group": "app",
				"fly_release_version": "42", "fly_release_id": "rel_42",
			},
			Restart: &fly.MachineRestart{Policy: fly.MachineRestartPolicyOnFailure, MaxRetries: 10},
			Services: []fly.MachineService{{
				Protocol: "tcp", InternalPort: 8000,
				Autostop: &autostop, Autostart: &autostart, MinMachinesRunning: intp(1),
				Concurrency: &fly.MachineServiceConcurrency{Type: "requests", SoftLimit: 12, HardLimit: 25},
				Checks: []fly.MachineServiceCheck{{
					Type: strp("http"), HTTPPath: strp("/api/health/"), HTTPMethod: strp("GET"),
					Interval: &fly.Duration{Duration: 15 * time.Second}, Timeout: &fly.Duration{Duration: 2 * time.Second},
				}},
			}},
		},
	}
	stopped := func(at time.Time) *fly.MachineEvent {
		return &fly.MachineEvent{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: ms(at.Add(1210 * time.Millisecond)),
			Request: &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{RequestedStop: true, Signal: -1, GuestSignal: -1, ExitedAt: at.Add(1210 * time.Millisecond)}}}
	}
	boot := []*fly.MachineEvent{
		{Type: "start", Status: "started", Source: "flyd", Timestamp: ms(begin.Add(1050 * time.Millisecond))},
		{Type: "start", Status: "starting", Source: "fly-proxy", Timestamp: ms(begin)},
	}
	if started {
		m.State = "started"
		m.UpdatedAt = served.Format(time.RFC3339)
		at := served
		m.Checks = []*fly.MachineCheckStatus{{Name: "servicecheck-00-http-8000", Status: "passing", UpdatedAt: &at}}
		m.Events = append(boot, stopped(prevStop), &fly.MachineEvent{Type: "stop", Status: "stopping", Source: "fly-proxy", Timestamp: ms(prevStop)})
	} else {
		m.State = "stopped"
		m.UpdatedAt = stopAt.Add(1210 * time.Millisecond).Format(time.RFC3339)
		m.Events = append([]*fly.MachineEvent{stopped(stopAt), {Type: "stop", Status: "stopping", Source: "fly-proxy", Timestamp: ms(stopAt)}}, boot...)
	}
	m.Events = append(m.Events, stopped(prevStop.Add(-time.Hour)))[:5] // the platform keeps the newest 5
	return m
}

// fixtureData is everything the platform would answer for the fixture.
type fixtureData struct {
	machines []*fly.Machine
	logs     []diagnose.LogLine
	probes   []fixtureProbe
	metrics  snapshot.EdgeOrigin
}

type fixtureProbe struct {
	req snapshot.ProbeRequest
	res snapshot.ExecResult
}

// newFixture builds n machines of sleepy-api as seen at now.
func newFixture(n int, now time.Time) fixtureData {
	boots := fixtureBootsFor(n, now)
	last := map[int]fixtureBoot{}
	var d fixtureData
	for bi, b := range boots {
		last[b.machine] = b
		d.logs = append(d.logs, fixtureLines(b, fixtureID(b.machine), bi == len(boots)-1)...)
	}
	sortLines(d.logs)
	for i := range n {
		b, ok := last[i]
		if !ok { // machines past the tenth: booted once, long ago
			b = fixtureBoot{begin: now.Add(-30*time.Hour - time.Duration(i)*time.Minute), migrations: fsec(10), static: fsec(8), serve: fsec(7)}
		}
		d.machines = append(d.machines, fixtureMachine(i, b, i == 0))
	}
	// The probes the started machine allows: its boot's meminfo and sockets,
	// and the image's bytecode probe. Keys come from the model itself.
	a := snapshot.New(fixtureOrg, fixtureApp, nil)
	a.ApplyMachines(d.machines[:1], now)
	for _, req := range a.ProbesDue(now) {
		var res snapshot.ExecResult
		switch req.Kind {
		case snapshot.ProbeMeminfo:
			res.Stdout = fixtureMeminfo
		case snapshot.ProbeSockets:
			res.Stdout = fixtureNetTCP
		case snapshot.ProbeBytecode:
			res.Stdout = fixtureBytecode
		}
		d.probes = append(d.probes, fixtureProbe{req, res})
	}
	d.metrics = snapshot.EdgeOrigin{
		At:      now,
		Edge1h:  map[string]float64{"200": 412, "502": 3},
		App1h:   map[string]float64{"200": 412},
		Edge24h: map[string]float64{"200": 9630, "502": 41, "404": 12},
		App24h:  map[string]float64{"200": 9630, "404": 12},
	}
	return d
}

// apply feeds the fixture into a fresh model, the way the data flow does.
func (d fixtureData) apply(now time.Time) *snapshot.App {
	a := snapshot.New(fixtureOrg, fixtureApp, nil)
	a.ApplyMachines(d.machines, now)
	a.ApplyLogs(d.logs)
	for _, p := range d.probes {
		a.ApplyProbe(p.req, p.res, now)
	}
	m := d.metrics
	a.Metrics = &m
	return a
}

func sortLines(ls []diagnose.LogLine) {
	for i := 1; i < len(ls); i++ { // stable insertion sort; boots barely overlap
		for j := i; j > 0 && ls[j].Time.Before(ls[j-1].Time); j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// fixtureMeminfo is flysim's /proc/meminfo of a 1024 MB guest with 2048 MB
// swap, none of it used.
var fixtureMeminfo = strings.Join([]string{
	"MemTotal:         985220 kB",
	"MemFree:         257232 kB",
	"MemAvailable:    571427 kB",
	"Buffers:           8210 kB",
	"Cached:          325689 kB",
	"SwapCached:           0 kB",
	"SwapTotal:      2097148 kB",
	"SwapFree:       2097148 kB",
	"Dirty:               96 kB",
	"AnonPages:       364532 kB",
	"",
}, "\n")

// fixtureNetTCP: granian listening on 8000, two clients connected.
var fixtureNetTCP = strings.Join([]string{
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
	"   0: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 18432 1 0000000000000000 100 0 0 10 0",
	"   1: 0200A8C0:1F40 0100A8C0:C350 01 00000000:00000000 00:00000000 00000000     0        0 18433 1 0000000000000000 20 4 30 10 -1",
	"   2: 0200A8C0:1F40 0100A8C0:C351 01 00000000:00000000 00:00000000 00000000     0        0 18434 1 0000000000000000 20 4 30 10 -1",
	"",
}, "\n")

// fixtureBytecode is the sleepy image's probe answer, as flysim's guest
// writes it (sources/flysim/guest).
const fixtureBytecode = `{"python":"3.14.0","cache_tag":"cpython-314","dont_write_bytecode":true,` +
	`"site_packages":{"dir":"/usr/local/lib/python3.14/site-packages","py":5707,"pyc":0,"foreign_pyc":0},` +
	`"app":{"dir":"/app","py":412,"pyc":218,"foreign_pyc":218,"foreign_tags":["cpython-315"]}}`
