package flysim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// The edge: one loopback listener per app standing in for
// https://<app>.fly.dev. It routes by route.go's rules, counts what it does in
// the fly_edge / fly_app series and logs like Fly's proxy. Waiting (for a
// machine to boot, for the queue) happens outside s.mu.

const (
	edgeServer = "Fly/8c4ee4b2 (2026-11-20)"
	// MachineIDHeader is the response header in which the simulated apps echo
	// the machine that answered, as a real app echoing FLY_MACHINE_ID would.
	MachineIDHeader = "Fly-Machine-Id"
	// ForceInstanceHeader pins a request to one machine, with no fallback.
	ForceInstanceHeader = "fly-force-instance-id"
)

// Proxy error messages (reference/fly-platform.md §4.3, §4.7).
const (
	msgWakeTimeout    = "[PM03] could not wake up machine due to a timeout requesting from the machines API"
	msgNoCandidate    = "[PR04] could not find a good candidate within 40 attempts at load balancing"
	msgRecentlyStop   = "machine was recently stopped and is unavailable to service request"
	msgClosedInFlight = "could not complete HTTP request to instance: connection closed before message completed"
)

// proxy is the edge's and the traffic model's state. Guarded by s.mu.
type proxy struct {
	// outside draws the service times and request ids of requests from
	// outside (the edge listeners), apart from the background load's
	// streams: a wake test never shifts the traffic the seed lays out.
	outside *rand.Rand
	acc     *accessLog // the clients and hosts in access lines
	apps    map[string]*appEdge
	mach    map[*machine]*machLoad
	edges   map[string]string // app → edge URL, once started
}

// appEdge is one app's edge.
type appEdge struct {
	a   *app
	rng *rand.Rand // the background load's arrivals and fates (stream "traffic/<app>")
	// lines draws what the sampled log lines say (paths, sizes, service
	// times), so new or different lines never change the load's figures.
	lines *rand.Rand
	plan  *trafficPlan // nil: no background load
	// freed is closed (and replaced) whenever capacity may have freed up, so
	// queued outside requests re-route without polling.
	freed chan struct{}
	queue []cohort // background requests queued at the edge, oldest first
	stats TrafficStats
	// errLogged throttles sampled proxy error lines: code → last tick logged.
	errLogged map[string]time.Time
}

// machLoad is the edge's view of one machine's load.
type machLoad struct {
	lam      float64  // background arrivals per second routed to it this tick
	bg       float64  // background requests in flight (fluid)
	held     []cohort // background requests held while it boots
	heldN    int
	backlog  []*backlogEntry // the app's own accept queue (backlog apps)
	live     int             // background requests in backlog whose client still waits
	credit   float64         // worker-seconds not yet spent on the backlog
	lastLine time.Time       // last sampled request line
}

func (s *Sim) initProxy(begin, end time.Time) {
	s.px = &proxy{
		outside: rng.Stream(s.opts.Seed, "outside"),
		acc:     newAccessLog(s.opts.Seed),
		apps:    map[string]*appEdge{}, mach: map[*machine]*machLoad{}, edges: map[string]string{},
	}
	for _, name := range s.appOrder {
		ae := &appEdge{a: s.apps[name], rng: rng.Stream(s.opts.Seed, "traffic/"+name),
			lines: rng.Stream(s.opts.Seed, "lines/"+name), freed: make(chan struct{}), errLogged: map[string]time.Time{}}
		if !s.opts.NoTraffic {
			ae.plan = demoPlan(&ae.a.p, ae.rng, begin, end)
			for _, t := range planArrivals(ae.plan) {
				s.sched.At(t, func() { s.arrive(ae, clsPoll) })
			}
		}
		s.px.apps[name] = ae
	}
	s.hooks.onServing = append(s.hooks.onServing, s.releaseHeld)
	// Passes fall half an interval off the history's end, so the platform
	// never starts on the instant of a pass.
	s.sched.At(begin.Add(s.opts.AutostopInterval/2), s.autostopPass)
	if !s.opts.NoTraffic {
		s.sched.At(begin.Add(time.Second), s.trafficTick)
	}
}

func planArrivals(pl *trafficPlan) []time.Time {
	if pl == nil {
		return nil
	}
	return pl.arrivals
}

func (s *Sim) loadOf(m *machine) *machLoad {
	l := s.px.mach[m]
	if l == nil {
		l = &machLoad{}
		s.px.mach[m] = l
	}
	return l
}

// proxyLoad is what the proxy counts against a machine's concurrency limits.
func (s *Sim) proxyLoad(m *machine) float64 {
	l := s.loadOf(m)
	return float64(m.inflight) + l.bg + float64(l.heldN) + float64(liveBacklog(l))
}

// candidates is how the proxy sees the app's machines from the edge in its
// primary region, where the background load's clients are.
func (s *Sim) candidates(a *app) []candidate { return s.candidatesNear(a, a.p.Region) }

// candidatesNear sees them from the edge in region near.
func (s *Sim) candidatesNear(a *app, near string) []candidate {
	cs := make([]candidate, len(a.machines))
	for i, m := range a.machines {
		cs[i] = candidate{State: m.state, Serving: m.serving, Load: s.proxyLoad(m), StoppedAt: m.stoppedAt, Cordoned: m.cordoned,
			Far: m.region != near}
	}
	return cs
}

// PreferRegionHeader asks the edge to route as if the request came in at
// that region's edge (Fly's fly-prefer-region; a comma list, first match
// wins): its machines are the nearest ones.
const PreferRegionHeader = "fly-prefer-region"

// edgeRegion is the region whose edge a request is routed from: the first
// region of a fly-prefer-region list the app has machines in, else the
// primary.
func edgeRegion(a *app, prefer string) string {
	for _, r := range strings.Split(prefer, ",") {
		r = strings.ToLower(strings.TrimSpace(r))
		for _, m := range a.machines {
			if r != "" && m.region == r {
				return r
			}
		}
	}
	return a.p.Region
}

func appLimits(p *AppProfile) limits {
	return limits{Soft: p.SoftLimit, Hard: p.HardLimit, Autostart: p.Autostart}
}

func (ae *appEdge) signalFreed() {
	close(ae.freed)
	ae.freed = make(chan struct{})
}

// startEdges binds every app's edge listener; Start calls it.
func (s *Sim) startEdges() error {
	s.sched.Lock()
	names := append([]string(nil), s.appOrder...)
	s.sched.Unlock()
	for _, name := range names {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("flysim: edge for %s: %w", name, err)
		}
		s.sched.Lock()
		ae := s.px.apps[name]
		s.px.edges[name] = "http://" + ln.Addr().String()
		s.sched.Unlock()
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serveEdge(ae, w, r) }),
			ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		s.extras = append(s.extras, func(ctx context.Context) error {
			err := srv.Shutdown(ctx)
			if errors.Is(err, context.DeadlineExceeded) {
				err = srv.Close()
			}
			return err
		})
	}
	return nil
}

// EdgeURL is the base URL of app's edge (its https://<app>.fly.dev), or ""
// before Start or for an unknown app.
func (s *Sim) EdgeURL(app string) string {
	s.sched.Lock()
	defer s.sched.Unlock()
	if s.px == nil {
		return ""
	}
	return s.px.edges[app]
}

// Edges maps every app to its edge URL (empty before Start).
func (s *Sim) Edges() map[string]string {
	s.sched.Lock()
	defer s.sched.Unlock()
	out := map[string]string{}
	if s.px != nil {
		for k, v := range s.px.edges {
			out[k] = v
		}
	}
	return out
}

// edgeFailure is a response the proxy itself sends.
type edgeFailure struct {
	status  int
	code    string // PM03, PR04, PM11, "" for a connection error
	msg     string
	machine *machine // the machine it concerns, if any
}

func (s *Sim) serveEdge(ae *appEdge, w http.ResponseWriter, r *http.Request) {
	s.sched.Lock()
	reqID := rng.ULID(s.px.outside, s.now()) + "-" + ae.a.p.Region
	s.sched.Unlock()
	h := w.Header()
	h.Set("fly-request-id", reqID)
	h.Set("server", edgeServer)
	h.Set("via", "1.1 fly.io")

	m, run, fail := s.acquire(r.Context(), ae, r.Header.Get(ForceInstanceHeader), r.Header.Get(PreferRegionHeader))
	if fail == nil {
		var status int
		var body string
		client, host := outsideRequester(r)
		status, body, fail = s.serveOn(r.Context(), ae, m, run, r.Method, r.URL.Path, client, host)
		if fail == nil {
			h.Set(MachineIDHeader, m.id)
			writeAppResponse(w, ae.a.p.Name, r.URL.Path, status, body)
			return
		}
	}
	if fail.status == 0 { // the client went away: nobody to answer
		return
	}
	s.sched.Lock()
	s.metrics.AddEdge(ae.a.p.Name, ae.a.p.Region, fail.status, s.now(), 1)
	s.proxyError(ae, fail, r.Method, r.URL.Path, false)
	s.sched.Unlock()
	w.Header().Set("content-type", "text/plain; charset=utf-8")
	w.WriteHeader(fail.status)
}

// proxyError logs a proxy error line. sampled lines are throttled to one per
// code per second of platform time (background load); outside requests are
// always logged. Callers hold s.mu.
func (s *Sim) proxyError(ae *appEdge, f *edgeFailure, method, path string, sampled bool) {
	now := s.now()
	if sampled {
		if last, ok := ae.errLogged[f.code]; ok && now.Sub(last) < time.Second {
			return
		}
		ae.errLogged[f.code] = now
	}
	ln := logs.Line{App: ae.a.p.Name, Region: ae.a.p.Region, Provider: "proxy",
		Level: "error", Message: f.msg, ErrorCode: f.code, ErrorMsg: strings.TrimSpace(strings.TrimPrefix(f.msg, "["+f.code+"]")),
		Method: method, Path: path, Status: f.status}
	if f.machine != nil {
		ln.Machine, ln.Region = f.machine.id, f.machine.region
	}
	s.logLine(ln)
}

// acquire finds the machine that answers the request and counts the request
// against it, holding the request while a machine boots and queueing it when
// every machine is at its hard limit. It returns the machine's run at the
// time it began serving (a crash later cuts the request off).
func (s *Sim) acquire(ctx context.Context, ae *appEdge, forced, prefer string) (*machine, uint64, *edgeFailure) {
	wallNow := time.Now()
	patience := wallNow.Add(s.clock.WallDuration(s.opts.ProxyPatience))
	var queueDeadline time.Time
	var held *machine // counted in held.inflight while we wait for it
	s.sched.Lock()
	defer s.sched.Unlock()
	release := func() {
		if held != nil {
			held.inflight--
			ae.signalFreed()
			held = nil
		}
	}
	for {
		if held != nil {
			if held.state == "started" && held.serving {
				return held, held.run, nil
			}
			if !s.sched.Wait(ctx, held.changed, patience) {
				m := held
				release()
				if ctx.Err() != nil {
					return nil, 0, &edgeFailure{}
				}
				return nil, 0, &edgeFailure{status: http.StatusBadGateway, code: "PM03", msg: msgWakeTimeout, machine: m}
			}
			continue
		}
		now := s.now()
		a := ae.a
		var kind routeKind
		var m *machine
		if forced != "" {
			if m = a.byID[forced]; m != nil {
				c := candidate{State: m.state, Serving: m.serving, Load: s.proxyLoad(m), StoppedAt: m.stoppedAt}
				kind = forcedRoute(c, s.opts.ForceInstanceWakes)
			}
		} else {
			r := chooseRoute(s.candidatesNear(a, edgeRegion(a, prefer)), appLimits(&a.p), now)
			kind = r.Kind
			if r.Index >= 0 {
				m = a.machines[r.Index]
			}
			if r.Skipped >= 0 {
				s.logRecentlyStopped(ae, a.machines[r.Skipped], false)
			}
		}
		switch kind {
		case routeServe:
			m.inflight++
			return m, m.run, nil
		case routeWake:
			var err error
			s.sched.Instant(func() { _, err = s.startMachine(m, SourceProxy) }) // its start event and boot share one time
			if err != nil {
				kind = routeNone
				break
			}
			fallthrough
		case routeHold:
			m.inflight++
			held = m
			continue
		case routeQueue:
			if queueDeadline.IsZero() {
				queueDeadline = time.Now().Add(s.clock.WallDuration(s.opts.QueuePatience))
			}
			if !s.sched.Wait(ctx, ae.freed, queueDeadline) {
				if ctx.Err() != nil {
					return nil, 0, &edgeFailure{}
				}
				return nil, 0, &edgeFailure{status: http.StatusServiceUnavailable, code: "PR04", msg: msgNoCandidate}
			}
			continue
		}
		// routeNone: nothing can take it; the proxy keeps retrying until its
		// patience runs out.
		tick := time.Now().Add(s.clock.WallDuration(time.Second))
		if tick.After(patience) {
			tick = patience
		}
		s.sched.Wait(ctx, ae.freed, tick)
		if ctx.Err() != nil {
			return nil, 0, &edgeFailure{}
		}
		if !time.Now().Before(patience) {
			if m != nil && now.Sub(m.stoppedAt) < recentlyStopped && (m.state == "stopped" || m.state == "suspended") {
				return nil, 0, &edgeFailure{status: http.StatusBadGateway, code: "PM11", msg: msgRecentlyStop, machine: m}
			}
			return nil, 0, &edgeFailure{status: http.StatusBadGateway, code: "PR04", msg: msgNoCandidate, machine: m}
		}
	}
}

// serveOn lets machine m answer (its inflight already counts the request).
func (s *Sim) serveOn(ctx context.Context, ae *appEdge, m *machine, run uint64, method, path, client, host string) (int, string, *edgeFailure) {
	s.sched.Lock()
	p := &ae.a.p
	took := rng.Between(s.px.outside, p.ResponseTime.Min, p.ResponseTime.Max)
	var done chan struct{}
	if p.Backlog {
		done = s.joinBacklog(m, took)
	}
	s.sched.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			s.sched.Lock()
			s.abandonBacklog(m, done)
			m.inflight--
			ae.signalFreed()
			s.sched.Unlock()
			return 0, "", &edgeFailure{}
		}
	} else {
		t := time.NewTimer(s.clock.WallDuration(took))
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	s.sched.Lock()
	defer s.sched.Unlock()
	m.inflight--
	ae.signalFreed()
	now := s.now()
	if m.run != run || !m.serving {
		return 0, "", &edgeFailure{status: http.StatusBadGateway, msg: msgClosedInFlight, machine: m}
	}
	status, body := appAnswer(p, path)
	s.metrics.AddEdge(p.Name, p.Region, status, now, 1)
	s.metrics.AddApp(p.Name, m.region, m.id, status, now, 1)
	s.logRequest(m, client, host, method, path, status, len(body), took)
	return status, body, nil
}

// appAnswer is what the simulated app answers on path: 200 on "/", its
// health path and the endpoints its clients poll; 301 to the scanner's
// probes (BRIEF §1: all of them got 301); 404 elsewhere.
func appAnswer(p *AppProfile, path string) (int, string) {
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
	if status == http.StatusMovedPermanently {
		w.Header().Set("location", "https://"+app+".fly.dev/")
	} else {
		w.Header().Set("content-type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// logRequest logs the app's access line (accesslog.go) for a request a
// machine answered.
func (s *Sim) logRequest(m *machine, client, host, method, path string, status, bytes int, took time.Duration) {
	s.logLine(logs.Line{App: m.app.p.Name, Machine: m.id, Region: m.region,
		Provider: "app", Level: "info", Method: method, Path: path, Status: status,
		Message: accessMessage(client, host, method, path, status, bytes, took)})
}

// logRecentlyStopped logs the PM11 reroute on the machine passed over.
func (s *Sim) logRecentlyStopped(ae *appEdge, m *machine, sampled bool) {
	s.proxyError(ae, &edgeFailure{code: "PM11", msg: msgRecentlyStop, machine: m}, "", "", sampled)
}
