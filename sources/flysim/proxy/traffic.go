package proxy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"time"

	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// The apps' background load. Per-request events are far too many for a day
// of history, so the load is a fluid model on the virtual clock: every second
// of platform time, each app's arrivals are drawn from a seeded rate function
// (a diurnal curve plus bursts) and pushed through route.go's rules in bulk —
// spill over soft limits, autostart, requests held for booting machines and
// failed at the proxy's patience, a queue over the hard limit that ends in
// 503. Counts go to the metrics; request lines are sampled so a day of logs
// stays small, while boots, wakes, autostops and a sample of proxy errors are
// always logged. Only outside requests use the real listeners.

const trafficTick = time.Second

// Class is a kind of background request: TrafficStats counts by it.
type Class uint8

const (
	ClassPoll  Class = iota // the clients' polling (and ordinary requests)
	ClassScan               // the scanner's probes, answered 301
	ClassHeavy              // a load test's slow writes (backlog app)
	numClasses
)

// cohort is a group of requests that arrived together.
type cohort struct {
	at   time.Time
	n    int
	cls  Class
	none bool // no machine could take it (vs. queued over the hard limit)
}

// TrafficStats counts an app's background requests by fate.
type TrafficStats struct {
	Arrived  [numClasses]int
	Served   [numClasses]int // answered to a waiting client
	Failed   [numClasses]int // failed at the edge (502/503)
	ByStatus map[int]int     // responses to clients by status
}

// burst is extra load between From and To.
type burst struct {
	From, To time.Time
	Rate     float64 // requests per second
	Cls      Class
}

// trafficPlan is one app's background load.
type trafficPlan struct {
	svc     float64 // mean service time of a request, seconds
	workers int     // server workers answering in parallel
	// The polling clients: Lo req/s at the night's trough, Hi at the day's
	// peak; TZ is the clients' UTC offset in hours.
	lo, hi float64
	tz     float64
	// midnight is a midnight of the clients' local day, laid out from the
	// history's end (historyEndsAt), never from the wall clock.
	midnight    time.Time
	bursts      []burst // sorted by From
	cursor      int
	logEvery    time.Duration // one sampled request line per machine per logEvery
	notModified float64       // share of polls answered 304 (clients send If-None-Match)
	// Backlog apps: how long a client waits, and a heavy request's work.
	// arrivals are single requests at fixed instants, on top of the rates.
	arrivals      []time.Time
	clientTimeout time.Duration
	heavyCost     float64
	heavyPath     string
}

var scannerPaths = []string{"/.env", "/.env.local", "/.env.production", "/wp-config.php~", "/actuator/configprops"}

// demoPlan is the background load of a demo app; nil for other apps.
// Bursts are laid out over the history and 30 days beyond it; the last
// 75 minutes of history stay quiet for the scale-to-zero and tuned apps so
// autostop has brought them back down when the platform starts.
func demoPlan(p *profile.App, draw *rand.Rand, begin, end time.Time) *trafficPlan {
	svc := (p.ResponseTime.Min + p.ResponseTime.Max).Seconds() / 2
	quiet := [2]time.Time{end.Add(-75 * time.Minute), end}
	horizon := end.Add(30 * 24 * time.Hour)
	switch p.Name {
	case profile.DemoScaleToZero:
		pl := &trafficPlan{svc: svc, workers: 2, lo: 0.25, hi: 1.4, tz: 1, logEvery: 10 * time.Second, notModified: 0.8}
		pl.midnight = clientMidnight(end, pl.tz)
		pl.bursts = herds(draw, begin, horizon, pl.midnight, 10, 12, 100, 300, quiet)
		// ~4,900 probes in one hour, mid-morning of the history.
		at := end.Add(-15 * time.Hour)
		pl.bursts = append(pl.bursts, burst{From: at, To: at.Add(time.Hour), Rate: 4900.0 / 3600, Cls: ClassScan})
		sortBursts(pl.bursts)
		return pl
	case profile.DemoTuned:
		pl := &trafficPlan{svc: svc, workers: 2, lo: 0.2, hi: 1.2, tz: 1, logEvery: 10 * time.Second, notModified: 0.8}
		pl.midnight = clientMidnight(end, pl.tz)
		pl.bursts = herds(draw, begin, horizon, pl.midnight, 8, 10, 30, 110, quiet)
		return pl
	case profile.DemoCrash:
		// A client's poll lands the instant the platform starts, so a machine
		// that just gave up restarting is being woken again: the app is
		// visibly crash-looping at Start, not caught in a gap between loops.
		return &trafficPlan{svc: svc, workers: 1, lo: 0.3, hi: 0.8, tz: 1, logEvery: 5 * time.Second,
			arrivals: []time.Time{end}, midnight: clientMidnight(end, 1)}
	case profile.DemoBacklog:
		pl := &trafficPlan{svc: svc, workers: 4, lo: 0.03, hi: 0.12, tz: -5, logEvery: 10 * time.Second,
			clientTimeout: 30 * time.Second, heavyCost: 15, heavyPath: "/api/items", midnight: clientMidnight(end, -5)}
		// Two load tests at high concurrency: one early in the history (its
		// recovery is in the logs) and one that ends 4 minutes before the
		// platform starts, so hundreds of sockets sit in CLOSE_WAIT then.
		for _, from := range []time.Time{end.Add(-15 * time.Hour), end.Add(-8 * time.Minute)} {
			pl.bursts = append(pl.bursts, burst{From: from, To: from.Add(4 * time.Minute), Rate: 4.8, Cls: ClassHeavy})
		}
		return pl
	}
	return nil
}

// historyEndsAt is the UTC time of day the history ends at, whatever the wall
// clock says: the day's curve and its herds are laid out from the end, so the
// same seed lives the same day at any hour.
const historyEndsAt = 9*time.Hour + 41*time.Minute

// clientMidnight is the clients' (UTC offset tz hours) last local midnight
// before end.
func clientMidnight(end time.Time, tz float64) time.Time {
	local := historyEndsAt + time.Duration(tz*float64(time.Hour))
	local = ((local % (24 * time.Hour)) + 24*time.Hour) % (24 * time.Hour)
	return end.Add(-local)
}

// herds lays out a thundering herd of polling clients (a push notification:
// everybody opens the app at once) a number of times a day in waking hours,
// at least an hour apart, none inside quiet.
func herds(draw *rand.Rand, from, to, midnight time.Time, minPerDay, maxPerDay int, minRate, maxRate float64, quiet [2]time.Time) []burst {
	var out []burst
	day := midnight
	for day.After(from) {
		day = day.Add(-24 * time.Hour)
	}
	for ; day.Before(to); day = day.Add(24 * time.Hour) {
		n := minPerDay + draw.IntN(maxPerDay-minPerDay+1)
		var starts []time.Time
		for tries := 0; len(starts) < n && tries < 200; tries++ {
			at := day.Add(7*time.Hour + time.Duration(draw.Int64N(int64(16*time.Hour))))
			ok := !at.Before(from) && at.Before(to) && (at.Before(quiet[0].Add(-2*time.Minute)) || at.After(quiet[1]))
			for _, s := range starts {
				if d := at.Sub(s); d < time.Hour && d > -time.Hour {
					ok = false
				}
			}
			if ok {
				starts = append(starts, at)
			}
		}
		for _, at := range starts {
			dur := rng.Between(draw, 25*time.Second, 50*time.Second)
			out = append(out, burst{From: at, To: at.Add(dur), Rate: minRate + draw.Float64()*(maxRate-minRate), Cls: ClassPoll})
		}
	}
	sortBursts(out)
	return out
}

func sortBursts(b []burst) { sort.Slice(b, func(i, j int) bool { return b[i].From.Before(b[j].From) }) }

// rates are the arrival rates per class at platform time t.
func (pl *trafficPlan) rates(t time.Time) [numClasses]float64 {
	var r [numClasses]float64
	h := float64(((t.Sub(pl.midnight)%(24*time.Hour))+24*time.Hour)%(24*time.Hour)) / float64(time.Hour)
	r[ClassPoll] = pl.lo + (pl.hi-pl.lo)*(0.5-0.5*math.Cos(2*math.Pi*(h-4)/24))
	for pl.cursor < len(pl.bursts) && !pl.bursts[pl.cursor].To.After(t) {
		pl.cursor++
	}
	for i := pl.cursor; i < len(pl.bursts) && !pl.bursts[i].From.After(t); i++ {
		if b := pl.bursts[i]; t.Before(b.To) {
			r[b.Cls] += b.Rate
		}
	}
	return r
}

// poisson draws a Poisson count with mean lam.
func poisson(draw *rand.Rand, lam float64) int {
	if lam <= 0 {
		return 0
	}
	if lam > 30 {
		return max(0, int(math.Round(lam+math.Sqrt(lam)*draw.NormFloat64())))
	}
	l, k, p := math.Exp(-lam), 0, 1.0
	for {
		p *= draw.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// arrive places one request of cls at app's edge now.
func (px *Proxy) arrive(ae *appEdge, cls Class) {
	now := px.now()
	ae.stats.Arrived[cls]++
	if c := px.place(ae, cohort{at: now, n: 1, cls: cls}, now); c.n > 0 {
		ae.queue = append(ae.queue, c)
	}
}

// trafficTick advances every app's background load by one tick.
func (px *Proxy) trafficTick() {
	now := px.now()
	for _, ae := range px.order {
		if ae.plan != nil {
			px.tickApp(ae, now)
		}
	}
	px.sched.After(trafficTick, px.trafficTick)
}

func (px *Proxy) tickApp(ae *appEdge, now time.Time) {
	pl, a := ae.plan, ae.a
	for _, l := range px.loadsOf(ae) {
		l.lam, l.bg = 0, 0
		if len(l.held) > 0 { // most machines hold nothing
			px.expireHeld(ae, l.m, now)
		}
	}
	// The edge's queue first, oldest first.
	kept := ae.queue[:0]
	blocked := false
	for _, c := range ae.queue {
		switch {
		case c.none && now.Sub(c.at) >= px.opts.ProxyPatience:
			px.failFluid(ae, nil, c, http.StatusBadGateway, "PR04", msgNoCandidate)
			continue
		case !c.none && now.Sub(c.at) >= px.opts.QueuePatience:
			px.failFluid(ae, nil, c, http.StatusServiceUnavailable, "PR04", msgNoCandidate)
			continue
		}
		if !blocked {
			c = px.place(ae, c, now)
		}
		if c.n > 0 {
			blocked = true
			kept = append(kept, c)
		}
	}
	ae.queue = kept
	rates := pl.rates(now)
	for cls := Class(0); cls < numClasses; cls++ {
		n := poisson(ae.rng, rates[cls]*trafficTick.Seconds())
		if n == 0 {
			continue
		}
		ae.stats.Arrived[cls] += n
		if c := px.place(ae, cohort{at: now, n: n, cls: cls}, now); c.n > 0 {
			ae.queue = append(ae.queue, c)
		}
	}
	if a.Profile().Backlog {
		for _, m := range a.Machines() {
			px.backlogTick(ae, m, trafficTick)
		}
	}
	ae.signalFreed()
}

// place routes a cohort in bulk, chunk by chunk, and returns what is left to
// queue (none set when no machine at all could take it).
func (px *Proxy) place(ae *appEdge, c cohort, now time.Time) cohort {
	a, pl := ae.a, ae.plan
	for tries := 0; c.n > 0 && tries < 64; tries++ {
		cs := px.candidates(ae)
		r := chooseRoute(cs, now)
		switch r.Kind {
		case routeServe:
			m := a.Machines()[r.Index]
			take := px.chunk(cs[r.Index].Lim, cs[r.Index].Load, c.n, func(limit float64) float64 {
				if a.Profile().Backlog {
					return limit - cs[r.Index].Load
				}
				l := px.loadOf(m)
				other := cs[r.Index].Load - l.bg
				return fluidRate(limit-other, pl.svc, pl.workers) - l.lam
			}, len(cs))
			px.serveFluid(ae, m, c, take, now)
			c.n -= take
		case routeWake:
			if r.Skipped >= 0 {
				px.logRecentlyStopped(ae, a.Machines()[r.Skipped], true)
			}
			if _, err := px.store.Start(a.Machines()[r.Index], machines.SourceProxy); err != nil {
				return c
			}
		case routeHold:
			m := a.Machines()[r.Index]
			take := px.chunk(cs[r.Index].Lim, cs[r.Index].Load, c.n, func(limit float64) float64 { return limit - cs[r.Index].Load }, len(cs))
			l := px.loadOf(m)
			l.held = append(l.held, cohort{at: c.at, n: take, cls: c.cls})
			l.heldN += take
			c.n -= take
		case routeQueue:
			c.none = false
			return c
		default:
			c.none = true
			return c
		}
	}
	return c
}

// chunk is how many of n requests a machine at load takes before it reaches
// its next limit (soft, then hard); room converts a load limit into how many
// more requests fit. Over the soft limit with no hard limit, requests are
// spread over the machines in small chunks.
func (px *Proxy) chunk(lim limits, load float64, n int, room func(limit float64) float64, machines int) int {
	limit := float64(lim.Soft)
	if load >= limit {
		if lim.Hard <= 0 {
			return min(n, max(1, n/max(1, machines)))
		}
		limit = float64(lim.Hard)
	}
	return min(n, max(1, int(room(limit))))
}

// serveFluid hands n requests of c to a serving machine.
func (px *Proxy) serveFluid(ae *appEdge, m *machines.Machine, c cohort, n int, now time.Time) {
	pl := ae.plan
	if m.App().Profile().Backlog {
		e := &backlogEntry{at: c.at, n: n, cls: c.cls, cost: pl.svc}
		if c.cls == ClassHeavy {
			e.cost = pl.heavyCost
		}
		e.deadline = c.at.Add(pl.clientTimeout)
		l := px.loadOf(m)
		l.backlog = append(l.backlog, e)
		l.live += n
		return
	}
	l := px.loadOf(m)
	l.lam += float64(n) / trafficTick.Seconds()
	l.bg = fluidLoad(l.lam, pl.svc, pl.workers)
	px.countServed(ae, m, c.cls, n, true)
}

// countServed records n requests machine m answered; toClient is false when
// the client had already given up (the app answered nobody).
func (px *Proxy) countServed(ae *appEdge, m *machines.Machine, cls Class, n int, toClient bool) {
	now, p, pl := px.now(), ae.p, ae.plan
	type part struct {
		status, n int
	}
	var parts []part
	switch cls {
	case ClassScan:
		parts = []part{{http.StatusMovedPermanently, n}}
	case ClassPoll:
		k := int(float64(n)*pl.notModified + ae.rng.Float64())
		parts = []part{{http.StatusNotModified, min(k, n)}, {http.StatusOK, n - min(k, n)}}
	default:
		parts = []part{{http.StatusOK, n}}
	}
	for _, pt := range parts {
		if pt.n == 0 {
			continue
		}
		px.metrics.AddApp(p.Name, m.Region(), m.ID(), pt.status, now, float64(pt.n))
		if toClient {
			px.metrics.AddEdge(p.Name, p.Region, pt.status, now, float64(pt.n))
			if ae.stats.ByStatus == nil {
				ae.stats.ByStatus = map[int]int{}
			}
			ae.stats.ByStatus[pt.status] += pt.n
			ae.stats.Served[cls] += pt.n
		}
	}
	l := px.loadOf(m)
	rt := func() time.Duration { return rng.Between(ae.lines, p.ResponseTime.Min, p.ResponseTime.Max) }
	switch {
	case cls == ClassScan:
		for i := 0; i < n; i++ { // every probe: the scanner is the story
			path := scannerPaths[ae.lines.IntN(len(scannerPaths))]
			client, host := px.acc.requester(p.Name, cls)
			px.logRequest(m, client, host, "GET", path, http.StatusMovedPermanently, 0, rt())
		}
	case now.Sub(l.lastLine) >= pl.logEvery:
		l.lastLine = now
		path, method, status, bytes := "/", "GET", parts[0].status, 0
		if len(parts) > 1 && parts[1].n > 0 && (parts[0].n == 0 || ae.lines.IntN(n) < parts[1].n) {
			status = parts[1].status
		}
		if len(p.PollPaths) > 0 {
			path = p.PollPaths[ae.lines.IntN(len(p.PollPaths))]
		}
		took := rt()
		if cls == ClassHeavy {
			method, path, took = "POST", pl.heavyPath, time.Duration(pl.heavyCost*float64(time.Second))
		}
		if status == http.StatusOK {
			bytes = 180 + ae.lines.IntN(900)
		}
		client, host := px.acc.requester(p.Name, cls)
		px.logRequest(m, client, host, method, path, status, bytes, took)
	}
}

// failFluid records requests the edge failed (the app never saw them).
func (px *Proxy) failFluid(ae *appEdge, m *machines.Machine, c cohort, status int, code, msg string) {
	if c.n <= 0 {
		return
	}
	ae.stats.Failed[c.cls] += c.n
	if ae.stats.ByStatus == nil {
		ae.stats.ByStatus = map[int]int{}
	}
	ae.stats.ByStatus[status] += c.n
	px.metrics.AddEdge(ae.p.Name, ae.p.Region, status, px.now(), float64(c.n))
	path := "/"
	if c.cls == ClassScan {
		path = scannerPaths[0]
	} else if ps := ae.p.PollPaths; len(ps) > 0 {
		path = ps[ae.lines.IntN(len(ps))]
	}
	px.proxyError(ae, &edgeFailure{status: status, code: code, msg: msg, machine: m}, "GET", path, true)
}

// expireHeld fails the requests held for machine m longer than the proxy's
// patience.
func (px *Proxy) expireHeld(ae *appEdge, m *machines.Machine, now time.Time) {
	l := px.loadOf(m)
	kept := l.held[:0]
	for _, c := range l.held {
		if now.Sub(c.at) >= px.opts.ProxyPatience {
			l.heldN -= c.n
			px.failFluid(ae, m, c, http.StatusBadGateway, "PM03", msgWakeTimeout)
			continue
		}
		kept = append(kept, c)
	}
	l.held = kept
}

// releaseHeld serves the requests held for m once it serves (onServing hook).
func (px *Proxy) releaseHeld(m *machines.Machine) {
	ae := px.byApp[m.App().Name()]
	if ae == nil {
		return
	}
	ae.signalFreed()
	l := px.loadOf(m)
	if len(l.held) == 0 || ae.plan == nil {
		return
	}
	now := px.now()
	px.expireHeld(ae, m, now)
	held := l.held
	l.held, l.heldN = nil, 0
	for _, c := range held {
		px.serveFluid(ae, m, c, c.n, now)
	}
}

// Traffic returns an app's background-load counters (a copy).
func (px *Proxy) Traffic(app string) (TrafficStats, error) {
	px.sched.Lock()
	defer px.sched.Unlock()
	ae := px.byApp[app]
	if ae == nil {
		return TrafficStats{}, fmt.Errorf("flysim: no app %q", app)
	}
	st := ae.stats
	st.ByStatus = map[int]int{}
	for k, v := range ae.stats.ByStatus {
		st.ByStatus[k] = v
	}
	return st, nil
}
