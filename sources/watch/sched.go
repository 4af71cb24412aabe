package watch

import (
	"errors"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
)

// The Scheduler decides every call the dashboard makes and when: the open
// app's machines listing, the targeted looks at one machine, the wait
// long-polls, the exec probes and the feeds; the org overview's feeds; and
// what the user asks for (an action, the describe view, the app list). It
// holds the bookkeeping of all of them in one place — what is in flight,
// when each is due next, the retry back-off with the API's Retry-After,
// the budgets (waits and probes at once, probes a minute), the app
// generation a reply belongs to — and does no I/O: Due says what to fetch
// now from this state, the models and the clock, Done takes a reply back
// and applies it. The same scheduler runs in the dashboard (each job a
// tea.Cmd) and headless (Run).

// Clock is the two times the scheduler reads: Wall paces the calls (Fly's
// limits count wall time), Now is the platform's (the models' times; the
// demo's runs --speed times faster).
type Clock struct {
	Wall, Now time.Time
	Speed     float64 // platform seconds per wall second; 0 is 1
}

func (c Clock) org() OrgClock { return OrgClock{Now: c.Now, Speed: c.Speed} }

// Pacing and budgets of the open app.
const (
	ListFast   = 2 * time.Second  // the listing while a machine is in a transient state
	ListSteady = 12 * time.Second // otherwise
	// ListWatched is the listing of a steady app whose every machine a
	// wait watches: the waits say what changes within the second, so the
	// listing is only the safety net (machines created from outside).
	ListWatched = time.Minute
	RetryFirst  = 2 * time.Second // a failed listing's first retry; it doubles from there
	RetryMax    = ListSteady      // a fault that ends is noticed within one steady refresh
	// WaitCooldown is the least time between two waits on one machine, so
	// a wait that returns at once cannot spin; WaitRetry, after a wait
	// that failed.
	WaitCooldown = 2 * time.Second
	WaitRetry    = ListSteady
	MaxWaits     = 16 // wait long-polls in flight at once: each holds a connection
	MaxProbes    = 2  // exec probes in flight
	ProbesPerMin = 6  // exec probes started a minute
	MaxLooks     = 4  // targeted looks in flight
	MaxHintLooks = 8  // looks one logs page may ask for; more is a listing
	// MachinesPerMin is the Machines API calls a minute an open app at
	// rest is meant to cost. Only the probes are held to it: they start
	// only while the last minute's calls leave probeHeadroom of it for the
	// listing and the wait a change costs. The waits and listings that
	// say what changed are never held back, so changes faster than about
	// one every 40 s cost more.
	MachinesPerMin = 15
	probeHeadroom  = 2

	listTimeout     = 20 * time.Second
	lookTimeout     = 15 * time.Second
	waitSlack       = 10 * time.Second // a wait's deadline past its poll
	probeTimeout    = ProbeTimeout + 5*time.Second
	appsTimeout     = 15 * time.Second
	actTimeout      = 30 * time.Second // a start, stop or suspend (they answer once accepted)
	describeTimeout = 15 * time.Second
)

// Failure is the state of a failing machines listing.
type Failure struct {
	Err     error
	Delay   time.Duration
	RetryAt time.Time // wall
}

// next doubles the retry delay, from RetryFirst up to RetryMax; when the
// API asked to wait longer (Retry-After), it waits that long instead.
func (f Failure) next(err error) time.Duration {
	d := RetryFirst
	if f.Delay != 0 {
		d = min(f.Delay*2, RetryMax)
	}
	if wait, ok := RetryAfter(err); ok {
		d = max(d, wait)
	}
	return d
}

// Scheduler is the data layer's one scheduler. The zero value is not
// usable; use NewScheduler.
type Scheduler struct {
	feeds    []Feed
	orgFeeds []OrgFeed

	seq int // job ids
	gen int // the open app's generation, bumped by Open
	app string
	// stopped: the listing failed in a way no retry fixes (a bad token, an
	// unknown app); nothing more is fetched for this app.
	stopped bool

	list  listState
	looks []look // machines to look at, in the order asked
	// lookedNow is, by machine, the platform's time the newest look
	// applied was sent: a log line older than it (or than the newest
	// listing's) says nothing the model does not show.
	lookedNow map[string]time.Time
	// waits are the wait long-polls in flight, by machine: true for a
	// machine at rest (a steady wait), false for one in transition.
	waits map[string]bool
	// waitNext is the wall time before which no wait starts on a machine
	// (WaitCooldown, WaitRetry, Retry-After).
	waitNext map[string]time.Time
	// unseen holds the machines a wait said changed that no look or
	// listing has shown since: no wait starts on them from the stale
	// state, which it would only find reached at once.
	unseen map[string]unseen
	// waitFailing: a steady wait failed (not timed out), so the waits may
	// not be watching; the listing keeps its steady pace until one answers.
	waitFailing bool
	// atRest: waits watch the machines at rest too (WatchAtRest).
	atRest   bool
	probes   map[string]bool
	launches []time.Time // wall times of recent probe starts
	calls    []time.Time // wall times of the Machines API calls started in the last minute
	feed     []feedState

	orgOn bool
	org   []orgFeedState

	asked []Job // what the user asked for, handed out by the next Due
}

type listState struct {
	busy    bool      // a listing is in flight
	again   bool      // list again as soon as it returns
	sent    int       // id of the listing in flight
	applied int       // id of the newest listing applied
	due     time.Time // wall; zero: at once
	okWall  time.Time // when the last good listing arrived
	sentNow time.Time // the platform's time the listing in flight was sent
	shown   time.Time // the platform's time the newest listing applied was sent
	fail    Failure
	// covering: machines a log line named whose look was left to the
	// listing in flight; looked at if that listing fails.
	covering []string
}

// unseen is a machine a wait said changed: the job id then (a listing
// sent later shows it) and what the model held of it.
type unseen struct {
	asked int
	was   mark
}

// mark is what says a machine changed: its state, its version and its
// newest event.
type mark struct {
	state, instance string
	event           time.Time
}

func markOf(app *snapshot.App, id string) mark {
	m, ok := app.Machine(id)
	if !ok {
		return mark{}
	}
	k := mark{state: m.State, instance: m.InstanceID}
	if len(m.Events) > 0 {
		k.event = m.Events[0].At
	}
	return k
}

// seen is called once a look or a listing shows a machine a wait said
// changed: when nothing did (a platform whose waits answer at once), the
// next wait there comes only after WaitRetry, so the two cannot spin.
func (s *Scheduler) seen(id string, u unseen, app *snapshot.App, wall time.Time) {
	delete(s.unseen, id)
	if markOf(app, id) == u.was {
		s.waitNext[id] = wall.Add(WaitRetry)
	}
}

type look struct {
	machine string
	asked   int // the scheduler's job id when it was asked for: a listing sent later covers it
	busy    bool
}

type feedState struct {
	busy   bool
	cursor string
	err    error
	due    time.Time // wall
}

type orgFeedState struct {
	busy bool
	idle bool // the last Due found nothing to do: new data may change that
	err  error
	due  time.Time // wall
}

// NewScheduler schedules the given feeds for the open app and the org
// feeds for the overview. No app is open until Open.
func NewScheduler(feeds []Feed, orgFeeds []OrgFeed) *Scheduler {
	s := &Scheduler{feeds: feeds, orgFeeds: orgFeeds, org: make([]orgFeedState, len(orgFeeds)), atRest: true}
	s.Open("")
	return s
}

// Open points the scheduler at app ("" none: only the org feeds run): a
// new generation, whose listing and feeds are due at once; replies of
// the previous one are dropped. It returns the generation.
func (s *Scheduler) Open(app string) int {
	s.gen++
	s.app, s.stopped = app, false
	s.list = listState{}
	s.looks, s.lookedNow = nil, map[string]time.Time{}
	s.waits, s.waitNext, s.unseen, s.waitFailing = map[string]bool{}, map[string]time.Time{}, map[string]unseen{}, false
	s.probes, s.launches, s.calls = map[string]bool{}, nil, nil
	s.feed = make([]feedState, len(s.feeds))
	kept := s.asked[:0]
	for _, j := range s.asked {
		if j.Gen == 0 {
			kept = append(kept, j)
		}
	}
	s.asked = kept
	return s.gen
}

// WatchAtRest says whether waits watch an app's machines at rest too (on
// by default). A platform whose waits cannot hold turns it off: a
// lockstep recording answers every wait at once, as an expired poll, so
// waits there would only cost calls and slow the listing.
func (s *Scheduler) WatchAtRest(on bool) { s.atRest = on }

// Gen is the open app's generation.
func (s *Scheduler) Gen() int { return s.gen }

// ListNow makes the listing due at once (or again as soon as the one in
// flight returns): something changed that the next listing should show.
func (s *Scheduler) ListNow() {
	if s.list.busy {
		s.list.again = true
		return
	}
	s.list.due = time.Time{}
}

// Refresh makes the listing and every feed not in flight due at once.
func (s *Scheduler) Refresh() {
	s.ListNow()
	for i := range s.feed {
		if !s.feed[i].busy {
			s.feed[i].due = time.Time{}
		}
	}
}

// Look asks for a look at one machine of the open app as soon as a
// look may go out: a targeted GET, without waiting for the next listing
// (a listing that goes out first covers it).
func (s *Scheduler) Look(machine string) {
	for _, l := range s.looks {
		if l.machine == machine && !l.busy {
			return
		}
	}
	s.looks = append(s.looks, look{machine: machine, asked: s.seq})
}

// StartOrg starts the org feeds, once; it reports whether it did.
func (s *Scheduler) StartOrg() bool {
	if s.orgOn {
		return false
	}
	s.orgOn = true
	return true
}

// Ask queues a call the user asked for (AppsJob, ActJob, DescribeJob) of
// the open app; the next Due hands it out. It returns the job, whose ID
// its reply carries.
func (s *Scheduler) Ask(j Job) Job {
	s.seq++
	j.ID, j.Gen = s.seq, s.gen
	if j.App == "" {
		j.App = s.app
	}
	switch j.Kind {
	case AppsJob:
		j.Timeout = appsTimeout
	case ActJob:
		j.Timeout = actTimeout
	case DescribeJob:
		j.Timeout = describeTimeout
	}
	s.asked = append(s.asked, j)
	return j
}

func (s *Scheduler) job(k Kind) Job {
	s.seq++
	return Job{ID: s.seq, Gen: s.gen, Kind: k, App: s.app}
}

// Due is every call to make now, given the models and the clock; each is
// then in flight until its reply comes back through Done. It does no I/O,
// and the same state and clock always give the same jobs.
func (s *Scheduler) Due(c Clock, app *snapshot.App, org *snapshot.Org) []Job {
	out := s.count(s.asked, 0, c.Wall)
	s.asked = nil
	if s.app != "" && !s.stopped && app != nil {
		out = s.dueApp(out, c, app)
	}
	if s.orgOn && org != nil {
		out = s.dueOrg(out, c, org)
	}
	return out
}

// machinesAPI reports whether a job of kind k is a Machines API call of
// the open app (what MachinesPerMin counts; a feed is its own API's).
func (k Kind) machinesAPI() bool {
	switch k {
	case ListJob, LookJob, WaitJob, ProbeJob, ActJob, DescribeJob:
		return true
	}
	return false
}

// count records the Machines API calls among jobs[from:], started at wall.
func (s *Scheduler) count(jobs []Job, from int, wall time.Time) []Job {
	for _, j := range jobs[from:] {
		if j.Kind.machinesAPI() {
			s.calls = append(s.calls, wall)
		}
	}
	return jobs
}

// callsLastMinute is how many Machines API calls started within a minute
// of wall.
func (s *Scheduler) callsLastMinute(wall time.Time) int {
	kept := s.calls[:0]
	for _, t := range s.calls {
		if wall.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	s.calls = kept
	return len(kept)
}

func (s *Scheduler) dueApp(out []Job, c Clock, app *snapshot.App) []Job {
	from := len(out)
	if !s.list.busy && !c.Wall.Before(s.list.due) {
		s.list.busy = true
		j := s.job(ListJob)
		j.Timeout, j.sentNow = listTimeout, c.Now
		s.list.sent, s.list.sentNow = j.ID, c.Now
		out = append(out, j)
	}
	out = s.dueLooks(out, c)
	out = s.dueWaits(out, c, app)
	out = s.count(out, from, c.Wall) // before the probes, which yield to these
	from = len(out)
	out = s.dueProbes(out, c, app)
	out = s.count(out, from, c.Wall)
	for i := range s.feeds {
		st := &s.feed[i]
		if st.busy || c.Wall.Before(st.due) {
			continue
		}
		st.busy = true
		j := s.job(FeedJob)
		j.Feed, j.Query, j.Timeout, j.feed = i, Query{App: s.app, Cursor: st.cursor}, s.feeds[i].Timeout, &s.feeds[i]
		out = append(out, j)
	}
	return out
}

// dueLooks sends the looks asked for, MaxLooks at a time; a listing in
// flight that was sent after a look was asked for covers it.
func (s *Scheduler) dueLooks(out []Job, c Clock) []Job {
	busy := 0
	kept := s.looks[:0]
	for _, l := range s.looks {
		if !l.busy && s.list.busy && s.list.sent > l.asked {
			continue // the listing in flight will show it
		}
		if l.busy {
			busy++
		}
		kept = append(kept, l)
	}
	s.looks = kept
	for i := range s.looks {
		l := &s.looks[i]
		if l.busy || busy >= MaxLooks {
			continue
		}
		l.busy = true
		busy++
		j := s.job(LookJob)
		j.Machine, j.Timeout, j.sentNow = l.machine, lookTimeout, c.Now
		out = append(out, j)
	}
	return out
}

// dueWaits starts one wait for every transient machine that has none in
// flight (and did not just finish one), MaxWaits at once: a large app
// mid-deploy would otherwise open one per machine; the fast listing
// covers the rest. When the waits can watch every machine (watchable),
// the machines at rest get one too: a stop, start, suspend, crash or
// autostop then answers the wait within the second, for one call a
// machine a minute.
func (s *Scheduler) dueWaits(out []Job, c Clock, app *snapshot.App) []Job {
	steady := s.atRest && watchable(app)
	for pass := range 2 {
		transient := pass == 0 // the machines about to change first
		if !transient && !steady {
			break
		}
		for _, mc := range app.Machines {
			if len(s.waits) >= MaxWaits {
				return out
			}
			id := mc.ID
			if diagnose.IsTransient(mc.State) != transient {
				continue
			}
			if _, busy := s.waits[id]; busy || c.Wall.Before(s.waitNext[id]) {
				continue
			}
			if _, stale := s.unseen[id]; stale {
				continue
			}
			states := waitStates(mc.State)
			if states == nil {
				continue
			}
			s.waits[id] = !transient
			delete(s.waitNext, id)
			j := s.job(WaitJob)
			j.Machine, j.Instance, j.States, j.Poll = id, mc.InstanceID, states, WaitPoll
			if !transient {
				j.Poll = SteadyWaitPoll
			}
			j.Timeout = j.Poll + waitSlack
			out = append(out, j)
		}
	}
	return out
}

// watchable reports whether waits can watch every machine of app: few
// enough for MaxWaits, each in a state a wait follows.
func watchable(app *snapshot.App) bool {
	if len(app.Machines) > MaxWaits {
		return false
	}
	for _, mc := range app.Machines {
		if waitStates(mc.State) == nil {
			return false
		}
	}
	return true
}

// dueProbes starts the probes the model wants, within the budget.
func (s *Scheduler) dueProbes(out []Job, c Clock, app *snapshot.App) []Job {
	budget := s.probeBudget(c.Wall)
	if budget <= 0 {
		return out
	}
	for _, p := range app.ProbesDue(c.Now) { // in the order they run
		if budget <= 0 {
			break
		}
		k := probeKey(p)
		if s.probes[k] {
			continue
		}
		s.probes[k] = true
		s.launches = append(s.launches, c.Wall)
		budget--
		j := s.job(ProbeJob)
		j.Machine, j.Probe, j.Timeout = p.Machine, p, probeTimeout
		out = append(out, j)
	}
	return out
}

func probeKey(p snapshot.ProbeRequest) string {
	return p.Kind.String() + "/" + p.Machine + "/" + p.Key
}

// probeBudget is how many probes may start now, given the recent starts
// and the Machines API calls of the last minute: the waits and looks that
// say what changed come first.
func (s *Scheduler) probeBudget(wall time.Time) int {
	kept := s.launches[:0]
	for _, t := range s.launches {
		if wall.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	s.launches = kept
	return min(MaxProbes-len(s.probes), ProbesPerMin-len(kept), MachinesPerMin-probeHeadroom-s.callsLastMinute(wall))
}

func (s *Scheduler) dueOrg(out []Job, c Clock, org *snapshot.Org) []Job {
	oc := c.org()
	for i := range s.orgFeeds {
		st, f := &s.org[i], &s.orgFeeds[i]
		if st.busy || c.Wall.Before(st.due) {
			continue
		}
		q, due := f.Due(org, oc)
		st.idle = !due
		if !due {
			st.due = c.Wall.Add(f.Next(org, oc, OrgResult{}))
			continue
		}
		st.busy = true
		s.seq++
		out = append(out, Job{ID: s.seq, Kind: OrgJob, Feed: i, OrgQuery: q, Timeout: f.Timeout, orgFeed: f})
	}
	return out
}

// Outcome is what Done did with a reply.
type Outcome struct {
	// Dropped: the reply belongs to another app generation, or is older
	// than one already applied; nothing was applied.
	Dropped bool
	App     bool // the app's model changed
	Org     bool // the org's model changed
	Listed  bool // a listing was applied: the data is fresh
	// ListFailed: the listing failed and the data is as old as the last
	// good one; Fatal is set when no retry can fix it (nothing more is
	// fetched for the app).
	ListFailed bool
	Fatal      error
}

// Done takes a job's reply back: the job is no longer in flight, its data
// goes into the models, and what it makes due is due.
func (s *Scheduler) Done(r Reply, c Clock, app *snapshot.App, org *snapshot.Org) Outcome {
	if r.Kind == OrgJob {
		return s.doneOrg(r, c, org)
	}
	if r.Gen != s.gen || app == nil {
		return Outcome{Dropped: true}
	}
	switch r.Kind {
	case ListJob:
		return s.doneList(r, c, app)
	case LookJob:
		s.doneLook(r.Machine)
		switch {
		case errors.Is(r.Err, fly.ErrMachineNotFound{}):
			s.ListNow() // gone: the listing says so
		case r.Err == nil:
			app.ApplyLook(r.Listing)
			s.lookedNow[r.Machine] = later(s.lookedNow[r.Machine], r.sentNow)
			if u, ok := s.unseen[r.Machine]; ok {
				s.seen(r.Machine, u, app, c.Wall)
			}
			return Outcome{App: true}
		case s.list.fail.Err == nil: // a failing listing keeps its back-off
			s.ListNow()
		}
	case WaitJob:
		s.doneWait(r, c, app)
	case ProbeJob:
		delete(s.probes, probeKey(r.Probe))
		app.ApplyProbe(r.Probe, r.Exec, c.Now)
		return Outcome{App: true}
	case FeedJob:
		return s.doneFeed(r, c, app)
	case ActJob:
		s.ListNow() // the transition shows in the listing; the waits follow it
	}
	return Outcome{}
}

func (s *Scheduler) doneList(r Reply, c Clock, app *snapshot.App) Outcome {
	if r.ID < s.list.applied {
		return Outcome{Dropped: true}
	}
	if r.ID == s.list.sent {
		s.list.busy = false
	}
	s.list.applied = r.ID
	var covering []string // what was left to this listing, if it is the one in flight
	if r.ID == s.list.sent {
		covering, s.list.covering = s.list.covering, nil
	}
	if r.Err != nil {
		// The machines a log line named were left to this listing.
		for _, id := range covering {
			s.Look(id)
		}
		if IsFatal(r.Err) {
			s.stopped = true
			return Outcome{ListFailed: true, Fatal: r.Err}
		}
		delay := s.list.fail.next(r.Err)
		s.list.fail = Failure{Err: r.Err, Delay: delay, RetryAt: c.Wall.Add(delay)}
		s.list.due, s.list.again = c.Wall.Add(delay), false
		return Outcome{ListFailed: true}
	}
	s.list.fail = Failure{}
	s.list.okWall = c.Wall
	s.list.shown = later(s.list.shown, r.sentNow)
	app.ApplyConverted(r.Listing, c.Now)
	for id, u := range s.unseen {
		if r.ID > u.asked { // sent after the wait said it changed
			s.seen(id, u, app, c.Wall)
		}
	}
	if s.list.again {
		s.list.again, s.list.due = false, time.Time{}
	} else {
		s.list.due = c.Wall.Add(s.listInterval(app))
	}
	return Outcome{App: true, Listed: true}
}

// listInterval adapts the listing to what the machines are doing and to
// whether the waits watch them all.
func (s *Scheduler) listInterval(app *snapshot.App) time.Duration {
	switch {
	case app.Transitioning():
		return ListFast
	case s.atRest && watchable(app) && !s.waitFailing:
		return ListWatched
	}
	return ListSteady
}

// doneWait takes a wait's answer: reached, the machine changed, so list;
// timed out, a machine at rest is still at rest (the next Due waits
// again), one in transition is stuck, so list; failed, list, and wait
// again only after WaitRetry (or the API's Retry-After).
func (s *Scheduler) doneWait(r Reply, c Clock, app *snapshot.App) {
	steady := s.waits[r.Machine]
	delete(s.waits, r.Machine)
	next := WaitCooldown
	switch {
	case r.Err == nil:
		// A listing, not a look: on an app waits can watch whole it costs
		// the same one call, and the crash and rollout judge judges whole
		// listings (a look keeps the machine's last verdict).
		s.unseen[r.Machine] = unseen{asked: s.seq, was: markOf(app, r.Machine)}
		s.ListNow()
		if steady {
			s.waitFailing = false
		}
	case errors.Is(r.Err, fly.ErrWaitTimeout{}):
		if steady {
			s.waitFailing = false
		} else {
			s.ListNow()
		}
	case errors.Is(r.Err, fly.ErrMachineNotFound{}):
		s.ListNow() // gone: the listing says so
	default:
		if steady {
			s.waitFailing = true
		}
		next = WaitRetry
		if wait, ok := RetryAfter(r.Err); ok {
			next = max(next, wait)
		}
		if s.list.fail.Err == nil { // a failing listing keeps its back-off
			s.ListNow()
		}
	}
	s.waitNext[r.Machine] = c.Wall.Add(next)
}

func (s *Scheduler) doneLook(machine string) {
	for i, l := range s.looks {
		if l.machine == machine && l.busy {
			s.looks = append(s.looks[:i], s.looks[i+1:]...)
			return
		}
	}
}

func (s *Scheduler) doneFeed(r Reply, c Clock, app *snapshot.App) Outcome {
	if r.Feed < 0 || r.Feed >= len(s.feed) {
		return Outcome{Dropped: true}
	}
	st := &s.feed[r.Feed]
	st.busy, st.err = false, r.Result.Err
	if r.Result.Cursor != "" {
		st.cursor = r.Result.Cursor
	}
	out := Outcome{}
	if r.Result.Apply != nil {
		r.Result.Apply(app)
		out.App = true
	}
	s.lookAtChanged(r.Result.Changed)
	next := s.feeds[r.Feed].Next(app, r.Result)
	if wait, ok := RetryAfter(r.Result.Err); ok {
		next = max(next, wait)
	}
	st.due = c.Wall.Add(next)
	return out
}

// lookAtChanged looks at the machines a feed said changed that no wait
// watches (a wait in flight will say) and no listing or look sent after
// the line shows (the lines of a change a wait answered for come a logs
// poll later); more than MaxHintLooks at once (a mass autostop, a deploy)
// is one listing instead.
func (s *Scheduler) lookAtChanged(changes []Change) {
	var unwatched []string
	for _, ch := range changes {
		if _, watched := s.waits[ch.Machine]; watched {
			continue
		}
		if ch.At.Before(later(s.list.shown, s.lookedNow[ch.Machine])) {
			continue
		}
		if s.list.busy && ch.At.Before(s.list.sentNow) {
			s.list.covering = append(s.list.covering, ch.Machine)
			continue
		}
		unwatched = append(unwatched, ch.Machine)
	}
	if len(unwatched) > MaxHintLooks {
		s.ListNow()
		return
	}
	for _, id := range unwatched {
		s.Look(id)
	}
}

func (s *Scheduler) doneOrg(r Reply, c Clock, org *snapshot.Org) Outcome {
	if r.Feed < 0 || r.Feed >= len(s.org) || org == nil {
		return Outcome{Dropped: true}
	}
	st := &s.org[r.Feed]
	st.busy, st.err = false, r.OrgResult.Err
	out := Outcome{}
	if r.OrgResult.Apply != nil {
		r.OrgResult.Apply(org)
		out.Org = true
		// The apps listing makes listings and logs due at once: feeds
		// that found nothing to do look again now rather than after
		// their wait.
		for i := range s.org {
			if i != r.Feed && s.org[i].idle && !s.org[i].busy {
				s.org[i].due = time.Time{}
			}
		}
	}
	next := s.orgFeeds[r.Feed].Next(org, c.org(), r.OrgResult)
	if wait, ok := RetryAfter(r.OrgResult.Err); ok {
		next = max(next, wait)
	}
	st.due = c.Wall.Add(next)
	return out
}

// NextWake is the wall time the next call comes due (a timer's, not a
// reply's); false when nothing is timed.
func (s *Scheduler) NextWake(c Clock) (time.Time, bool) {
	var at time.Time
	consider := func(due time.Time) {
		if due.After(c.Wall) && (at.IsZero() || due.Before(at)) {
			at = due
		}
	}
	if s.app != "" && !s.stopped {
		if !s.list.busy {
			consider(s.list.due)
		}
		for _, at := range s.waitNext { // a machine's next wait
			consider(at)
		}
		for _, st := range s.feed {
			if !st.busy {
				consider(st.due)
			}
		}
	}
	if s.orgOn {
		for _, st := range s.org {
			if !st.busy {
				consider(st.due)
			}
		}
	}
	return at, !at.IsZero()
}

// Failure is the failing listing's state (zero when the last one
// succeeded).
func (s *Scheduler) Failure() Failure { return s.list.fail }

// ListedWall is when the last good listing arrived (wall; zero: none yet).
func (s *Scheduler) ListedWall() time.Time { return s.list.okWall }

// Listing is the id of the listing in flight; false when none is.
func (s *Scheduler) Listing() (id int, inFlight bool) { return s.list.sent, s.list.busy }

// FailingFeeds are the names of the feeds whose last fetch failed.
func (s *Scheduler) FailingFeeds() []string {
	var out []string
	for i, st := range s.feed {
		if st.err != nil {
			out = append(out, s.feeds[i].Name)
		}
	}
	return out
}

// FeedIndex is the index of the open app's feed named name (-1: none).
func (s *Scheduler) FeedIndex(name string) int {
	for i, f := range s.feeds {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// FeedName is the name of the open app's feed at index i.
func (s *Scheduler) FeedName(i int) string {
	if i < 0 || i >= len(s.feeds) {
		return ""
	}
	return s.feeds[i].Name
}
