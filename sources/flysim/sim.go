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

	"github.com/flywake/flywake/sources/flysim/gate"
	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/metrics"
	"github.com/flywake/flywake/sources/flysim/proxy"
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
	EventsKept  int           // events kept per machine; default 5, as Fly keeps
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
	// sleeping machine. Fly's docs leave it open; a wake test observed none
	// (502 after 30 s), so the default is false.
	ForceInstanceWakes bool
	// AutostopInterval is the proxy's autostop pass ("every few minutes",
	// platform time). Default 5m.
	AutostopInterval time.Duration
	// HostDrains is how often Fly drains a host and moves a stopped machine
	// off it (platform time, on average): its old version reads migrated.
	// Fly does this on its own schedule; default 12h, < 0 never.
	HostDrains time.Duration
	// Unlived: New lives none of its history; the platform stands at the
	// history's start, and (with Frozen) AdvanceTo lives it a step at a
	// time, so a recorder can watch the day the seed makes (the demo's
	// recording). The same seed lives the same day either way.
	Unlived bool
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
	if o.HostDrains == 0 {
		o.HostDrains = 12 * time.Hour
	}
}

// Sim is one running simulated platform: the Machines API's store, the
// proxy in front of it, the logs and metrics they write, and the gate every
// API request passes, on one scheduler.
type Sim struct {
	opts    Options
	sched   *sched.Scheduler // its lock guards the world: apps, machines, the proxy
	clock   *Clock
	store   *machines.Store
	px      *proxy.Proxy
	logs    *logs.Store
	metrics *metrics.Store
	gate    *gate.Gate // the API's token, counters, faults and rate limits
	started bool       // Start ran: history can no longer be lived at once (under the lock)

	closing  chan struct{}
	loopDone chan struct{}
	closeOne sync.Once

	apiMu   sync.Mutex   // guards api and paused (Pause/Resume swap the server)
	api     *http.Server // nil before Start and while paused
	apiAddr string       // the API's bound address, kept across Pause/Resume
	paused  bool
}

// Clock is the platform's virtual clock (sched.Clock).
type Clock = sched.Clock

// New builds a platform and lives through its history; Start serves it.
func New(opts Options) *Sim {
	opts.defaults()
	s := &Sim{
		opts:     opts,
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
	s.store = machines.New(machines.Config{Seed: opts.Seed, Org: opts.Org, Region: s.apiRegion(), EventsKept: opts.EventsKept,
		Wall: opts.Wall, Sched: s.sched, Logs: s.logs, Gate: s.gate, Closing: s.closing})
	s.sched.Lock()
	for _, p := range opts.Apps {
		s.store.AddApp(p, begin, end)
	}
	if opts.HostDrains > 0 {
		s.store.DrainHosts(begin, opts.HostDrains)
	}
	s.px = proxy.New(proxy.Config{Seed: opts.Seed, NoTraffic: opts.NoTraffic, ProxyPatience: opts.ProxyPatience,
		QueuePatience: opts.QueuePatience, ForceInstanceWakes: opts.ForceInstanceWakes,
		AutostopInterval: opts.AutostopInterval, Sched: s.sched, Store: s.store, Metrics: s.metrics}, begin, end)
	s.sched.Unlock()
	if !opts.Unlived {
		s.sched.FastForward(end)
	}
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
	if err := s.px.Listen(); err != nil {
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
		s.px.Close(ctx)
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
func (s *Sim) Apps() []string { return s.store.Names() }

func (s *Sim) now() time.Time { return s.clock.Now() }

// SetFault installs f on an endpoint: an action name as in APICalls
// ("list", "get", "start", "exec", "logs", "prom", ...) or "*" for every
// endpoint without a fault of its own.
func (s *Sim) SetFault(endpoint string, f Fault) { s.gate.SetFault(endpoint, f) }

// ClearFaults removes every injected fault.
func (s *Sim) ClearFaults() { s.gate.ClearFaults() }

// APICalls counts requests per "action:id" since start (or the last
// ResetAPICalls): e.g. "list:sleepy-api", "get:<machine id>",
// "start:<machine id>", "apps:demo-org", "logs:<app>", "prom:<org>".
// Actions: apps, app, app_create, app_delete, list, create, get, update,
// destroy, start, stop, suspend, restart, signal, cordon, uncordon, wait,
// exec, lease_show, lease_create, lease_release, events, versions,
// metadata_show, metadata_update, metadata_delete, ps, volumes, volume,
// volume_create, volume_update, volume_extend, volume_delete,
// volume_snapshot, volume_snapshots, secrets, secret, secret_set,
// secret_delete, secrets_update, regions, graphql, the web API's uiex_*
// (orgs, org, build, build_finish, releases, release_current,
// release_create, release_update), logs, prom, unknown.
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

// Oddity is one way a machine's entry in a machines answer can be odd
// (Fault.Odd).
type Oddity = gate.Oddity

// The oddities Fault.Odd plays.
const (
	OddNull          = gate.OddNull
	OddUndecodable   = gate.OddUndecodable
	OddNoConfig      = gate.OddNoConfig
	OddNoRelease     = gate.OddNoRelease
	OddUntimedEvents = gate.OddUntimedEvents
	OddBarePayloads  = gate.OddBarePayloads
	OddChecks        = gate.OddChecks
)

// APIStat is what the platform saw of one (action, id) pair.
type APIStat = gate.APIStat
