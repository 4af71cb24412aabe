package machines

import (
	"fmt"
	"math/rand/v2"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/rng"
	"github.com/flywake/flywake/sources/flysim/sched"
)

// Config is what a Store needs of its platform.
type Config struct {
	Seed       uint64
	Org        string
	Region     string // where the API "runs" (the nearest region)
	EventsKept int    // events kept per machine
	Wall       func() time.Time
	Sched      *sched.Scheduler
	Logs       *logs.Store
	Gate       *gate.Gate
	Closing    <-chan struct{} // closed when the platform shuts down
}

// Store is the Machines API's platform: the org's apps, their machines and
// each machine's state machine, versions, images, volumes and leases, and
// the endpoints that serve them. Its state is guarded by the scheduler's
// lock: every change is an event in platform time.
type Store struct {
	opts     Config
	sched    *sched.Scheduler
	clock    *sched.Clock
	logs     *logs.Store
	gate     *gate.Gate
	edge     Edge
	ids      *rand.Rand // event and log line ids (an app's own draws are in app.rng)
	rng      *rand.Rand // draws of API-driven changes (created machines, migrations, pushed images)
	apps     map[string]*App
	appOrder []string
	ips      int
	public   map[string]*image // public images pulled, by reference
	volRNG   *rand.Rand        // ids of volumes and snapshots the API makes
	builds   int64             // image builds recorded (ui-ex)
}

// Edge is what the store asks of the proxy in front of its machines.
type Edge interface {
	// Load is the proxy's connections to m: requests in flight, and
	// sockets whose client gave up (CLOSE_WAIT), as its guest shows them.
	Load(m *Machine) (inflight, closeWait int)
	// Serving tells that m began serving: requests held for it may go.
	Serving(m *Machine)
	// Routable tells that a's machines may take requests they could not
	// (one was uncordoned).
	Routable(a *App)
	// AppAdded and AppRemoved tell that an app was created or deleted.
	AppAdded(a *App)
	AppRemoved(a *App)
}

type noEdge struct{}

func (noEdge) Load(*Machine) (int, int) { return 0, 0 }
func (noEdge) Serving(*Machine)         {}
func (noEdge) Routable(*App)            {}
func (noEdge) AppAdded(*App)            {}
func (noEdge) AppRemoved(*App)          {}

// New is an empty store.
func New(cfg Config) *Store {
	return &Store{opts: cfg, sched: cfg.Sched, clock: cfg.Sched.Clock(), logs: cfg.Logs, gate: cfg.Gate, edge: noEdge{},
		ids: rng.Stream(cfg.Seed, "ids"), rng: rng.Stream(cfg.Seed, "platform"), apps: map[string]*App{}, public: map[string]*image{},
		volRNG: rng.Stream(cfg.Seed, "volumes")}
}

// SetEdge puts the proxy in front of the machines.
func (s *Store) SetEdge(e Edge) { s.edge = e }

func (s *Store) now() time.Time { return s.clock.Now() }

// AddApp creates an app and its machines as they stood when history
// begins at begin; the history ends at end. Callers hold the lock.
func (s *Store) AddApp(p profile.App, begin, end time.Time) {
	a := &App{p: p, rng: rng.Stream(s.opts.Seed, "app/"+p.Name), byID: map[string]*Machine{}}
	a.id = rng.Hex(a.rng, 12)
	a.digest = "sha256:" + rng.Hex(a.rng, 64)
	deploy := end.Add(-p.DeployedAgo)
	release := p.Release
	if deploy.After(begin) {
		release-- // the current release rolls out during the history
	}
	if p.Release > 0 {
		a.releaseImage(release, a.digest)
	}
	a.pushDemoReleases()
	groups := append([]profile.RegionGroup{{Region: p.Region, Machines: p.Machines, InitialAwake: p.InitialAwake}}, p.MoreRegions...)
	// The machines exist when history begins: one whose release rolls out
	// during the history was made before it, not at a time still to come.
	made := deploy
	if deploy.After(begin) {
		made = begin
	}
	for _, g := range groups {
		for i := 0; i < g.Machines; i++ {
			m := s.newMachine(a, g.Region, release, made.Add(-time.Duration(len(a.machines)+1)*time.Minute))
			if i < g.InitialAwake {
				s.bootInstantly(m)
			} else {
				s.sleepInstantly(m)
			}
			a.machines = append(a.machines, m)
			a.byID[m.id] = m
		}
	}
	s.attachVolumes(a)
	a.deployedAt, a.createdAt = deploy, begin
	a.seedSecrets(deploy)
	if len(a.machines) > 0 {
		a.createdAt = a.machines[0].createdAt
	}
	if release > 0 {
		at := deploy
		if deploy.After(begin) {
			at = deploy.Add(-48 * time.Hour) // the release before the one rolling out in the history
		}
		a.seedReleases(release, at)
	}
	if deploy.After(begin) {
		s.sched.At(deploy, func() { s.deploy(a, p.Release) })
	}
	s.apps[p.Name] = a
	s.appOrder = append(s.appOrder, p.Name)
}

func (s *Store) newMachine(a *App, region string, release int, created time.Time) *Machine {
	p := &a.p
	s.ips++
	m := &Machine{
		app: a, id: rng.MachineID(a.rng), name: rng.MachineName(a.rng), region: region,
		instanceID: rng.ULID(a.rng, created), release: release, versionAt: created,
		privateIP: fmt.Sprintf("fdaa:0:18:a7b:%x:%x:%x:2", 100+s.ips, a.rng.IntN(0xffff), a.rng.IntN(0xffff)),
		state:     "created", createdAt: created, updatedAt: created, changed: make(chan struct{}),
	}
	m.setConfig(machineConfig(p, release))
	m.image = a.current
	m.events = []Event{{ID: rng.ULID(s.ids, created), Type: "launch", Status: "created", Source: SourceUser, Time: created}}
	return m
}

// bootInstantly and sleepInstantly set up a machine's state at the start of
// history without replaying a boot (its events are dated before history).
func (s *Store) bootInstantly(m *Machine) {
	t := s.now().Add(-time.Duration(1+m.app.rng.IntN(50)) * time.Minute)
	m.events = append([]Event{{ID: rng.ULID(s.ids, t), Type: "start", Status: "started", Source: SourceFlyd, Time: t}}, m.events...)
	m.state, m.serving, m.servingSince, m.checkAt, m.updatedAt = "started", true, t, t, t
}

func (s *Store) sleepInstantly(m *Machine) {
	t := s.now().Add(-time.Duration(10+m.app.rng.IntN(100)) * time.Minute)
	m.events = append([]Event{{ID: rng.ULID(s.ids, t.Add(-time.Minute)), Type: "start", Status: "started", Source: SourceFlyd, Time: t.Add(-time.Minute)}}, m.events...)
	if m.app.p.Autostop == "suspend" && len(SuspendBlockers(m.cfg)) == 0 {
		m.events = append([]Event{{ID: rng.ULID(s.ids, t), Type: "suspend", Status: "suspended", Source: SourceFlyd, Time: t}}, m.events...)
		m.state, m.snapshot = "suspended", true
	} else {
		m.events = append([]Event{{ID: rng.ULID(s.ids, t), Type: "exit", Status: "stopped", Source: SourceFlyd, Time: t,
			Exit: &fly.MachineExitEvent{GuestSignal: -1, Signal: -1, RequestedStop: true, ExitedAt: t.UTC()}}}, m.events...)
		m.state = "stopped"
	}
	m.stoppedAt, m.updatedAt = t, t
}

// deploy rolls a new release onto every machine: a new instance id, new
// metadata, and a restart of the machines that were running.
func (s *Store) deploy(a *App, release int) {
	a.digest = "sha256:" + rng.Hex(a.rng, 64)
	a.deployedAt = s.now()
	a.releaseImage(release, a.digest)
	a.addRelease(release, a.p.Tag, s.now())
	for _, m := range a.machines {
		if m.state == "destroyed" || m.state == "destroying" {
			continue
		}
		wasUp := m.state != "stopped" && m.state != "suspended"
		s.newRun(m)
		s.retireVersion(m, "replaced")
		m.release = release
		m.setConfig(machineConfig(&a.p, release))
		s.mountVolume(m)
		m.image = a.current
		m.instanceID, m.versionAt = rng.ULID(a.rng, s.now()), s.now()
		m.serving, m.snapshot = false, false
		s.setState(m, "replacing")
		s.addEvent(m, "update", "replacing", SourceUser, nil, 0)
		mm := m
		s.sched.After(2*time.Second, func() {
			if wasUp { // the replaced release's process ends
				s.addEvent(mm, "exit", "stopped", SourceFlyd, s.exitEvent(0, true, false), 0)
			}
			if wasUp || mm.image.crashes() > 0 {
				s.setState(mm, "stopped")
				s.coldBoot(mm, SourceUser, true)
			} else {
				s.setState(mm, "stopped")
			}
		})
	}
}

// machineConfig is the config Fly Launch would give a machine of this app.
func machineConfig(p *profile.App, release int) *fly.MachineConfig {
	intp := func(v int) *int { return &v }
	autostart := p.Autostart
	var autostop fly.MachineAutostop
	switch p.Autostop {
	case "stop":
		autostop = fly.MachineAutostopStop
	case "suspend":
		autostop = fly.MachineAutostopSuspend
	default:
		autostop = fly.MachineAutostopOff
	}
	conc := &fly.MachineServiceConcurrency{Type: p.ConcurrencyType, SoftLimit: p.SoftLimit, HardLimit: p.HardLimit}
	cfg := &fly.MachineConfig{
		Env:   map[string]string{"PRIMARY_REGION": p.Region},
		Guest: &fly.MachineGuest{CPUKind: p.CPUKind, CPUs: p.CPUs, MemoryMB: p.MemoryMB},
		Image: fmt.Sprintf("registry.fly.io/%s:%s", p.Image, p.Tag),
		Metadata: map[string]string{
			"fly_platform_version": "v2",
			"fly_process_group":    p.ProcessGroup,
			"fly_release_version":  fmt.Sprint(release),
			"fly_release_id":       fmt.Sprintf("rel_%d", release),
			"fly_flyctl_version":   "0.3.209",
		},
		Restart: &fly.MachineRestart{Policy: fly.MachineRestartPolicyOnFailure, MaxRetries: p.RestartRetries},
		Services: []fly.MachineService{{
			Protocol: "tcp", InternalPort: p.InternalPort,
			Autostop: &autostop, Autostart: &autostart, MinMachinesRunning: intp(p.MinRunning),
			Ports: []fly.MachinePort{
				{Port: intp(80), Handlers: []string{"http"}, ForceHTTPS: true},
				{Port: intp(443), Handlers: []string{"http", "tls"}},
			},
			Concurrency: conc,
			Checks: []fly.MachineServiceCheck{{
				Type: strp("http"), HTTPPath: strp(p.HealthPath), HTTPMethod: strp("GET"),
				Interval: &fly.Duration{Duration: 15 * time.Second}, Timeout: &fly.Duration{Duration: 2 * time.Second},
				GracePeriod: &fly.Duration{Duration: 10 * time.Second},
			}},
		}},
		StopConfig: &fly.StopConfig{Timeout: &fly.Duration{Duration: p.KillTimeout}, Signal: strp("SIGINT")},
		Schedule:   p.Schedule,
	}
	for k, v := range p.Env {
		cfg.Env[k] = v
	}
	if p.SwapMB > 0 {
		cfg.Init.SwapSizeMB = intp(p.SwapMB)
	}
	if p.HardLimit == 0 {
		conc.HardLimit = 0
	}
	return cfg
}

func strp(v string) *string { return &v }
