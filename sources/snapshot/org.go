package snapshot

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
)

// Org is the org overview's model: every app the token sees, each with a
// light model of its own (its machines listing, the org-wide metrics split
// by app, and boots read from its logs without keeping the lines), and the
// app the dashboard has open, whose full model stands in for its row.
type Org struct {
	Name string

	apps    []string // sorted, from the apps listing
	AppsAt  time.Time
	AppsErr string

	byName map[string]*OrgApp
	open   *App // the app the dashboard shows (nil: none)

	MetricsAt  time.Time
	MetricsErr string
	metrics    *OrgMetrics // the last good one, for apps listed after it

	markers []diagnose.Marker
}

// OrgApp is what the overview knows of one app it does not have open.
type OrgApp struct {
	Name    string
	model   *App // listing and metrics only: it is never handed logs
	ListErr string

	boots      *diagnose.BootTracker
	Boots      []diagnose.Boot
	BootsAt    time.Time // the last logs read (platform time); zero: none yet
	BootsUntil string    // the logs cursor to continue from
	BootsErr   string

	// SocketsAt is when a sample of its running machines last had its
	// sockets read (platform time; zero: never). The readings themselves
	// live in the model, as the open app's do.
	SocketsAt time.Time
}

// NewOrg returns an empty org model (markers: as for New).
func NewOrg(org string, markers []diagnose.Marker) *Org {
	if markers == nil {
		markers = diagnose.DefaultMarkers()
	}
	return &Org{Name: org, byName: map[string]*OrgApp{}, markers: markers}
}

// ApplyApps records the apps listing; apps that went away are forgotten.
func (o *Org) ApplyApps(names []string, err error, now time.Time) {
	if err != nil {
		o.AppsErr = sanitize.Line(err.Error())
		return
	}
	o.AppsErr, o.AppsAt = "", now
	seen := map[string]bool{}
	o.apps = o.apps[:0]
	for _, n := range names {
		n = sanitize.Line(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		o.apps = append(o.apps, n)
		if o.byName[n] == nil {
			oa := &OrgApp{Name: n, model: New(o.Name, n, o.markers), boots: diagnose.NewBootTracker(o.markers)}
			o.byName[n] = oa
			if o.metrics != nil {
				oa.applyMetrics(*o.metrics)
			}
		}
	}
	for n := range o.byName {
		if !seen[n] {
			delete(o.byName, n)
		}
	}
	sort.Strings(o.apps)
}

// Apps are the org's app names, sorted; nil before the first listing.
func (o *Org) Apps() []string { return o.apps }

// Listed reports whether the apps listing has been read.
func (o *Org) Listed() bool { return !o.AppsAt.IsZero() }

// App is one app's light model (nil: not in the org's listing).
func (o *Org) App(name string) *OrgApp { return o.byName[name] }

// SetOpen makes a the app the dashboard shows (nil: none): its row is drawn
// from a, and the org feeds leave it to the dashboard's own.
func (o *Org) SetOpen(a *App) { o.open = a }

// Open is the name of the app the dashboard shows ("" when none).
func (o *Org) Open() string {
	if o.open == nil {
		return ""
	}
	return o.open.Name
}

// ApplyListing records one app's machines listing, converted in the
// fetch's command (a failed one keeps the last good machines and says why).
func (o *Org) ApplyListing(app string, c Converted, err error, now time.Time) {
	oa := o.byName[app]
	if oa == nil {
		return
	}
	if err != nil {
		oa.ListErr = sanitize.Line(err.Error())
		return
	}
	oa.ListErr = ""
	oa.model.ApplyConverted(c, now)
}

// ListedAt is when the app's machines were last listed (zero: never).
func (oa *OrgApp) ListedAt() time.Time { return oa.model.ListedAt }

// OrgMetrics is one org-wide edge/origin query, split by app.
type OrgMetrics struct {
	At  time.Time
	Err string
	// By app, then status.
	Edge1h, App1h, Edge24h, App24h map[string]map[string]float64
}

// ApplyMetrics hands every app its share of the org-wide counters (an app
// the query did not mention answered nothing: zero, which is known).
func (o *Org) ApplyMetrics(m OrgMetrics) {
	if m.Err != "" {
		o.MetricsErr = sanitize.Line(m.Err)
		return
	}
	o.MetricsErr, o.MetricsAt, o.metrics = "", m.At, &m
	for _, oa := range o.byName {
		oa.applyMetrics(m)
	}
}

func (oa *OrgApp) applyMetrics(m OrgMetrics) {
	pick := func(by map[string]map[string]float64) map[string]float64 {
		if v := by[oa.Name]; v != nil {
			return v
		}
		return map[string]float64{}
	}
	oa.model.ApplyEdgeOrigin(EdgeOrigin{At: m.At, Edge1h: pick(m.Edge1h), App1h: pick(m.App1h),
		Edge24h: pick(m.Edge24h), App24h: pick(m.App24h)})
}

// ApplyBootLogs feeds a page of one app's logs to its boot tracker: only
// the boots are kept, never the lines. cursor continues the read.
func (o *Org) ApplyBootLogs(app string, lines []diagnose.LogLine, cursor string, err error, now time.Time) {
	oa := o.byName[app]
	if oa == nil {
		return
	}
	if cursor != "" {
		oa.BootsUntil = cursor
	}
	if err != nil {
		oa.BootsErr = sanitize.Line(err.Error())
		if len(lines) == 0 {
			return
		}
	} else {
		oa.BootsErr = ""
	}
	clean := make([]diagnose.LogLine, len(lines))
	for i, l := range lines {
		l.Machine, l.Provider, l.Message = sanitize.Line(l.Machine), sanitize.Line(l.Provider), sanitize.Line(l.Message)
		l.Region, l.Level = sanitize.Line(l.Region), sanitize.Line(l.Level)
		clean[i] = l
	}
	oa.boots.Add(clean)
	oa.Boots = oa.boots.Boots()
	oa.BootsAt = now
}

// DueListings are the apps (not the open one) whose listing is older than
// every, oldest first (never listed first), at most n.
func (o *Org) DueListings(now time.Time, every time.Duration, n int) []string {
	return o.due(n, func(oa *OrgApp) (time.Time, bool) {
		at := oa.model.ListedAt
		return at, at.IsZero() || now.Sub(at) >= every
	})
}

// DueBoots is the app (not the open one) whose logs were read longest ago,
// never read first, when that is longer than every ago; "" when none is due.
func (o *Org) DueBoots(now time.Time, every time.Duration) (app, cursor string) {
	due := o.due(1, func(oa *OrgApp) (time.Time, bool) {
		return oa.BootsAt, oa.BootsAt.IsZero() || now.Sub(oa.BootsAt) >= every
	})
	if len(due) == 0 {
		return "", ""
	}
	return due[0], o.byName[due[0]].BootsUntil
}

// DueSockets is the app (not the open one) whose sockets were read longest
// ago, never read first, once that is longer than every ago, with the socket
// probes of up to sample of its running, serving machines (the first by id:
// the same ones each round while they run, so a backlog's growth shows).
// An app with nothing running to probe is skipped; "" when none is due.
func (o *Org) DueSockets(now time.Time, every time.Duration, sample int) (string, []ProbeRequest) {
	due := o.due(len(o.apps), func(oa *OrgApp) (time.Time, bool) {
		return oa.SocketsAt, oa.SocketsAt.IsZero() || now.Sub(oa.SocketsAt) >= every
	})
	for _, name := range due {
		if reqs := o.byName[name].model.socketSample(sample); len(reqs) > 0 {
			return name, reqs
		}
	}
	return "", nil
}

// socketSample is the socket probes of up to n running machines that serve.
func (a *App) socketSample(n int) []ProbeRequest {
	var out []ProbeRequest
	for _, m := range a.Machines {
		if len(out) == n {
			break
		}
		if m.State == "started" && m.serves() {
			out = append(out, ProbeRequest{ProbeSockets, m.ID, bootKey(m)})
		}
	}
	return out
}

// ApplySockets records one background app's socket probes.
func (o *Org) ApplySockets(app string, reqs []ProbeRequest, res []ExecResult, now time.Time) {
	oa := o.byName[app]
	if oa == nil || len(reqs) != len(res) {
		return
	}
	for i, req := range reqs {
		oa.model.ApplyProbe(req, res[i], now)
	}
	oa.SocketsAt = now
}

func (o *Org) due(n int, when func(*OrgApp) (time.Time, bool)) []string {
	type cand struct {
		name string
		at   time.Time
	}
	var cs []cand
	for _, name := range o.apps {
		if name == o.Open() {
			continue
		}
		if at, ok := when(o.byName[name]); ok {
			cs = append(cs, cand{name, at})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].at.Before(cs[j].at) })
	out := make([]string, 0, min(n, len(cs)))
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

// OrgRow is one app's line in the overview: plain values, and for each cell
// whether it is known yet (an unknown cell says why, never a zero).
type OrgRow struct {
	App  string
	Open bool // the dashboard has it open: its row comes from the full model

	Listed   bool // its machines were listed
	ListedAt time.Time
	ListErr  string
	States   []StateCount // machines by state, the usual order
	Machines int

	Crash     diagnose.Level // Fail: machines of the current release crash-loop or gave up
	Looping   int
	GaveUp    int
	Watching  int
	Unread    int // what the listing held that could not be read and could hide a crash (Crash is then not Pass)
	CrashText string

	BootsKnown bool
	BootsErr   string
	Boots24h   int // cold boots, crash restarts left out
	// CrashRestarts24h: boots of the day that crashed or restarted after a
	// crash, counted apart from Boots24h and P95.
	CrashRestarts24h int
	P95              time.Duration
	Slowest          time.Duration
	Booting          int
	ColdLevel        diagnose.Level

	LossKnown        bool
	Lost1h, Edge1h   float64
	Lost24h, Edge24h float64
	Loss1h, Loss24h  diagnose.Level
	LossErr          string

	BacklogKnown bool // sockets were read on at least one machine that serves (or none serves)
	Backlog      diagnose.Level
	CloseWait    int    // the most on one machine
	Running      int    // started machines: nothing to probe without one
	BacklogErr   string // why no probe could read one (the first failure)

	Level diagnose.Level // the row's worst known cell
}

// StateCount is how many machines are in one state.
type StateCount struct {
	State string
	N     int
}

// Rows derives every app's row at now, worst first (then by name).
// patience grades the cold starts (the proxy's patience, as the checklist's).
func (o *Org) Rows(now time.Time, patience time.Duration) []OrgRow {
	rows := make([]OrgRow, 0, len(o.apps))
	for _, name := range o.apps {
		if o.open != nil && name == o.open.Name {
			rows = append(rows, openRow(o.open, now, patience))
			continue
		}
		rows = append(rows, o.byName[name].row(now, patience))
	}
	if o.open != nil && o.byName[o.open.Name] == nil && o.Listed() {
		rows = append(rows, openRow(o.open, now, patience)) // open by name, not (yet) in the listing
	}
	slices.SortStableFunc(rows, func(a, b OrgRow) int {
		// The worst cell first; among equals a crash loop (it breaks every
		// request), then the larger share lost at the edge, then the name.
		if n := diagnose.WorstFirst(a.Level, b.Level); n != 0 {
			return n
		}
		if n := diagnose.WorstFirst(a.Crash, b.Crash); n != 0 {
			return n
		}
		if la, lb := a.lossShare(), b.lossShare(); la != lb {
			if la > lb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.App, b.App)
	})
	return rows
}

// lossShare is the share of the day's edge responses lost (0 when unknown).
func (r OrgRow) lossShare() float64 {
	if !r.LossKnown || r.Edge24h <= 0 {
		return 0
	}
	return r.Lost24h / r.Edge24h
}

func (oa *OrgApp) row(now time.Time, patience time.Duration) OrgRow {
	r := baseRow(oa.model, now, patience)
	r.ListErr = oa.ListErr
	r.BootsErr = oa.BootsErr
	if !oa.BootsAt.IsZero() {
		setBoots(&r, diagnose.Summarize(oa.Boots, now.Add(-24*time.Hour), now), liveCount(oa.Boots), patience)
	}
	setBacklog(&r, oa.model)
	r.Level = worst(r)
	return r
}

func openRow(a *App, now time.Time, patience time.Duration) OrgRow {
	r := baseRow(a, now, patience)
	r.Open = true
	if a.Boots != nil {
		setBoots(&r, a.ColdStarts(now), len(a.LiveBoots()), patience)
	}
	setBacklog(&r, a)
	r.Level = worst(r)
	return r
}

// setBacklog is the worst probed machine's backlog; NA only when no machine
// serves, Unknown until a socket probe of this boot has read one (a
// background app's sample, or every running machine of the open app).
func setBacklog(r *OrgRow, a *App) {
	worstCW, known, lvl, serves, probeErr := 0, false, diagnose.Unknown, false, ""
	for _, bm := range a.BacklogMachines() {
		l := bm.Level()
		serves = serves || bm.Served
		if probeErr == "" {
			probeErr = bm.ProbeErr
		}
		if l == diagnose.Unknown || l == diagnose.NA {
			continue
		}
		worstCW = max(worstCW, bm.CloseWait())
		known, lvl = true, diagnose.Worse(lvl, l)
	}
	if !serves && len(a.Machines) > 0 {
		known, lvl = true, diagnose.NA
	}
	r.BacklogKnown, r.Backlog, r.CloseWait = known, lvl, worstCW
	if !known {
		r.BacklogErr = probeErr
	}
}

// baseRow is what the listing and the metrics give any app's model.
func baseRow(a *App, now time.Time, patience time.Duration) OrgRow {
	r := OrgRow{App: a.Name, Listed: !a.ListedAt.IsZero(), ListedAt: a.ListedAt, Machines: len(a.Machines)}
	r.States = a.StateCounts()
	for _, sc := range r.States {
		if sc.State == "started" {
			r.Running = sc.N
		}
	}
	c := a.Rollout.Crashes() // the release judge's, as every surface shows it
	r.Looping, r.GaveUp, r.Watching, r.Unread = len(c.Looping), len(c.GaveUp), len(c.Watching), len(c.Unread)
	r.Crash = c.Level()
	if !r.Listed {
		r.Crash = diagnose.Unknown
	}
	if eo := a.Metrics; eo != nil {
		if eo.Err != "" {
			r.LossErr = eo.Err
		} else {
			r.LossKnown = true
			r.Lost1h, r.Edge1h = Died(eo.Edge1h, eo.App1h)
			r.Lost24h, r.Edge24h = Died(eo.Edge24h, eo.App24h)
			r.Loss1h = diagnose.LossLevel(r.Lost1h, r.Edge1h)
			r.Loss24h = diagnose.LossLevel(r.Lost24h, r.Edge24h)
		}
	}
	return r
}

func setBoots(r *OrgRow, cs diagnose.ColdStartStats, live int, patience time.Duration) {
	r.BootsKnown = true
	r.Boots24h, r.P95, r.Slowest, r.Booting = cs.PerDay, cs.P95, cs.Max, live
	r.CrashRestarts24h = cs.CrashRestarts
	r.ColdLevel = diagnose.NA
	if cs.Served > 0 {
		r.ColdLevel = diagnose.ColdStartLevel(cs.P95, cs.Max, patience)
	}
}

func liveCount(boots []diagnose.Boot) int {
	n := 0
	for _, b := range boots {
		if b.Live() {
			n++
		}
	}
	return n
}

// worst is the row's worst graded cell; Unknown only when nothing is known
// (Worse: any answer beats unknown, and unknown beats n/a).
func worst(r OrgRow) diagnose.Level {
	lvl := diagnose.Unknown
	for _, l := range []diagnose.Level{r.Crash, r.ColdLevel, r.Loss1h, r.Loss24h, r.Backlog} {
		lvl = diagnose.Worse(lvl, l)
	}
	return lvl
}

// StateCounts counts the app's machines by state, in the order of a
// machine's life (diagnose.States), states the platform added after them
// by name: the overview's and the header's one order.
func (a *App) StateCounts() []StateCount {
	d := a.derived()
	if !d.statesOK {
		d.states, d.statesOK = stateCounts(a.Machines), true
	}
	return slices.Clone(d.states)
}

func stateCounts(ms []Machine) []StateCount {
	count := map[string]int{}
	for _, m := range ms {
		count[m.State]++
	}
	out := make([]StateCount, 0, len(count))
	for _, st := range stateOrder(count) {
		out = append(out, StateCount{st, count[st]})
	}
	return out
}

// stateOrder is the states present, in lifecycle order (diagnose.States),
// states flywake does not know last.
func stateOrder(count map[string]int) []string {
	var out []string
	for _, st := range diagnose.States {
		if count[st.Name] > 0 {
			out = append(out, st.Name)
		}
	}
	var rest []string
	for st := range count {
		if _, known := diagnose.LookupState(st); !known {
			rest = append(rest, st)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
