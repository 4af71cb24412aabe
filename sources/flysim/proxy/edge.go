package proxy

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/metrics"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/rng"
	"github.com/flywake/flywake/sources/flysim/sched"
)

// The edge: one loopback listener per app standing in for
// https://<app>.fly.dev. It routes by route.go's rules, counts what it does in
// the fly_edge / fly_app series and logs like Fly's proxy. Waiting (for a
// machine to boot, for the queue) happens outside the lock.

const (
	edgeServer = "Fly/8c4ee4b2 (2026-11-20)"
	// MachineIDHeader is the response header in which the simulated apps echo
	// the machine that answered, as a real app echoing FLY_MACHINE_ID would.
	MachineIDHeader = "Fly-Machine-Id"
	// ForceInstanceHeader pins a request to one machine, with no fallback.
	ForceInstanceHeader = "fly-force-instance-id"
)

// Proxy error messages, as Fly's proxy logs them.
const (
	msgWakeTimeout    = "[PM03] could not wake up machine due to a timeout requesting from the machines API"
	msgNoCandidate    = "[PR04] could not find a good candidate within 40 attempts at load balancing"
	msgRecentlyStop   = "machine was recently stopped and is unavailable to service request"
	msgClosedInFlight = "could not complete HTTP request to instance: connection closed before message completed"
)

// Config is what the proxy needs of its platform.
type Config struct {
	Seed uint64
	// NoTraffic turns off the apps' background load.
	NoTraffic bool
	// ProxyPatience is how long a request is held for a machine the proxy
	// woke; QueuePatience how long one waits over every hard limit.
	ProxyPatience, QueuePatience time.Duration
	// ForceInstanceWakes makes a fly-force-instance-id request wake its
	// sleeping machine.
	ForceInstanceWakes bool
	// AutostopInterval is the time between autostop passes.
	AutostopInterval time.Duration
	Sched            *sched.Scheduler
	Store            *machines.Store
	Metrics          *metrics.Store
}

// Proxy is Fly's proxy in front of the org's machines: an edge per app,
// the apps' background load, and autostop. Its state is guarded by the
// scheduler's lock (its routing decisions are events like the machines'
// own); waiting, for a boot or in the queue, releases it.
type Proxy struct {
	opts    Config
	sched   *sched.Scheduler
	clock   *sched.Clock
	store   *machines.Store
	metrics *metrics.Store
	// outside draws the service times and request ids of requests from
	// outside (the edge listeners), apart from the background load's
	// streams: a wake test never shifts the traffic the seed lays out.
	outside   *rand.Rand
	acc       *accessLog // the clients and hosts in access lines
	order     []*appEdge // in the store's order
	byApp     map[string]*appEdge
	mach      map[*machines.Machine]*machLoad
	edges     map[string]string // app → edge URL, once started
	servers   map[string]*http.Server
	listening bool // Listen ran: apps created later get their edge at once
	// seen is candidatesNear's slice, reused: a day of history asks for
	// the candidates millions of times, and each caller is done with them
	// before the next asks (all under the world's lock).
	seen []candidate
}

// appEdge is one app's edge.
type appEdge struct {
	a   *machines.App
	p   *profile.App
	rng *rand.Rand // the background load's arrivals and fates (stream "traffic/<app>")
	// lines draws what the sampled log lines say (paths, sizes, service
	// times), so new or different lines never change the load's figures.
	lines *rand.Rand
	plan  *trafficPlan // nil: no background load
	loads []*machLoad  // loadsOf's list, in a.Machines()' order
	// freed is closed (and replaced) whenever capacity may have freed up, so
	// queued outside requests re-route without polling; only once a request
	// has taken it to wait on (freedTaken): the background load frees
	// capacity every tick, mostly with nobody waiting.
	freed      chan struct{}
	freedTaken bool
	queue      []cohort // background requests queued at the edge, oldest first
	stats      TrafficStats
	// errLogged throttles sampled proxy error lines: code → last tick logged.
	errLogged map[string]time.Time
}

// machLoad is the edge's view of one machine's load.
type machLoad struct {
	m         *machines.Machine // whose load this is
	inflight  int               // outside requests being served or held for it
	closeWait int               // sockets whose client gave up before the app reached them (backlog apps)
	lam       float64           // background arrivals per second routed to it this tick
	bg        float64           // background requests in flight (fluid)
	held      []cohort          // background requests held while it boots
	heldN     int
	backlog   []*backlogEntry // the app's own accept queue (backlog apps)
	live      int             // background requests in backlog whose client still waits
	credit    float64         // worker-seconds not yet spent on the backlog
	lastLine  time.Time       // last sampled request line
}

// New puts a proxy in front of the store's apps, as they stand when the
// history begins at begin (it ends at end): their background load is laid
// out and the autostop passes scheduled. Callers hold the lock.
func New(cfg Config, begin, end time.Time) *Proxy {
	px := &Proxy{opts: cfg, sched: cfg.Sched, clock: cfg.Sched.Clock(), store: cfg.Store, metrics: cfg.Metrics,
		outside: rng.Stream(cfg.Seed, "outside"), acc: newAccessLog(cfg.Seed),
		byApp: map[string]*appEdge{}, mach: map[*machines.Machine]*machLoad{}, edges: map[string]string{},
		servers: map[string]*http.Server{}}
	for _, a := range cfg.Store.Apps() {
		ae := px.newEdge(a)
		if !cfg.NoTraffic {
			ae.plan = demoPlan(ae.p, ae.rng, begin, end)
			for _, t := range planArrivals(ae.plan) {
				px.sched.At(t, func() { px.arrive(ae, ClassPoll) })
			}
		}
	}
	cfg.Store.SetEdge(px)
	// Passes fall half an interval off the history's end, so the platform
	// never starts on the instant of a pass.
	px.sched.At(begin.Add(cfg.AutostopInterval/2), px.autostopPass)
	if !cfg.NoTraffic {
		px.sched.At(begin.Add(time.Second), px.trafficTick)
	}
	return px
}

func (px *Proxy) now() time.Time { return px.clock.Now() }

// newEdge is a's edge, with no background load of its own.
func (px *Proxy) newEdge(a *machines.App) *appEdge {
	name := a.Name()
	ae := &appEdge{a: a, p: a.Profile(), rng: rng.Stream(px.opts.Seed, "traffic/"+name),
		lines: rng.Stream(px.opts.Seed, "lines/"+name), freed: make(chan struct{}), errLogged: map[string]time.Time{}}
	px.order = append(px.order, ae)
	px.byApp[name] = ae
	return ae
}

func planArrivals(pl *trafficPlan) []time.Time {
	if pl == nil {
		return nil
	}
	return pl.arrivals
}

func (px *Proxy) loadOf(m *machines.Machine) *machLoad {
	l := px.mach[m]
	if l == nil {
		l = &machLoad{m: m}
		px.mach[m] = l
	}
	return l
}

// loadsOf is the load of each of the app's machines, in a.Machines()'
// order. The edge keeps the list between calls, so a traffic tick does not
// look every machine up in px.mach again; an entry is looked up afresh
// when another machine took its place (machines come and go).
func (px *Proxy) loadsOf(ae *appEdge) []*machLoad {
	ms := ae.a.Machines()
	if len(ae.loads) != len(ms) {
		ae.loads = make([]*machLoad, len(ms))
	}
	for i, m := range ms {
		if ae.loads[i] == nil || ae.loads[i].m != m {
			ae.loads[i] = px.loadOf(m)
		}
	}
	return ae.loads
}

// proxyLoad is what the proxy counts against a machine's concurrency limits.
func (px *Proxy) proxyLoad(m *machines.Machine) float64 { return px.loadOf(m).proxyLoad() }

func (l *machLoad) proxyLoad() float64 {
	return float64(l.inflight) + l.bg + float64(l.heldN) + float64(liveBacklog(l))
}

// candidates is how the proxy sees the app's machines from the edge in its
// primary region, where the background load's clients are.
func (px *Proxy) candidates(ae *appEdge) []candidate {
	return px.candidatesNear(ae, ae.a.Profile().Region)
}

// candidatesNear sees them from the edge in region near.
func (px *Proxy) candidatesNear(ae *appEdge, near string) []candidate {
	ms, loads := ae.a.Machines(), px.loadsOf(ae)
	cs := slices.Grow(px.seen[:0], len(ms))[:len(ms)]
	px.seen = cs
	for i, m := range ms {
		cs[i] = candidateOf(m, loads[i])
		cs[i].Far = m.Region() != near
	}
	return cs
}

// candidate is how the proxy sees m, by its own config's service.
func (px *Proxy) candidate(m *machines.Machine) candidate { return candidateOf(m, px.loadOf(m)) }

// candidateOf is m as the proxy sees it, l being its load.
func candidateOf(m *machines.Machine, l *machLoad) candidate {
	svc, ok := m.Service()
	return candidate{State: m.State(), Serving: m.Serving(), Load: l.proxyLoad(), StoppedAt: m.StoppedAt(), Cordoned: m.Cordoned(),
		Lim: limits{Soft: svc.Soft, Hard: svc.Hard, Autostart: svc.Autostart}, NoService: !ok, Leaving: m.Leaving()}
}

// PreferRegionHeader asks the edge to route as if the request came in at
// that region's edge (Fly's fly-prefer-region; a comma list, first match
// wins): its machines are the nearest ones.
const PreferRegionHeader = "fly-prefer-region"

// edgeRegion is the region whose edge a request is routed from: the first
// region of a fly-prefer-region list the app has machines in, else the
// primary.
func edgeRegion(a *machines.App, prefer string) string {
	for _, r := range strings.Split(prefer, ",") {
		r = strings.ToLower(strings.TrimSpace(r))
		for _, m := range a.Machines() {
			if r != "" && m.Region() == r {
				return r
			}
		}
	}
	return a.Profile().Region
}

func (ae *appEdge) signalFreed() {
	if !ae.freedTaken {
		return
	}
	close(ae.freed)
	ae.freed, ae.freedTaken = make(chan struct{}), false
}

// waitFreed is the channel signalFreed closes next, for a request to wait on.
func (ae *appEdge) waitFreed() <-chan struct{} {
	ae.freedTaken = true
	return ae.freed
}

// Listen binds every app's edge listener on 127.0.0.1 and serves it.
func (px *Proxy) Listen() error {
	px.sched.Lock()
	defer px.sched.Unlock()
	px.listening = true
	for _, ae := range px.order {
		if err := px.listen(ae); err != nil {
			return err
		}
	}
	return nil
}

// listen binds ae's listener and serves it. Callers hold the lock.
func (px *Proxy) listen(ae *appEdge) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("flysim: edge for %s: %w", ae.p.Name, err)
	}
	px.edges[ae.p.Name] = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { px.serveEdge(ae, w, r) }),
		ReadHeaderTimeout: 10 * time.Second}
	px.servers[ae.p.Name] = srv
	go func() { _ = srv.Serve(ln) }()
	return nil
}

// Close shuts the edge listeners down.
func (px *Proxy) Close(ctx context.Context) {
	px.sched.Lock()
	servers := make([]*http.Server, 0, len(px.servers))
	for _, srv := range px.servers {
		servers = append(servers, srv)
	}
	px.sched.Unlock()
	for _, srv := range servers {
		if err := srv.Shutdown(ctx); errors.Is(err, context.DeadlineExceeded) {
			_ = srv.Close()
		}
	}
}

// EdgeURL is the base URL of app's edge (its https://<app>.fly.dev), or ""
// before Listen or for an unknown app.
func (px *Proxy) EdgeURL(app string) string {
	px.sched.Lock()
	defer px.sched.Unlock()
	return px.edges[app]
}

// Edges maps every app to its edge URL (empty before Listen).
func (px *Proxy) Edges() map[string]string {
	px.sched.Lock()
	defer px.sched.Unlock()
	out := map[string]string{}
	for k, v := range px.edges {
		out[k] = v
	}
	return out
}

// The store's view of the proxy (machines.Edge).

// Load is the proxy's connections to m.
func (px *Proxy) Load(m *machines.Machine) (inflight, closeWait int) {
	l := px.loadOf(m)
	return l.inflight, l.closeWait
}

// Serving serves the requests held for m (it began serving).
func (px *Proxy) Serving(m *machines.Machine) { px.releaseHeld(m) }

// AppAdded gives a new app its edge (served at once once Listen ran).
func (px *Proxy) AppAdded(a *machines.App) {
	ae := px.newEdge(a)
	if px.listening {
		_ = px.listen(ae) // a loopback listener that cannot bind leaves the app without an edge URL
	}
}

// AppRemoved takes a deleted app's edge down.
func (px *Proxy) AppRemoved(a *machines.App) {
	name := a.Name()
	px.order = slices.DeleteFunc(px.order, func(ae *appEdge) bool { return ae.a == a })
	delete(px.byApp, name)
	delete(px.edges, name)
	if srv := px.servers[name]; srv != nil {
		_ = srv.Close()
		delete(px.servers, name)
	}
}

// Routable re-routes a's queued requests.
func (px *Proxy) Routable(a *machines.App) {
	if ae := px.byApp[a.Name()]; ae != nil {
		ae.signalFreed()
	}
}

// edgeFailure is a response the proxy itself sends.
type edgeFailure struct {
	status  int
	code    string // PM03, PR04, PM11, "" for a connection error
	msg     string
	machine *machines.Machine // the machine it concerns, if any
}

func (px *Proxy) serveEdge(ae *appEdge, w http.ResponseWriter, r *http.Request) {
	px.sched.Lock()
	reqID := rng.ULID(px.outside, px.now()) + "-" + ae.p.Region
	px.sched.Unlock()
	h := w.Header()
	h.Set("fly-request-id", reqID)
	h.Set("server", edgeServer)
	h.Set("via", "1.1 fly.io")

	m, run, fail := px.acquire(r.Context(), ae, r.Header.Get(ForceInstanceHeader), r.Header.Get(PreferRegionHeader))
	if fail == nil {
		var status int
		var body string
		client, host := outsideRequester(r)
		status, body, fail = px.serveOn(r.Context(), ae, m, run, r.Method, r.URL.Path, client, host)
		if fail == nil {
			h.Set(MachineIDHeader, m.ID())
			writeAppResponse(w, ae.p.Name, r.URL.Path, status, body)
			return
		}
	}
	if fail.status == 0 { // the client went away: nobody to answer
		return
	}
	px.sched.Lock()
	px.metrics.AddEdge(ae.p.Name, ae.p.Region, fail.status, px.now(), 1)
	px.proxyError(ae, fail, r.Method, r.URL.Path, false)
	px.sched.Unlock()
	w.Header().Set("content-type", "text/plain; charset=utf-8")
	w.WriteHeader(fail.status)
}

// proxyError logs a proxy error line. sampled lines are throttled to one per
// code per second of platform time (background load); outside requests are
// always logged. Callers hold the lock.
func (px *Proxy) proxyError(ae *appEdge, f *edgeFailure, method, path string, sampled bool) {
	now := px.now()
	if sampled {
		if last, ok := ae.errLogged[f.code]; ok && now.Sub(last) < time.Second {
			return
		}
		ae.errLogged[f.code] = now
	}
	ln := logs.Line{App: ae.p.Name, Region: ae.p.Region, Provider: "proxy",
		Level: "error", Message: f.msg, ErrorCode: f.code, ErrorMsg: strings.TrimSpace(strings.TrimPrefix(f.msg, "["+f.code+"]")),
		Method: method, Path: path, Status: f.status}
	if f.machine != nil {
		ln.Machine, ln.Region = f.machine.ID(), f.machine.Region()
	}
	px.store.LogLine(ln)
}

// acquire finds the machine that answers the request and counts the request
// against it, holding the request while a machine boots and queueing it when
// every machine is at its hard limit. It returns the machine's run at the
// time it began serving (a crash later cuts the request off).
func (px *Proxy) acquire(ctx context.Context, ae *appEdge, forced, prefer string) (*machines.Machine, uint64, *edgeFailure) {
	wallNow := time.Now()
	patience := wallNow.Add(px.clock.WallDuration(px.opts.ProxyPatience))
	var queueDeadline time.Time
	var held *machines.Machine // counted in its inflight while we wait for it
	px.sched.Lock()
	defer px.sched.Unlock()
	release := func() {
		if held != nil {
			px.loadOf(held).inflight--
			ae.signalFreed()
			held = nil
		}
	}
	for {
		if held != nil {
			if held.State() == "started" && held.Serving() {
				return held, held.Run(), nil
			}
			if !px.sched.Wait(ctx, held.Changed(), patience) {
				m := held
				release()
				if ctx.Err() != nil {
					return nil, 0, &edgeFailure{}
				}
				return nil, 0, &edgeFailure{status: http.StatusBadGateway, code: "PM03", msg: msgWakeTimeout, machine: m}
			}
			continue
		}
		now := px.now()
		a := ae.a
		var kind routeKind
		var m *machines.Machine
		if forced != "" {
			if m = a.Machine(forced); m != nil {
				c := px.candidate(m)
				c.Cordoned = false // a forced request ignores cordons
				kind = forcedRoute(c, px.opts.ForceInstanceWakes)
			}
		} else {
			r := chooseRoute(px.candidatesNear(ae, edgeRegion(a, prefer)), now)
			kind = r.Kind
			if r.Index >= 0 {
				m = a.Machines()[r.Index]
			}
			if r.Skipped >= 0 {
				px.logRecentlyStopped(ae, a.Machines()[r.Skipped], false)
			}
		}
		switch kind {
		case routeServe:
			px.loadOf(m).inflight++
			return m, m.Run(), nil
		case routeWake:
			var err error
			px.sched.Instant(func() { _, err = px.store.Start(m, machines.SourceProxy) }) // its start event and boot share one time
			if err != nil {
				kind = routeNone
				break
			}
			fallthrough
		case routeHold:
			px.loadOf(m).inflight++
			held = m
			continue
		case routeQueue:
			if queueDeadline.IsZero() {
				queueDeadline = time.Now().Add(px.clock.WallDuration(px.opts.QueuePatience))
			}
			if !px.sched.Wait(ctx, ae.waitFreed(), queueDeadline) {
				if ctx.Err() != nil {
					return nil, 0, &edgeFailure{}
				}
				return nil, 0, &edgeFailure{status: http.StatusServiceUnavailable, code: "PR04", msg: msgNoCandidate}
			}
			continue
		}
		// routeNone: nothing can take it; the proxy keeps retrying until its
		// patience runs out.
		tick := time.Now().Add(px.clock.WallDuration(time.Second))
		if tick.After(patience) {
			tick = patience
		}
		px.sched.Wait(ctx, ae.waitFreed(), tick)
		if ctx.Err() != nil {
			return nil, 0, &edgeFailure{}
		}
		if !time.Now().Before(patience) {
			if m != nil && now.Sub(m.StoppedAt()) < recentlyStopped && (m.State() == "stopped" || m.State() == "suspended") {
				return nil, 0, &edgeFailure{status: http.StatusBadGateway, code: "PM11", msg: msgRecentlyStop, machine: m}
			}
			return nil, 0, &edgeFailure{status: http.StatusBadGateway, code: "PR04", msg: msgNoCandidate, machine: m}
		}
	}
}

// serveOn lets machine m answer (its inflight already counts the request).
func (px *Proxy) serveOn(ctx context.Context, ae *appEdge, m *machines.Machine, run uint64, method, path, client, host string) (int, string, *edgeFailure) {
	px.sched.Lock()
	p := ae.p
	took := rng.Between(px.outside, p.ResponseTime.Min, p.ResponseTime.Max)
	var done chan struct{}
	if p.Backlog {
		done = px.joinBacklog(m, took)
	}
	px.sched.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			px.sched.Lock()
			px.abandonBacklog(m, done)
			px.loadOf(m).inflight--
			ae.signalFreed()
			px.sched.Unlock()
			return 0, "", &edgeFailure{}
		}
	} else {
		t := time.NewTimer(px.clock.WallDuration(took))
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	px.sched.Lock()
	defer px.sched.Unlock()
	px.loadOf(m).inflight--
	ae.signalFreed()
	now := px.now()
	if m.Run() != run || !m.Serving() {
		return 0, "", &edgeFailure{status: http.StatusBadGateway, msg: msgClosedInFlight, machine: m}
	}
	status, body := appAnswer(m, path)
	px.metrics.AddEdge(p.Name, p.Region, status, now, 1)
	px.metrics.AddApp(p.Name, m.Region(), m.ID(), status, now, 1)
	px.logRequest(m, client, host, method, path, status, len(body), took)
	return status, body, nil
}

// appAnswer is what the machine's app answers on path. A public image
// (nginx) serves its own page on "/" and 404 elsewhere. The demo's apps
// answer 200 on "/", their health path and the endpoints their clients
// poll; 301 to the scanner's probes (on Fly all of them got 301); 404
// elsewhere.
func appAnswer(m *machines.Machine, path string) (int, string) {
	if name, public := m.PublicImage(); public {
		if path == "/" {
			return http.StatusOK, "<!DOCTYPE html>\n<html><head><title>" + name + "</title></head><body><h1>" + name + " is running</h1></body></html>\n"
		}
		return http.StatusNotFound, "<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>\n"
	}
	p := m.App().Profile()
	if path == "/" || path == p.HealthPath {
		return http.StatusOK, `{"status":"ok"}`
	}
	for _, pp := range p.PollPaths {
		if path == pp {
			return http.StatusOK, `{"status":"ok","results":[]}`
		}
	}
	if isScannerProbe(path) {
		return http.StatusMovedPermanently, ""
	}
	return http.StatusNotFound, `{"detail":"Not found."}`
}

func isScannerProbe(path string) bool {
	last := path[strings.LastIndexByte(path, '/')+1:]
	return strings.HasPrefix(last, ".env") || last == "wp-config.php~" || strings.Contains(path, "/actuator/")
}

func writeAppResponse(w http.ResponseWriter, app, path string, status int, body string) {
	switch {
	case status == http.StatusMovedPermanently:
		w.Header().Set("location", "https://"+app+".fly.dev/")
	case strings.HasPrefix(body, "<"):
		w.Header().Set("content-type", "text/html")
	default:
		w.Header().Set("content-type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// logRequest logs the app's access line (accesslog.go) for a request a
// machine answered.
func (px *Proxy) logRequest(m *machines.Machine, client, host, method, path string, status, bytes int, took time.Duration) {
	px.store.LogLine(logs.Line{App: m.App().Name(), Machine: m.ID(), Region: m.Region(),
		Provider: "app", Level: "info", Method: method, Path: path, Status: status,
		Message: logs.Access(client, host, method, path, status, bytes, took)})
}

// logRecentlyStopped logs the PM11 reroute on the machine passed over.
func (px *Proxy) logRecentlyStopped(ae *appEdge, m *machines.Machine, sampled bool) {
	px.proxyError(ae, &edgeFailure{code: "PM11", msg: msgRecentlyStop, machine: m}, "", "", sampled)
}
