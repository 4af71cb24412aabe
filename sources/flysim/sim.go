package flysim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/metrics"
	"github.com/flywake/flywake/sources/flysim/rng"
	"github.com/flywake/flywake/sources/flysim/sched"
)

// Options configure a simulated platform. The zero value is the demo.
type Options struct {
	Addr        string        // API listen address; default 127.0.0.1:0
	Speed       float64       // platform seconds per wall second; default 1
	Seed        uint64        // for boot times, ids and traffic; default 1
	Token       string        // the accepted API token; default: random per run
	Org         string        // default DemoOrg
	EventsKept  int           // events kept per machine; default 5 (seed 001)
	History     time.Duration // platform time lived before start; default 24h; <0 = none
	Apps        []AppProfile  // default DemoApps()
	MaxLogLines int           // per app; default 400,000
	// LogsPageSize is the most lines one logs API page returns after a
	// next_token. Fly doesn't document its page size; default 1000.
	LogsPageSize int
	// Wall is the wall clock (tests may replace it). Default time.Now.
	Wall func() time.Time
	// NoTraffic turns off the apps' background load (contract tests want a
	// quiet platform).
	NoTraffic bool
	// ProxyPatience is how long the edge holds a request for a machine it
	// woke before failing it with 502 (platform time; Fly documents no
	// value). Default 30s.
	ProxyPatience time.Duration
	// QueuePatience is how long a request queued over every machine's hard
	// limit waits before the edge answers 503 (platform time). Default 10s.
	QueuePatience time.Duration
	// ForceInstanceWakes makes a fly-force-instance-id request wake its
	// sleeping machine. Fly's docs leave it open; the brief observed no wake
	// (502 after 30 s), so the default is false.
	ForceInstanceWakes bool
	// AutostopInterval is the proxy's autostop pass ("every few minutes",
	// platform time). Default 5m.
	AutostopInterval time.Duration
	// Frozen keeps the platform's clock at the end of its history after
	// Start: the API answers, but nothing moves. A one-shot look (status
	// --demo) then sees exactly the platform the seed made, however long its
	// calls take.
	Frozen bool
}

func (o *Options) defaults() {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Org == "" {
		o.Org = DemoOrg
	}
	if o.EventsKept <= 0 {
		o.EventsKept = 5
	}
	if o.History == 0 {
		o.History = 24 * time.Hour
	}
	if o.History < 0 {
		o.History = 0
	}
	if o.Apps == nil {
		o.Apps = DemoApps()
	}
	if o.MaxLogLines <= 0 {
		o.MaxLogLines = 400_000
	}
	if o.Wall == nil {
		o.Wall = time.Now
	}
	if o.ProxyPatience <= 0 {
		o.ProxyPatience = 30 * time.Second
	}
	if o.QueuePatience <= 0 {
		o.QueuePatience = 10 * time.Second
	}
	if o.AutostopInterval <= 0 {
		o.AutostopInterval = 5 * time.Minute
	}
	if o.LogsPageSize <= 0 {
		o.LogsPageSize = 1000
	}
}

// Sim is one running simulated platform.
type Sim struct {
	opts  Options
	sched *sched.Scheduler // its lock guards the world: apps, machines, the proxy
	clock *Clock

	ids      *rand.Rand // event and log line ids (an app's own draws are in app.rng)
	rng      *rand.Rand // draws of API-driven changes (created machines, migrations, pushed images)
	apps     map[string]*app
	appOrder []string
	logs     *logs.Store
	metrics  *metrics.Store
	ips      int
	started  bool // Start ran: history can no longer be lived at once

	closing  chan struct{}
	loopDone chan struct{}
	closeOne sync.Once

	apiMu   sync.Mutex   // guards api and paused (Pause/Resume swap the server)
	api     *http.Server // nil before Start and while paused
	apiAddr string       // the API's bound address, kept across Pause/Resume
	paused  bool
	extras  []func(ctx context.Context) error // shutdown hooks (edges)
	hooks   simHooks
	px      *proxy     // the edge proxy and background traffic (edge.go, traffic.go)
	gate    *gate.Gate // the API's token, counters, faults and rate limits
}

// simHooks let the traffic and edge parts of the platform plug into the core
// without the core knowing them.
type simHooks struct {
	onServing []func(m *machine)
}

// Clock is the platform's virtual clock (sched.Clock).
type Clock = sched.Clock

// New builds a platform and lives through its history; Start serves it.
func New(opts Options) *Sim {
	opts.defaults()
	s := &Sim{
		opts:     opts,
		ids:      rng.Stream(opts.Seed, "ids"),
		rng:      rng.Stream(opts.Seed, "platform"),
		apps:     map[string]*app{},
		logs:     logs.NewStore(opts.MaxLogLines),
		metrics:  metrics.NewStore(26 * time.Hour),
		closing:  make(chan struct{}),
		loopDone: make(chan struct{}),
	}
	if s.opts.Token == "" {
		s.opts.Token = "flysim_" + rng.Hex(rand.New(rand.NewPCG(uint64(opts.Wall().UnixNano()), 7)), 32)
	}
	s.gate = gate.New(gate.Config{Token: s.opts.Token, Seed: opts.Seed, Region: s.apiRegion(), Now: s.now, Wall: opts.Wall})
	// The history ends on a whole minute: the metrics count per minute, so
	// the same seed fills the same buckets whatever second it started in.
	end := opts.Wall().Truncate(time.Minute)
	begin := end.Add(-opts.History)
	s.sched = sched.New(opts.Wall, opts.Speed, begin)
	s.clock = s.sched.Clock()
	s.sched.Lock()
	for _, p := range opts.Apps {
		s.addApp(p, begin, end)
	}
	s.sched.Unlock()
	s.sched.Lock()
	s.initProxy(begin, end)
	s.sched.Unlock()
	s.sched.FastForward(end)
	return s
}

// Start serves the Machines API (and, once added, the edges) and starts the
// platform's clock. It returns once the listeners are bound.
func (s *Sim) Start() error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("flysim: listen %s: %w", s.opts.Addr, err)
	}
	s.apiMu.Lock()
	s.apiAddr = ln.Addr().String()
	s.apiMu.Unlock()
	s.sched.Lock()
	s.started = true
	s.sched.Unlock()
	if !s.opts.Frozen {
		s.sched.Pace()
	}
	go func() {
		defer close(s.loopDone)
		s.sched.Loop(s.closing)
	}()
	if err := s.startEdges(); err != nil {
		_ = ln.Close()
		return err
	}
	s.apiMu.Lock()
	s.serveAPI(ln)
	s.apiMu.Unlock()
	return nil
}

// serveAPI serves the Machines API on ln. Callers hold apiMu.
func (s *Sim) serveAPI(ln net.Listener) {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	s.api = srv
	go func() { _ = srv.Serve(ln) }()
}

// Close stops the listeners and the clock. Safe to call more than once.
func (s *Sim) Close() error {
	var err error
	s.closeOne.Do(func() {
		close(s.closing)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.apiMu.Lock()
		started, srv := s.apiAddr != "", s.api
		s.api = nil
		s.apiMu.Unlock()
		if srv != nil {
			err = srv.Shutdown(ctx)
			if errors.Is(err, context.DeadlineExceeded) {
				err = srv.Close()
			}
		}
		if started {
			<-s.loopDone
		}
		for _, stop := range s.extras {
			_ = stop(ctx)
		}
	})
	return err
}

// URL is the Machines API base URL (FLY_FLAPS_BASE_URL); the logs and
// Prometheus APIs are served on the same address (FLY_API_BASE_URL).
// It stays the same across Pause and Resume.
func (s *Sim) URL() string {
	s.apiMu.Lock()
	defer s.apiMu.Unlock()
	return "http://" + s.apiAddr
}

// Token is the API token the platform accepts.
func (s *Sim) Token() string { return s.opts.Token }

// Org is the simulated organization's slug.
func (s *Sim) Org() string { return s.opts.Org }

// Clock is the platform's virtual clock.
func (s *Sim) Clock() *Clock { return s.clock }

// Apps lists the app names in a stable order.
func (s *Sim) Apps() []string {
	s.sched.Lock()
	defer s.sched.Unlock()
	return append([]string(nil), s.appOrder...)
}

func (s *Sim) now() time.Time { return s.clock.Now() }

func (s *Sim) hasApp(name string) bool {
	s.sched.Lock()
	defer s.sched.Unlock()
	return s.apps[name] != nil
}

func (s *Sim) onServing(m *machine) {
	for _, f := range s.hooks.onServing {
		f(m)
	}
}

// addApp creates an app and its machines as they stood when history begins.
func (s *Sim) addApp(p AppProfile, begin, end time.Time) {
	a := &app{p: p, rng: rng.Stream(s.opts.Seed, "app/"+p.Name), byID: map[string]*machine{}}
	a.id = rng.Hex(a.rng, 12)
	a.digest = "sha256:" + rng.Hex(a.rng, 64)
	deploy := end.Add(-p.DeployedAgo)
	release := p.Release
	if deploy.After(begin) {
		release-- // the current release rolls out during the history
	}
	a.releaseImage(release, a.digest)
	a.pushDemoReleases()
	groups := append([]RegionGroup{{Region: p.Region, Machines: p.Machines, InitialAwake: p.InitialAwake}}, p.MoreRegions...)
	for _, g := range groups {
		for i := 0; i < g.Machines; i++ {
			m := s.newMachine(a, g.Region, release, deploy.Add(-time.Duration(len(a.machines)+1)*time.Minute))
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
	a.deployedAt = deploy
	if deploy.After(begin) {
		s.sched.At(deploy, func() { s.deploy(a, p.Release) })
	}
	s.apps[p.Name] = a
	s.appOrder = append(s.appOrder, p.Name)
}

func (s *Sim) newMachine(a *app, region string, release int, created time.Time) *machine {
	p := &a.p
	s.ips++
	m := &machine{
		app: a, id: rng.MachineID(a.rng), name: rng.MachineName(a.rng), region: region,
		instanceID: rng.ULID(a.rng, created), release: release,
		privateIP: fmt.Sprintf("fdaa:0:18:a7b:%x:%x:%x:2", 100+s.ips, a.rng.IntN(0xffff), a.rng.IntN(0xffff)),
		state:     "created", createdAt: created, updatedAt: created, changed: make(chan struct{}),
	}
	m.cfg = machineConfig(p, release)
	m.image = a.current
	m.events = []event{{ID: rng.ULID(s.ids, created), Type: "launch", Status: "created", Source: SourceUser, Time: created}}
	return m
}

// bootInstantly and sleepInstantly set up a machine's state at the start of
// history without replaying a boot (its events are dated before history).
func (s *Sim) bootInstantly(m *machine) {
	t := s.now().Add(-time.Duration(1+m.app.rng.IntN(50)) * time.Minute)
	m.events = append([]event{{ID: rng.ULID(s.ids, t), Type: "start", Status: "started", Source: SourceFlyd, Time: t}}, m.events...)
	m.state, m.serving, m.servingSince, m.checkAt, m.updatedAt = "started", true, t, t, t
}

func (s *Sim) sleepInstantly(m *machine) {
	t := s.now().Add(-time.Duration(10+m.app.rng.IntN(100)) * time.Minute)
	m.events = append([]event{{ID: rng.ULID(s.ids, t.Add(-time.Minute)), Type: "start", Status: "started", Source: SourceFlyd, Time: t.Add(-time.Minute)}}, m.events...)
	if m.app.p.Autostop == "suspend" && len(SuspendBlockers(m.cfg)) == 0 {
		m.events = append([]event{{ID: rng.ULID(s.ids, t), Type: "suspend", Status: "suspended", Source: SourceFlyd, Time: t}}, m.events...)
		m.state, m.snapshot = "suspended", true
	} else {
		m.events = append([]event{{ID: rng.ULID(s.ids, t), Type: "exit", Status: "stopped", Source: SourceFlyd, Time: t,
			Exit: &fly.MachineExitEvent{GuestSignal: -1, Signal: -1, RequestedStop: true, ExitedAt: t.UTC()}}}, m.events...)
		m.state = "stopped"
	}
	m.stoppedAt, m.updatedAt = t, t
}

// deploy rolls a new release onto every machine: a new instance id, new
// metadata, and a restart of the machines that were running.
func (s *Sim) deploy(a *app, release int) {
	a.digest = "sha256:" + rng.Hex(a.rng, 64)
	a.deployedAt = s.now()
	a.releaseImage(release, a.digest)
	for _, m := range a.machines {
		if m.state == "destroyed" || m.state == "destroying" {
			continue
		}
		wasUp := m.state != "stopped" && m.state != "suspended"
		s.newRun(m)
		s.retireVersion(m, "replaced")
		m.release = release
		m.cfg = machineConfig(&a.p, release)
		s.mountVolume(m)
		m.image = a.current
		m.instanceID = rng.ULID(a.rng, s.now())
		m.serving, m.snapshot = false, false
		s.setState(m, "replacing")
		s.addEvent(m, "update", "replacing", SourceUser, nil, 0)
		mm := m
		s.sched.After(2*time.Second, func() {
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
func machineConfig(p *AppProfile, release int) *fly.MachineConfig {
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

// SetFault installs f on an endpoint: an action name as in APICalls
// ("list", "get", "start", "exec", "logs", "prom", ...) or "*" for every
// endpoint without a fault of its own.
func (s *Sim) SetFault(endpoint string, f Fault) { s.gate.SetFault(endpoint, f) }

// ClearFaults removes every injected fault.
func (s *Sim) ClearFaults() { s.gate.ClearFaults() }

// APICalls counts requests per "action:id" since start (or the last
// ResetAPICalls): e.g. "list:sleepy-api", "get:<machine id>",
// "start:<machine id>", "apps:demo-org", "logs:<app>", "prom:<org>".
// Actions: apps, app, list, create, get, update, destroy, start, stop,
// suspend, restart, signal, cordon, uncordon, wait, exec, lease_show,
// lease_create, lease_release, events, versions, metadata_show,
// metadata_update, metadata_delete, ps, volumes, volume, volume_snapshots,
// secrets, regions, logs, prom, unknown.
func (s *Sim) APICalls() map[string]int { return s.gate.APICalls() }

// APIStats is APICalls with the 429s and the busiest wall second per key.
func (s *Sim) APIStats() map[string]APIStat { return s.gate.APIStats() }

// APICallKeys lists the keys of APICalls in order, for stable reports.
func (s *Sim) APICallKeys() []string { return s.gate.APICallKeys() }

// ResetAPICalls zeroes the counters (the rate-limit buckets are kept).
func (s *Sim) ResetAPICalls() { s.gate.ResetAPICalls() }

// SetRateLimits turns the Machines API's rate limits on (the default) or
// off, for benchmarks that measure the API rather than its limits.
func (s *Sim) SetRateLimits(on bool) { s.gate.SetRateLimits(on) }

// Fault is a misbehaviour injected into one endpoint (gate.Fault).
type Fault = gate.Fault

// APIStat is what the platform saw of one (action, id) pair.
type APIStat = gate.APIStat
