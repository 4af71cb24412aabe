package verdict

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/sources/words"
)

// DefaultSettle is the least time between two looks at a machine: longer
// than an app that crashes 2.5 s after every start (the demo's crashy-api
// and crashing release) takes to crash and come back,
// so a crash loop always shows a newer crash at the next look.
const DefaultSettle = 5 * time.Second

// maxLooks bounds the looks a machine keeps (the dashboard looks every
// settle for as long as it runs).
const maxLooks = 12

// Options configure a Judge.
type Options struct {
	// Release is the release to judge; "" judges the highest
	// fly_release_version among the machines (diagnose.CurrentRelease).
	Release string
	// Settle is the least time between two looks at one machine (platform
	// time); 0 is DefaultSettle.
	Settle time.Duration
	// Afresh works every machine's standing out again at every listing,
	// taking no shortcut for a machine whose inputs did not change: what
	// the shortcuts are tested against.
	Afresh bool
}

// Judge judges a release look by look. Hand it every listing with the
// platform time it was taken at; it decides which listing is a look at which
// machine:
//
//  1. a machine's first look is the first listing that shows it settled
//     (not replacing, updating, starting, restarting…) on the release;
//  2. every later look is the first settled listing at least Settle after
//     the previous look;
//  3. each look compares the newest crash since the release began with the
//     previous look's (CrashTracker), never a count: a newer crash
//     than one already seen is a crash loop, a stopped machine whose last
//     crash was not restarted was given up on;
//  4. a machine is live after two looks with nothing new, started, and
//     with its health checks passing when it has any. A crash seen for the
//     first time takes one more look.
//
// The zero value is not usable; use New.
type Judge struct {
	opts   Options
	byID   map[string]*tracked
	gen    int                // listings observed
	last   []*tracked         // the last listing's entries, in order (nil: skipped)
	lastIn []*machine.Machine // what they were handed
	rels   []string           // their releases
	// spare and spareIn are the listing before's, for the next listing to
	// reuse.
	spare   []*tracked
	spareIn []*machine.Machine
	same    bool // see Same
	// prev is the last result and prevLast its entries (ok: it may be
	// answered again): a listing whose machines all say what they said
	// then has the same result, but for what waits on the clock.
	prev     Result
	prevLast []*tracked
	prevOK   bool
	mayAwait []int // of the last listing's entries, those mayAwaitAt says
	// quiet: the last listing read whole (nothing skipped, nothing
	// dropped, no machine twice) left every machine where the same
	// machine values would leave it again, from quietSince (its time)
	// until quietUntil when bounded (the first look due): see unmoved.
	quiet, quietBounded    bool
	quietSince, quietUntil time.Time
	// judged is the release the last listing was judged against (before
	// sanitize.Field), and pos, by the last listing's index, where its
	// entry stands in prev.Machines (-1: none): what few patches.
	judged string
	pos    []int32
	// moved are the indices of the last listing whose machines few
	// worked out again, when movedOK (see Moved).
	moved   []int
	movedOK bool
}

// tracked is what the judge remembers of one machine.
type tracked struct {
	release  string // as last listed
	from     string // the release before the latest change seen
	instance string // the version the looks are about

	crash      CrashTracker
	verdict    diagnose.CrashVerdict
	looks      []Look
	lookCount  int
	lastLook   time.Time
	firstCrash time.Time
	crashes    []Crash
	live       bool   // reached live: stays live unless it crashes again
	failed     string // why it failed; sticky for the version

	gen, emitted int     // the listing that last named it, and put it in a result
	key          outKey  // what out was worked out from
	out          Machine // where it stands after the last listing
	// unread says why the last listing's word on it could not all be read
	// ("" when it could): no look was taken then, and it cannot be live.
	unread string
	// unreadGen is the listing that skipped its entry (it was not listed).
	unreadGen int
	// steady: it names no release, and would be live or idle were it of
	// the judged release (it hides no crash).
	steady bool

	// in is what the last observe was handed, when it held no event timed
	// too far ahead (untimeTheFuture changed nothing): the same machine
	// (a Converter's, unchanged) with the same inputs and no look due says
	// what it said then, so observe skips it.
	in observed
	// Of in.fm, worked out with it: its newest event's time (a time after
	// now+maxSkew is untimed), and whether a look can be taken at it (read
	// whole, neither gone nor in transition) once one is due.
	inNewest   time.Time
	inLookable bool
}

// observed is what observe works a machine's standing out from.
type observed struct {
	fm              *machine.Machine
	release, judged string
	dropped         int
}

// New returns a judge.
func New(opts Options) *Judge {
	if opts.Settle <= 0 {
		opts.Settle = DefaultSettle
	}
	return &Judge{opts: opts, byID: map[string]*tracked{}}
}

// Settle is the least time between two looks at one machine.
func (j *Judge) Settle() time.Duration { return j.opts.Settle }

// Listing is one machines listing as the judge reads it: the machines the
// answer held, and what it held that could not be read.
type Listing struct {
	Machines []*machine.Machine
	// Skipped are the entries skipped whole (null, or undecodable), one
	// each: the machine's id when the entry names one, else "".
	Skipped []string
	// Partial counts, by machine id, the checks, events and containers
	// dropped from a machine that was kept.
	Partial map[string]int
}

// Observe judges a listing of ms read whole (ObserveListing).
func (j *Judge) Observe(ms []*machine.Machine, now time.Time) Result {
	return j.ObserveListing(Listing{Machines: ms}, now)
}

// ObserveListing judges one listing taken at platform time now. A machine
// listed twice counts once; a machine no longer listed is forgotten — unless
// the listing skipped entries it could not read, which may be that machine:
// then it is remembered, and unread. What could not be read (Unread) keeps
// the release from live. It allocates little beyond the result: a machine
// whose inputs did not change keeps its status and sentence, so the
// dashboard can hand it every listing of a large app.
func (j *Judge) ObserveListing(l Listing, now time.Time) Result {
	if j.unmoved(l, now) {
		j.moved, j.movedOK = j.moved[:0], true
		return j.again(l.Machines, now)
	}
	if r, ok := j.few(l, now); ok {
		return r
	}
	j.movedOK = false
	j.quiet = false
	j.gen++
	ms := l.Machines
	// Each listed machine's tracker, in listing order (nil: skipped), and
	// its release: worked out once, reused by the passes below and by At.
	// A machine handed in again at the same place has the tracker it had
	// there: no lookup by id.
	old, oldIn := j.last, j.lastIn
	j.last, j.lastIn = j.spare[:0], j.spareIn[:0]
	defer func() { j.spare, j.spareIn = old, oldIn }()
	j.same = false
	j.rels = j.rels[:0]
	release, best, live := j.opts.Release, "", 0
	var unread []Unread
	anonymous := 0 // skipped entries that name no machine
	for i, fm := range ms {
		var t *tracked
		rel := ""
		if fm == nil || fm.ID == "" {
			anonymous++ // a listing converted by sources/snapshot holds none
		} else {
			if i < len(oldIn) && old[i] != nil && (oldIn[i] == fm || oldIn[i].ID == fm.ID) {
				t = old[i] // byID's: it was listed last time, at the same place
			} else if t = j.byID[fm.ID]; t == nil {
				t = &tracked{}
				j.byID[fm.ID] = t
			}
			if t.gen == j.gen {
				t = nil // listed twice: the first one stands
			} else {
				t.gen = j.gen
				live++
				rel = releaseOf(fm)
				if rel != best && diagnose.Classify(fm.State) != diagnose.Gone {
					pair := [2]string{best, rel}
					best = diagnose.CurrentRelease(pair[:])
				}
			}
		}
		j.last = append(j.last, t)
		j.lastIn = append(j.lastIn, fm)
		j.rels = append(j.rels, rel)
	}
	for _, id := range l.Skipped {
		t := j.byID[id]
		switch {
		case id == "":
			anonymous++
		case t == nil:
			unread = append(unread, Unread{ID: sanitize.Field(id), Why: "its entry in the answer could not be decoded"})
		case t.gen != j.gen:
			t.unreadGen = j.gen
		}
	}
	remembered := 0
	if len(j.byID) > live {
		for id, t := range j.byID {
			switch {
			case t.gen == j.gen:
			case t.unreadGen == j.gen || anonymous > 0:
				// Perhaps the entry that could not be read: not gone.
				t.unreadGen = j.gen
				remembered++
			default:
				delete(j.byID, id) // went away
			}
		}
	}
	if release == "" {
		release = best
	}
	j.judged = release
	worked := false // some machine's standing was worked out again
	q := quietness{ok: anonymous == 0 && remembered == 0 && len(l.Skipped) == 0 && len(l.Partial) == 0 && !j.opts.Afresh}
	for i, fm := range ms {
		t := j.last[i]
		if t == nil {
			q.ok = false // listed twice
			continue
		}
		if j.observe(t, fm, j.rels[i], release, l.Partial[fm.ID], now) {
			worked = true
		}
		if q.ok {
			q.add(t, observed{fm: fm, release: j.rels[i], judged: release}, j.opts.Settle)
		}
	}
	j.quiet, j.quietBounded, j.quietSince, j.quietUntil = q.ok, q.bounded, now, q.until
	if !worked && remembered == 0 && anonymous == 0 && len(unread) == 0 && j.prevOK &&
		sanitize.Field(release) == j.prev.Release && slices.Equal(j.last, j.prevLast) {
		return j.again(ms, now)
	}
	return j.build(ms, release, live, remembered, anonymous, unread, now)
}

// build works the result of the listing ms out from its machines'
// trackers (j.last), as observe left them: live of them listed,
// remembered more not listed, anonymous entries naming none, and what
// could not be read so far.
func (j *Judge) build(ms []*machine.Machine, release string, live, remembered, anonymous int, unread []Unread, now time.Time) Result {
	defer j.keep()
	j.mayAwait = j.mayAwait[:0]
	j.pos = j.pos[:0]
	// The release's machines fill the result from the front, the others
	// from the back (then put back in listing order).
	n := live + remembered
	r := Result{Release: sanitize.Field(release), Machines: make([]Machine, n)}
	front, back := 0, n
	firstRelease, releases := "", 0
	var counts outcomeCounts
	place := func(m *Machine) int32 {
		if m.Status == StatusOld || m.Status == StatusGone {
			back--
			r.Machines[back] = *m
			return int32(-2 - back) // put back in order below
		}
		r.Machines[front] = *m
		front++
		counts.add(m)
		return int32(front - 1)
	}
	for i, fm := range ms {
		t := j.last[i]
		if t == nil {
			j.pos = append(j.pos, -1)
			continue
		}
		m := &t.out
		if m.Unread != "" && (m.Release == release || m.Release == "") {
			unread = append(unread, Unread{ID: m.ID, Why: m.Unread, steady: t.steady})
		}
		if m.Status != StatusGone && (releases == 0 || m.Release != firstRelease) {
			if releases == 0 {
				firstRelease = m.Release
			}
			releases = min(releases+1, 2)
		}
		r.Rollout = r.Rollout || m.From != ""
		// The next look is due one settle after this machine's last, for a
		// machine of the release still being looked at, and for any machine
		// whose crash was seen once (its crash verdict needs the next look).
		if t.lookCount > 0 && (m.Status == StatusLooking || (m.Status == StatusOld && m.Crash.Kind == diagnose.Watching)) {
			if next := t.lastLook.Add(j.opts.Settle); r.NextLook.IsZero() || next.Before(r.NextLook) {
				r.NextLook = next
			}
		}
		switch fm.State {
		case "replacing", "updating", "creating":
			counts.replacing++
		}
		j.pos = append(j.pos, place(m))
		if mayAwaitAt(m, fm) {
			j.mayAwait = append(j.mayAwait, i)
			if j.lookComes(t, now) {
				r.Awaiting = append(r.Awaiting, Await{ID: fm.ID, InstanceID: fm.InstanceID})
			}
		}
	}
	if remembered > 0 {
		// In id order, so the result does not depend on the map's.
		ids := make([]string, 0, remembered)
		for id, t := range j.byID {
			if t.gen != j.gen {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			m := j.byID[id].rememberedOut()
			unread = append(unread, Unread{ID: m.ID, Why: m.Unread})
			place(&m)
		}
	}
	for i := 0; i < anonymous; i++ {
		unread = append(unread, Unread{Why: "an entry of the machines answer that could not be read (null, or not a machine)"})
	}
	slices.Reverse(r.Machines[front:])
	for i, p := range j.pos {
		if p < -1 { // at back = -2-p, reversed into front+n-1-back
			j.pos[i] = int32(front + n - 1 - int(-2-p))
		}
	}
	r.Rollout = r.Rollout || releases > 1
	r.Outcome, r.Reason = j.outcome(r, front, live > 0, &counts)
	r.Unread = unread
	if len(unread) > 0 && r.Outcome != Failed {
		// The rule: what could not be read may hide a failure, so no
		// outcome but a failure seen stands — the release cannot be judged.
		r.Outcome, r.Reason = CannotJudge, unreadReason(r.ReleaseName(), unread)
	}
	if r.Outcome != Undecided {
		// Nothing to long-poll for the outcome; NextLook stays: a machine
		// that crashed once still needs its look to say what it is (the
		// dashboard and status show each machine's verdict).
		r.Awaiting = nil
	}
	j.prev = r
	return r
}

// unmoved reports whether l hands in the last listing's machine values,
// at the same places, read whole, at a time when none of them is due a
// look and the clock has not gone back: the last listing left each where
// the same values leave it, so observe would work none of them out again
// and the result is the last one (again). A listing of 10,000 machines at
// rest then costs the judge a comparison of pointers, not a walk through
// 10,000 machines' memory twice.
func (j *Judge) unmoved(l Listing, now time.Time) bool {
	if !j.quiet || !j.prevOK || len(l.Skipped) > 0 || len(l.Partial) > 0 || len(l.Machines) != len(j.lastIn) ||
		now.Before(j.quietSince) || (j.quietBounded && !now.Before(j.quietUntil)) {
		return false
	}
	for i, fm := range l.Machines {
		if fm != j.lastIn[i] {
			return false
		}
	}
	return true
}

// few judges l when it hands in the last listing's machine values at the
// same places but for a few, each new value naming the machine its place
// held, on the same release and as gone or not as it was, read whole, at
// a time when none of the others is due a look and the clock has not
// gone back (the window unmoved keeps): the others stand where they stood
// — observe would work none of them out again — so only the new values
// are observed. When none of those moved in anything the result's
// outcome, counts and order are worked out from (standing), the result is
// the last one with their entries replaced, in a new array: a result's
// arrays are never written once handed out. ok false: l is judged the
// long way.
func (j *Judge) few(l Listing, now time.Time) (r Result, ok bool) {
	ms := l.Machines
	if !j.quiet || !j.prevOK || len(l.Skipped) > 0 || len(l.Partial) > 0 || len(ms) != len(j.lastIn) || len(j.pos) != len(ms) ||
		now.Before(j.quietSince) || (j.quietBounded && !now.Before(j.quietUntil)) {
		return Result{}, false
	}
	changed := j.moved[:0]
	for i, fm := range ms {
		was := j.lastIn[i]
		if fm == was {
			continue
		}
		if fm == nil || was == nil || j.last[i] == nil || fm.ID == "" || fm.ID != was.ID || releaseOf(fm) != j.rels[i] ||
			(diagnose.Classify(fm.State) == diagnose.Gone) != (diagnose.Classify(was.State) == diagnose.Gone) {
			// Another machine, or the judged release may change with it.
			j.moved = changed
			return Result{}, false
		}
		changed = append(changed, i)
	}
	j.moved, j.movedOK, j.same = changed, true, false
	release := j.judged
	q := quietness{ok: true, bounded: j.quietBounded, until: j.quietUntil}
	stood := true // each stands, for the result, as it stood
	for _, i := range changed {
		t, fm := j.last[i], ms[i]
		before := standingOf(t)
		j.observe(t, fm, j.rels[i], release, 0, now)
		q.add(t, observed{fm: fm, release: j.rels[i], judged: release}, j.opts.Settle)
		j.lastIn[i] = fm
		stood = stood && standingOf(t) == before
	}
	j.quiet, j.quietBounded, j.quietSince, j.quietUntil = q.ok, q.bounded, now, q.until
	if !stood {
		return j.build(ms, release, len(ms), 0, 0, nil, now), true
	}
	r = j.prev
	if len(changed) < len(ms) {
		r.Machines = slices.Clone(r.Machines)
	} else {
		r.Machines = make([]Machine, len(r.Machines)) // every entry replaced: nothing to copy
	}
	for _, i := range changed {
		r.Machines[j.pos[i]] = j.last[i].out
	}
	j.prev = r
	r = j.again(ms, now)
	j.same = false
	return r, true
}

// standing is what build reads of a tracked machine besides the entry it
// copies (t.out): a machine whose standing did not change keeps its place
// in the result, and leaves the outcome, its sentence, what could not be
// read, the next look and what to await as they were.
type standing struct {
	id, state, release, from, unread string
	status                           Status
	kind                             diagnose.CrashKind
	newest, lastLook                 time.Time
	lookCount, looks                 int
	passing, checks, crashes         int
	crash                            Crash // the newest
	steady                           bool
}

func standingOf(t *tracked) standing {
	m := &t.out
	s := standing{id: m.ID, state: m.State, release: m.Release, from: m.From, unread: m.Unread, status: m.Status,
		kind: m.Crash.Kind, newest: m.Crash.NewestCrash, lastLook: t.lastLook, lookCount: t.lookCount, looks: m.LookCount,
		passing: m.ChecksPassing, checks: m.Checks, crashes: len(m.Crashes), steady: t.steady}
	if len(m.Crashes) > 0 {
		s.crash = m.Crashes[0]
	}
	return s
}

// Moved reports, when ok, that the last ObserveListing judged the
// listing before's machines at the same places, and worked out again
// only those at moved (none: Same): At says of every other what it said
// after the listing before. ok false: any may have moved. The slice is
// the judge's, valid until the next ObserveListing.
func (j *Judge) Moved() (moved []int, ok bool) { return j.moved, j.movedOK }

// quietness is worked out over a listing's machines, after observe: until
// when each, handed the same machine value again, would not be worked out
// again (ok false: one would be at once).
type quietness struct {
	ok, bounded bool
	until       time.Time
}

// add takes in t's machine, as observe left it after being handed in
// (dropped none): observe skips it again while in is what it holds and no
// look comes due (a look at a machine never looked at is due at once).
func (q *quietness) add(t *tracked, in observed, settle time.Duration) {
	switch {
	case t.in != in:
		q.ok = false // worked out on every listing (an event timed ahead)
	case !t.inLookable:
	case t.lookCount == 0:
		q.ok = false
	default:
		if due := t.lastLook.Add(settle); !q.bounded || due.Before(q.until) {
			q.bounded, q.until = true, due
		}
	}
}

// Same reports whether the last ObserveListing found every machine where
// the listing before left it (the same machines, in the same order, none
// worked out again): At says of each what it said then.
func (j *Judge) Same() bool { return j.same }

// keep remembers the listing's entries beside the result ObserveListing
// is about to return (j.prev), for again.
func (j *Judge) keep() {
	j.prevLast = append(j.prevLast[:0], j.last...)
	j.prevOK = true
}

// again is the last result once more, for a listing of the same machines
// in the same order where no machine's standing changed: what it holds was
// worked out from the same inputs. Only the machines to long-poll are
// worked out again (a look comes due as the clock moves). Its slices are
// the last result's, as a result's always are (read, never written).
func (j *Judge) again(ms []*machine.Machine, now time.Time) Result {
	j.same = true
	r := j.prev
	r.Awaiting = nil
	if r.Outcome != Undecided {
		return r
	}
	for _, i := range j.mayAwait {
		if t, fm := j.last[i], ms[i]; j.lookComes(t, now) {
			r.Awaiting = append(r.Awaiting, Await{ID: fm.ID, InstanceID: fm.InstanceID})
		}
	}
	return r
}

// mayAwaitAt reports whether the machine t tracks, as m stands after
// listing fm, is one to long-poll once its next look comes (lookComes).
func mayAwaitAt(m *Machine, fm *machine.Machine) bool {
	return m.Status != StatusOld && m.Status != StatusGone && m.Status != StatusFailed && diagnose.IsTransient(fm.State)
}

// lookComes reports whether t's machine was never looked at, or its
// next look is due now.
func (j *Judge) lookComes(t *tracked, now time.Time) bool {
	return t.lookCount == 0 || !now.Before(t.lastLook.Add(j.opts.Settle))
}

// Unread is one thing a listing held that could not be read and that
// could hide a failure of the release judged.
type Unread struct {
	ID  string // the machine's id, "" for an entry that names none
	Why string
	// steady: a machine that names no release but is seen steady: it
	// hides no crash, only which release is the newest.
	steady bool
}

// unreadReason is the outcome's sentence when something could not be
// read: what, with the counts, and why it cannot be judged.
func unreadReason(rel string, us []Unread) string {
	const shown = 3
	anon, named, more := 0, []string{}, 0
	for _, u := range us {
		switch {
		case u.ID == "":
			anon++
		case len(named) < shown:
			named = append(named, u.ID+": "+u.Why)
		default:
			more++
		}
	}
	parts := named
	if more > 0 {
		parts = append(parts, words.Count(more, "machine", "machines")+" more not read whole")
	}
	if anon > 0 {
		parts = append(parts, words.Count(anon, "entry", "entries")+" of the machines answer could not be read (null, or not a machine)")
	}
	return strings.Join(parts, "; ") + " — it could hide a failure of " + rel + ", so it cannot be judged"
}

// rememberedOut is where a machine not in the last listing stands: as the
// listing before left it, unread.
func (t *tracked) rememberedOut() Machine {
	m := t.out
	m.Unread = "not in the last answer, which held entries that could not be read"
	if t.unread != "" {
		m.Unread += " (before that: " + t.unread + ")"
	}
	return m
}

// At is where the i-th entry of the last listing stands (nil: the entry
// was null, id-less or a repeat): how the dashboard reads each machine's
// verdict without a lookup. The pointer is the judge's, valid until the
// next Observe; do not keep it.
func (j *Judge) At(i int) *Machine {
	if i < 0 || i >= len(j.last) || j.last[i] == nil {
		return nil
	}
	return &j.last[i].out
}

// observe takes a look at fm when one is due and says where it stands, in
// t.out. What it says is worked out again only when something it says it
// from changed.
// It reports whether it worked it out (false: the same machine and inputs
// as last time, no look due: t.out stands).
func (j *Judge) observe(t *tracked, fm *machine.Machine, rel, release string, dropped int, now time.Time) bool {
	in := observed{fm: fm, release: rel, judged: release, dropped: dropped}
	if j.opts.Afresh {
		t.in = observed{} // no shortcut below
	}
	if in == t.in && !t.inNewest.After(now.Add(maxSkew)) && !j.lookDue(t, now) {
		return false // nothing to untime, nothing new, no look: t.out stands
	}
	if was := t.in; was.fm != nil && was.release == rel && was.judged == release && was.dropped == dropped &&
		!t.inNewest.After(now.Add(maxSkew)) && !j.lookDue(t, now) && sameStanding(was.fm, fm) {
		// Another machine value (converted again: renamed, say) saying
		// what the last did of everything the standing is worked out
		// from: it stands where it stood, under its new name and region.
		t.in.fm = fm
		t.out.Name, t.out.Region = fm.Name, fm.Region
		t.key.name, t.key.region = fm.Name, fm.Region
		return true
	}
	untimed := untimeTheFuture(fm, now)
	j.work(t, untimed, rel, release, dropped, now)
	t.in = observed{}
	if untimed == fm {
		t.in, t.inNewest = in, newestEvent(fm)
		t.inLookable = t.unread == "" && diagnose.Classify(fm.State) != diagnose.Gone && !diagnose.IsTransient(fm.State)
	}
	return true
}

// sameStanding reports whether a and b agree in everything work reads of
// a machine but its name and region (and its release, which observe is
// handed beside it): the same id, state, version, checks' statuses and
// events, and as much dropped from its entry.
func sameStanding(a, b *machine.Machine) bool {
	if a.ID != b.ID || a.State != b.State || a.InstanceID != b.InstanceID || a.Dropped != b.Dropped ||
		len(a.Checks) != len(b.Checks) || len(a.Events) != len(b.Events) {
		return false
	}
	// A converter hands the last conversion's events again when they are
	// the same: then the same array.
	if len(a.Events) > 0 && &a.Events[0] != &b.Events[0] && !slices.Equal(a.Events, b.Events) {
		return false
	}
	for i := range a.Checks {
		if a.Checks[i].Status != b.Checks[i].Status {
			return false
		}
	}
	return true
}

// lookDue reports whether observe would take a look at t.in.fm now.
func (j *Judge) lookDue(t *tracked, now time.Time) bool {
	return t.inLookable && j.lookComes(t, now)
}

// newestEvent is the time of fm's newest event (zero: none).
func newestEvent(fm *machine.Machine) time.Time {
	var newest time.Time
	for _, e := range fm.Events {
		if e.At.After(newest) {
			newest = e.At
		}
	}
	return newest
}

// work is observe's judgement of fm, untimed already.
func (j *Judge) work(t *tracked, fm *machine.Machine, rel, release string, dropped int, now time.Time) {
	if t.release != "" && rel != t.release {
		t.from = t.release
	}
	t.release = rel
	if fm.InstanceID != t.instance {
		// A new version of the machine: its looks start over (the crash
		// tracker starts over by itself).
		*t = tracked{release: t.release, from: t.from, instance: fm.InstanceID, crash: t.crash, gen: t.gen, emitted: t.emitted}
	}
	passing, checks, oddChecks := 0, 0, 0
	for _, c := range fm.Checks {
		checks++
		switch c.Status {
		case "passing":
			passing++
		case "warning", "critical":
		default:
			oddChecks++
		}
	}
	t.unread = unreadOf(fm, dropped+fm.Dropped, oddChecks)
	phase := diagnose.Classify(fm.State)
	looked := false
	// A look needs the whole entry: one taken on a part (a crash event
	// without its time, a null dropped) would compare the newest crash
	// against what it could not see.
	if t.unread == "" && phase != diagnose.Gone && !diagnose.IsTransient(fm.State) && (t.lookCount == 0 || !now.Before(t.lastLook.Add(j.opts.Settle))) {
		t.look(fm, now)
		looked = true
	}
	k := outKey{state: fm.State, name: fm.Name, region: fm.Region, id: fm.ID, release: rel, from: t.from, judged: release,
		passing: passing, checks: checks, looks: t.lookCount, live: t.live, events: len(fm.Events) > 0, unread: t.unread}
	if !looked && k == t.key {
		return // nothing it says changed
	}
	t.key = k
	m := Machine{
		ID: fm.ID, Name: fm.Name, Region: fm.Region, State: fm.State, Release: rel, From: t.from, // inert already
		ChecksPassing: passing, Checks: checks,
		Crash: t.verdict, LookCount: t.lookCount, FirstCrash: t.firstCrash,
		// Shared, not copied: the judge only appends to them (a new array
		// when they are trimmed), so what a result holds never changes.
		Looks: t.looks[:len(t.looks):len(t.looks)], Crashes: t.crashes[:len(t.crashes):len(t.crashes)],
	}
	if t.lookCount == 0 {
		m.Crash.Reason = "not looked at yet: it is " + m.State
		if len(fm.Events) == 0 {
			m.Crash.Reason = "no machine events to judge by"
		}
	}
	switch {
	case phase == diagnose.Gone:
		m.Status, m.Reason = StatusGone, "gone ("+m.State+"): not judged"
	case rel != release:
		m.Status = StatusOld
		m.Reason = "runs " + releaseWord(rel) + ", not the judged " + releaseWord(release)
	default:
		m.Status, m.Reason = t.status(fm, m, j.opts.Settle)
		t.key.live = t.live // status may have made it live
	}
	t.steady = false
	switch {
	case t.unread != "":
		m.Unread = t.unread
	case rel == "" && release != "" && phase != diagnose.Gone:
		// It may run the judged release — or, when the judge picked the
		// highest release itself, a newer one it cannot see. As a machine
		// of the judged release, would it be live (or stopped, not
		// crashing)?
		t.steady = t.asIfJudged(fm, m, j.opts.Settle)
		switch {
		case !t.steady:
			m.Unread = "names no release (no config, or no fly_release_version) and is not seen steady: it may run " + releaseWord(release)
		case j.opts.Release == "":
			m.Unread = "names no release (no config, or no fly_release_version): it may run a newer release than " + releaseWord(release)
		}
	}
	t.out = m
}

// asIfJudged says whether t, were it a machine of the judged release,
// would be live or idle (stopped, not crashing).
func (t *tracked) asIfJudged(fm *machine.Machine, m Machine, settle time.Duration) bool {
	c := *t // status may mark it live: only the copy
	st, _ := c.status(fm, m, settle)
	return st == StatusLive || st == StatusIdle
}

// maxSkew is how far after the look an event may be timed and still be
// read as a time: a clock a little off, never an event from years ahead
// (a timestamp near the end of int64 milliseconds, year 9999), which
// would be a crash that happened "0s ago" and never gets older.
const maxSkew = 24 * time.Hour

// untimeTheFuture is fm with the events timed after now+maxSkew untimed:
// what cannot be a time is unknown, as a missing one is (unreadOf).
func untimeTheFuture(fm *machine.Machine, now time.Time) *machine.Machine {
	limit := now.Add(maxSkew)
	for i, e := range fm.Events {
		if !e.At.After(limit) {
			continue
		}
		c := *fm
		c.Events = slices.Clone(fm.Events)
		for j := i; j < len(c.Events); j++ {
			if c.Events[j].At.After(limit) {
				c.Events[j].At = time.Time{}
			}
		}
		return &c
	}
	return fm
}

// unreadOf says what of fm's entry could not be read: dropped null
// entries, exit events it cannot time or read, checks of no known status.
func unreadOf(fm *machine.Machine, dropped, oddChecks int) string {
	untimed, bare := 0, 0
	for _, e := range fm.Events {
		switch {
		case e.Type != "exit":
		case !e.ExitRead:
			bare++
		case e.At.IsZero():
			untimed++
		}
	}
	var parts []string
	if dropped > 0 {
		parts = append(parts, words.Count(dropped, "null check, event or container", "null checks, events or containers")+" dropped from its entry")
	}
	if untimed > 0 {
		parts = append(parts, words.Count(untimed, "exit event without a time", "exit events without a time"))
	}
	if bare > 0 {
		parts = append(parts, words.Count(bare, "exit event without an exit code it can read", "exit events without an exit code it can read"))
	}
	if oddChecks > 0 {
		parts = append(parts, words.Count(oddChecks, "health check of no status it knows", "health checks of no status it knows"))
	}
	return strings.Join(parts, ", ")
}

// outKey is what a machine's status and sentence are worked out from,
// besides its looks.
type outKey struct {
	state, name, region, id, release, from, judged string
	passing, checks, looks                         int
	live, events                                   bool
	unread                                         string
}

// look records one look at fm.
func (t *tracked) look(fm *machine.Machine, now time.Time) {
	v := t.crash.Look(fm, time.Time{}, now)
	since := t.crash.Since()
	if failing := t.verdict.Kind; (failing == diagnose.CrashLooping || failing == diagnose.GaveUp) && t.lookCount > 0 &&
		v.Kind != diagnose.CrashLooping && v.Kind != diagnose.GaveUp {
		// A failure seen stands for the version: a machine given up on and
		// then woken by a request has not crashed again yet, but it will.
		const since = "; started since, nothing newer yet"
		v.Kind, v.Reason = failing, strings.TrimSuffix(t.verdict.Reason, since)+since
	}
	t.verdict = v
	t.lookCount++
	t.lastLook = now
	t.crashes = crashesSince(fm, since)
	for _, c := range t.crashes {
		if t.firstCrash.IsZero() || c.At.Before(t.firstCrash) {
			t.firstCrash = c.At
		}
	}
	t.looks = append(t.looks, Look{At: now, State: fm.State, NewestCrash: v.NewestCrash,
		VisibleCrashes: VisibleCrashes(fm, since), Events: len(fm.Events), Kind: v.Kind})
	if len(t.looks) > maxLooks {
		t.looks = append(t.looks[:0:0], t.looks[len(t.looks)-maxLooks:]...)
	}
	switch v.Kind {
	case diagnose.CrashLooping, diagnose.GaveUp:
		t.failed = v.Reason
	}
	if fm.State == "failed" && t.failed == "" {
		t.failed = "the platform could not run it (state failed)"
	}
}

// status says where a machine of the judged release stands.
func (t *tracked) status(fm *machine.Machine, m Machine, settle time.Duration) (Status, string) {
	if t.failed != "" {
		return StatusFailed, t.failed + crashList(t.crashes)
	}
	if t.lookCount == 0 {
		return StatusPending, "on " + releaseWord(m.Release) + ", " + m.State + ": not looked at until it settles"
	}
	v := t.verdict
	crashNote := ""
	if !v.NewestCrash.IsZero() && len(t.crashes) > 0 {
		crashNote = fmt.Sprintf("; crashed at %s (%s), nothing since", clock(v.NewestCrash), describeCrash(t.crashes[0]))
	}
	started := fm.State == "started"
	switch {
	case diagnose.IsTransient(fm.State):
		// On its way somewhere (restarting after a crash, starting on a
		// request): the next look waits until it settles.
		if t.live {
			return StatusLive, t.liveReason(m, settle) + "; " + m.State + " now" + crashNote
		}
		return StatusLooking, fmt.Sprintf("look %d: %s; %s, looking again once it settles", t.lookCount, v.Reason, m.State)
	case v.Kind == diagnose.Watching:
		return StatusLooking, fmt.Sprintf("look %d: %s", t.lookCount, v.Reason)
	case v.Kind == diagnose.CrashUnknown && started:
		return StatusLooking, fmt.Sprintf("look %d: %s", t.lookCount, v.Reason)
	case !started:
		// Stopped or suspended with nothing new: a machine the deploy left
		// stopped, or one autostop stopped. Not a crash, and nothing runs
		// to judge.
		if t.live {
			return StatusLive, t.liveReason(m, settle) + "; " + m.State + " since" + crashNote
		}
		return StatusIdle, m.State + " and not crashing" + crashNote + ": nothing runs to judge"
	case t.live:
		return StatusLive, t.liveReason(m, settle) + crashNote
	case t.lookCount < 2:
		return StatusLooking, fmt.Sprintf("look 1: %s; looking again in %s", v.Reason, settle)
	case m.Checks > 0 && m.ChecksPassing < m.Checks:
		return StatusLooking, fmt.Sprintf("up across %d looks; waiting for its health checks (%d/%d passing)",
			t.lookCount, m.ChecksPassing, m.Checks)
	}
	t.live = true
	return StatusLive, t.liveReason(m, settle) + crashNote
}

func (t *tracked) liveReason(m Machine, settle time.Duration) string {
	s := fmt.Sprintf("stayed up across %d looks at least %s apart", t.lookCount, settle)
	if m.Checks > 0 {
		s += fmt.Sprintf(", health checks %d/%d passing", m.ChecksPassing, m.Checks)
	}
	return s
}

// names counts machines and keeps the first few ids, for a sentence.
type names struct {
	n   int
	ids [listed]string
}

const listed = 4

func (ns *names) add(id string) {
	if ns.n < listed {
		ns.ids[ns.n] = id
	}
	ns.n++
}

// String names them: all up to four, then "+N more".
func (ns *names) String() string {
	shown := min(ns.n, listed)
	s := strings.Join(ns.ids[:shown], ", ")
	if ns.n > shown {
		s += fmt.Sprintf(" +%d more", ns.n-shown)
	}
	return s
}

// outcomeCounts sorts the release's machines for the outcome.
type outcomeCounts struct {
	looping, gaveUp, failed                 names
	pending, looking, checking, idle, alive names
	replacing                               int // machines of any release a deploy is replacing
}

func (c *outcomeCounts) add(m *Machine) {
	switch {
	case m.Status == StatusFailed && m.Crash.Kind == diagnose.CrashLooping:
		c.looping.add(m.ID)
	case m.Status == StatusFailed && m.Crash.Kind == diagnose.GaveUp:
		c.gaveUp.add(m.ID)
	case m.Status == StatusFailed:
		c.failed.add(m.ID)
	case m.Status == StatusPending:
		c.pending.add(m.ID)
	case m.Status == StatusLooking && m.LookCount >= 2 && m.Crash.Kind == diagnose.Steady && m.ChecksPassing < m.Checks:
		c.checking.add(m.ID)
	case m.Status == StatusLooking:
		c.looking.add(m.ID)
	case m.Status == StatusIdle:
		c.idle.add(m.ID)
	case m.Status == StatusLive:
		c.alive.add(m.ID)
	}
}

// outcome judges the release from its machines.
func (j *Judge) outcome(r Result, judged int, anyListed bool, c *outcomeCounts) (Outcome, string) {
	rel := r.ReleaseName()
	if judged == 0 {
		if !anyListed {
			return CannotJudge, "the app has no machines"
		}
		if r.Release == "" {
			return CannotJudge, "no machine names its release (fly_release_version): nothing to judge"
		}
		return CannotJudge, "no machine runs " + rel + " (they run " + strings.Join(releasesOf(r.Machines), ", ") + ")"
	}
	switch {
	case c.looping.n > 0:
		return Failed, diagnose.CrashLoopReason
	case c.gaveUp.n > 0:
		return Failed, "the platform gave up restarting " + c.gaveUp.String() + " after repeated crashes since the deploy"
	case c.failed.n > 0:
		return Failed, "the platform could not run " + c.failed.String() + " on " + rel
	}
	if c.pending.n+c.looking.n+c.checking.n == 0 && c.replacing == 0 {
		if c.alive.n == 0 {
			return Undecided, fmt.Sprintf("no machine of %s is running (%s): nothing to judge until one starts", rel,
				words.Count(c.idle.n, "machine stopped or suspended", "machines stopped or suspended"))
		}
		s := fmt.Sprintf("%s is live: %s stayed up across the looks", rel, words.Count(c.alive.n, "machine", "machines"))
		if c.idle.n > 0 {
			s += fmt.Sprintf(" (%s not running, none crashed)", words.Count(c.idle.n, "machine", "machines"))
		}
		if crashed := crashedOnce(r.Machines[:judged]); crashed != "" {
			s += "; " + crashed
		}
		return Live, s
	}
	var parts []string
	if c.replacing > 0 {
		parts = append(parts, fmt.Sprintf("the deploy is still replacing %s", words.Count(c.replacing, "machine", "machines")))
	}
	if c.pending.n > 0 {
		parts = append(parts, words.Count(c.pending.n, "machine", "machines")+" to settle on "+rel+" ("+c.pending.String()+")")
	}
	if c.looking.n > 0 {
		parts = append(parts, words.Count(c.looking.n, "machine", "machines")+" to look at again ("+c.looking.String()+")")
	}
	if c.checking.n > 0 {
		parts = append(parts, words.Count(c.checking.n, "machine", "machines")+" up whose health checks do not pass yet ("+c.checking.String()+")")
	}
	return Undecided, "waiting: " + strings.Join(parts, "; ")
}

// crashList names the crashes an event list held: "; its event list shows
// exit code 1 at …, exit code 1 at …".
func crashList(cs []Crash) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = describeCrash(c) + " at " + clock(c.At)
	}
	return "; its event list shows " + strings.Join(parts, ", ")
}

// crashedOnce names the live machines that crashed since the release began
// and then stayed up.
func crashedOnce(ms []Machine) string {
	var parts []string
	for _, m := range ms {
		if (m.Status == StatusLive || m.Status == StatusIdle) && !m.Crash.NewestCrash.IsZero() && len(m.Crashes) > 0 {
			parts = append(parts, fmt.Sprintf("%s crashed at %s (%s) and stayed up", m.ID, clock(m.Crash.NewestCrash), describeCrash(m.Crashes[0])))
		}
	}
	return strings.Join(parts, "; ")
}

// crashesSince lists fm's crashes after since, newest first.
func crashesSince(fm *machine.Machine, since time.Time) []Crash {
	var out []Crash
	for _, e := range fm.Events {
		if !e.Crash || !e.At.After(since) {
			continue
		}
		out = append(out, Crash{At: e.At, ExitCode: e.ExitCode, OOMKilled: e.OOMKilled})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].At.After(out[b].At) })
	return out
}

func releaseOf(fm *machine.Machine) string { return fm.Release }

func releaseWord(rel string) string {
	if rel == "" {
		return "an unnamed release"
	}
	return "v" + rel
}

func releasesOf(ms []Machine) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		if m.Status == StatusGone || seen[m.Release] {
			continue
		}
		seen[m.Release] = true
		out = append(out, releaseWord(m.Release))
	}
	sort.Strings(out)
	return out
}
