package snapshot

import (
	"slices"
	"sort"
	"sync"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/sources/verdict"
)

// App is the model of one app. The zero value is not usable; use New.
type App struct {
	Name string
	Org  string

	Machines []Machine
	ListedAt time.Time // platform time of the last successful listing
	// Malformed is how many null entries (machines, checks, events) the last
	// listing held; they were skipped.
	Malformed int

	logs      []diagnose.LogLine
	LogsUntil time.Time // newest log line seen
	LogsRead  bool      // a logs page was read (the boots are known, even if none)
	// LogsErr is why the last logs fetch failed ("" when it did not), with
	// its cause: the boots may then be missing some (the checklist's items
	// that read them cannot pass).
	LogsErr   string
	LogsCause diagnose.Cause
	Boots     []diagnose.Boot
	boots     *diagnose.BootTracker

	Meminfo  map[string]Probe[diagnose.Meminfo]        // by machine id
	Bytecode map[string]Probe[diagnose.BytecodeReport] // by image digest
	Sockets  map[string]Probe[map[string]int]          // by machine id: TCP state → count
	Metrics  *EdgeOrigin
	// Sample is what a headless look's probes covered (SampleProbes); nil
	// where every machine is probed over time (the dashboard).
	Sample  *ProbeSample
	Traffic Traffic // per-minute edge and app counters (ApplyTraffic)

	access       []diagnose.AccessLine // the app's access lines, oldest first (noteLogs)
	proxyErrs    []diagnose.LogLine    // the proxy's error lines, oldest first
	trafficCache *TrafficSummary
	trafficKey   trafficKey

	// Rollout is the release's judgement after the last listing: the
	// post-deploy gate's Judge (sources/verdict), fed every listing, which
	// also gives each machine its crash verdict (Machine.Crash).
	Rollout verdict.Result
	judge   *verdict.Judge
	judged  []*machine.Machine // the judge's view of the last listing, reused
	// from are the converted machines Machines were copied from, by index
	// (nil: replaced by a look since): how a listing tells what it changed.
	from        []*converted
	machinesRev uint64
	// rowsRev moves with machinesRev unless only what a row hash does not
	// cover changed (a verdict's sentence, its looks): see Mark.
	rowsRev   uint64
	probesRev uint64 // moves with every ApplyProbe
	pinned    *Mark  // what Mark answers while pinned (PinMark)
	memo      derived

	// slots hold the data of the sources that keep it in a slot declared
	// beside their Apply (see slot), by slot.
	slots map[any]any
}

// A slot is a place in App for one data source's data, declared in the
// source's own file beside its Apply and its reader (volumes.go): adding
// a data source then does not touch App.
type slot[T any] struct{ name string } // not empty: each slot's address differs

// get is the slot's data in a (the zero value before the first set).
func (s *slot[T]) get(a *App) T {
	v, _ := a.slots[s].(T)
	return v
}

// set puts v in the slot.
func (s *slot[T]) set(a *App, v T) {
	if a.slots == nil {
		a.slots = map[any]any{}
	}
	a.slots[s] = v
}

// Probe is one exec probe's outcome, remembered with the key it answers
// (a machine's boot for meminfo and sockets, an image digest for bytecode).
type Probe[T any] struct {
	Key   string
	At    time.Time
	Value T
	Err   string // the probe ran but failed; Value is zero
	// APIFailed is why, when the API failed rather than the machine
	// (auth, api_down, rate_limited, bad_answer): what the probe would
	// have read could not be checked. "" otherwise.
	APIFailed diagnose.Cause
}

// MaxLogLines bounds the logs kept per app (a day of the demo's busiest app
// fits; a real app's oldest lines fall off first).
const MaxLogLines = 150_000

// New returns an empty model for app, using markers for boot phases
// (nil: diagnose.DefaultMarkers()).
func New(org, app string, markers []diagnose.Marker) *App {
	if markers == nil {
		markers = diagnose.DefaultMarkers()
	}
	return &App{
		Name: app, Org: org, boots: diagnose.NewBootTracker(markers),
		Meminfo: map[string]Probe[diagnose.Meminfo]{}, Bytecode: map[string]Probe[diagnose.BytecodeReport]{},
		Sockets: map[string]Probe[map[string]int]{}, judge: verdict.New(verdict.Options{}),
	}
}

// ApplyMachines records a listing of ms taken at platform time now.
func (a *App) ApplyMachines(ms []*fly.Machine, now time.Time) {
	a.ApplyListing(flyapi.Listing{Machines: ms}, now)
}

// ApplyListing records a listing taken at platform time now: each machine is
// copied into plain, cleaned fields (the raw API value is not kept), and the
// listing goes to the release's judge, which takes a crash look at each
// machine when one is due. Null or id-less machines are skipped and counted.
func (a *App) ApplyListing(l flyapi.Listing, now time.Time) {
	a.ApplyConverted(Convert(l), now)
}

// Converted is a listing already copied into the model's plain machines:
// the costly half of ApplyListing, which needs no model, so the dashboard
// does it in the listing's command instead of in Update. Its machines are
// never written once converted: a Converter hands the same one to every
// listing whose entry did not change, and the model and the judge tell an
// unchanged machine by it.
type Converted struct {
	machines  []*converted
	malformed int
	skipped   []string       // entries skipped whole: the id when one names it
	partial   map[string]int // by id: nulls dropped from a machine kept
}

// Convert copies a listing into plain, cleaned machines, skipping (and
// counting) null or id-less ones and any id listed twice.
func Convert(l flyapi.Listing) Converted {
	return convert(l, make(map[string]bool, len(l.Machines)), nil, nil, nil)
}

// convert is Convert; seen (empty) records the ids kept; reuse, when not
// nil, may answer an entry's machine instead of converting it again (ok),
// or the last listing's machine of the id to share parts with (and what
// its conversion kept), and fresh is told each machine converted afresh
// (by the entry's index in l and raw id) with what to keep of it;
// configs, when not nil, converts each distinct config once.
func convert(l flyapi.Listing, seen map[string]bool, reuse func(i int, id string) (m *converted, kept *machine.Kept, ok bool), fresh func(i int, id string, m *converted, kept machine.Kept), configs *machine.Configs) Converted {
	c := convertedHead(l)
	for i, fm := range l.Machines {
		if fm == nil || fm.ID == "" {
			c.malformed++
			c.skipped = append(c.skipped, "")
			continue
		}
		if seen[fm.ID] {
			continue // listed twice: the first one stands
		}
		seen[fm.ID] = true
		var prev *converted
		var was *machine.Kept
		if reuse != nil {
			m, kept, ok := reuse(i, fm.ID)
			if ok {
				c.machines = append(c.machines, m)
				continue
			}
			prev, was = m, kept
		}
		m, kept := convertOne(l, fm, configs, prev, was)
		c.machines = append(c.machines, m)
		if fresh != nil {
			fresh(i, fm.ID, m, kept)
		}
	}
	return c
}

// convertedHead is a Converted of l's counts and unread entries, with room
// for its machines.
func convertedHead(l flyapi.Listing) Converted {
	c := Converted{machines: make([]*converted, 0, len(l.Machines)), malformed: l.Malformed}
	// The judge keys what it could not read by the machines' ids as the
	// model has them: made inert like every other.
	for _, id := range l.Skipped {
		c.skipped = append(c.skipped, sanitize.Field(id))
	}
	if len(l.Partial) > 0 {
		c.partial = make(map[string]int, len(l.Partial))
		for id, n := range l.Partial {
			c.partial[sanitize.Field(id)] += n
		}
	}
	return c
}

// convertOne is one entry of l as the model's machine, its config through
// configs (nil: afresh), sharing what did not change with prev, the
// machine the last listing had of the entry (nil: none), whose conversion
// kept was (nil: nothing); it returns what to keep of fm. fm is not nil.
func convertOne(l flyapi.Listing, fm *fly.Machine, configs *machine.Configs, prev *converted, was *machine.Kept) (*converted, machine.Kept) {
	var pm *machine.Machine
	if prev != nil {
		pm = &prev.Machine
	}
	m := &converted{}
	var kept machine.Kept
	m.Machine, kept = configs.FromFlyKept(fm, pm, was)
	m.Cordoned = l.Cordoned[fm.ID]
	m.content = rowHash(&m.Machine) // the crash verdict is mixed in on apply
	return m, kept
}

// converted is one machine as a listing converted it: the model's Machine
// before the judge speaks of it (smaller, for a listing of thousands).
type converted struct {
	machine.Machine
	content uint64 // rowHash
}

// model is the model's machine made of c, before the judge speaks.
func (c *converted) model() Machine { return Machine{Machine: c.Machine, content: c.content} }

// Converter is Convert with a memory of one app's last listing: a machine
// whose entry the API sent byte for byte as last time (Listing.Order, or
// Listing.Hashes) is
// not converted again; the machine made of it then is reused. It is safe
// for concurrent use; the zero value is ready.
type Converter struct {
	mu         sync.Mutex
	app        string
	last, next convertedSet // next is last's spare, reused
	seen       map[string]bool
	hashes     []uint64 // the listing's hashes in order (inPlace), reused
	// configs converts each distinct config once: the machines of a
	// fleet share a few.
	configs machine.Configs
}

// convertedSet is one listing's converted machines by raw id, in listing
// order.
type convertedSet struct {
	at      map[string]int // index into entries
	entries []convertedEntry
}

type convertedEntry struct {
	id   string // as the listing has it (raw)
	hash uint64
	m    *converted
	// kept is what m's conversion kept of its entry, for the next
	// conversion of the machine (kept here, not in m: m is no bigger).
	kept machine.Kept
}

func (s *convertedSet) reset() {
	if s.at == nil {
		s.at = map[string]int{}
	}
	clear(s.at)
	clear(s.entries) // let go of the machines a listing before held
	s.entries = s.entries[:0]
}

func (s *convertedSet) add(e convertedEntry) {
	s.at[e.id] = len(s.entries)
	s.entries = append(s.entries, e)
}

// Convert converts app's listing l, reusing what the previous listing of
// the same app converted where l's hash says the entry is the same.
func (cv *Converter) Convert(app string, l flyapi.Listing) Converted {
	cv.mu.Lock()
	defer cv.mu.Unlock()
	if cv.seen == nil || cv.app != app {
		cv.app, cv.seen = app, map[string]bool{}
		cv.last.reset()
	}
	cv.configs.Next()
	if c, ok := cv.inPlace(l); ok {
		return c
	}
	cv.next.reset()
	clear(cv.seen)
	reuse := func(at int, id string) (*converted, *machine.Kept, bool) {
		i, ok := cv.last.at[id]
		if !ok {
			return nil, nil, false
		}
		e := &cv.last.entries[i]
		h, ok := entryHash(l, at, id)
		if !ok || e.hash != h {
			return e.m, &e.kept, false // changed: its parts may not have
		}
		cv.next.add(*e)
		return e.m, nil, true
	}
	fresh := func(at int, id string, m *converted, kept machine.Kept) {
		if h, ok := entryHash(l, at, id); ok {
			cv.next.add(convertedEntry{id: id, hash: h, m: m, kept: kept})
		}
	}
	c := convert(l, cv.seen, reuse, fresh, &cv.configs)
	cv.last, cv.next = cv.next, cv.last
	return c
}

// entryHash is the hash of l's i-th entry, which names id: from Order when
// l has one, read in sequence, else from Hashes (ok false: none).
func entryHash(l flyapi.Listing, i int, id string) (uint64, bool) {
	if len(l.Order) == len(l.Machines) && len(l.Order) > 0 {
		return l.Order[i], true
	}
	h, ok := l.Hashes[id]
	return h, ok
}

// inPlace converts l when it lists, in order, exactly the machines the
// last listing did, each with a hash (the common case: a listing of an app
// at rest, or one where a few machines changed). The memory is then
// updated where it stands, with no map built; ok is false, and nothing
// changed, for any other listing.
func (cv *Converter) inPlace(l flyapi.Listing) (Converted, bool) {
	last := cv.last.entries
	cv.hashes = cv.hashes[:0]
	k := 0
	for i, fm := range l.Machines {
		if fm == nil || fm.ID == "" {
			continue
		}
		if k >= len(last) || last[k].id != fm.ID {
			return Converted{}, false
		}
		h, ok := entryHash(l, i, fm.ID)
		if !ok {
			return Converted{}, false
		}
		cv.hashes = append(cv.hashes, h)
		k++
	}
	if k != len(last) {
		return Converted{}, false
	}
	// The last listing's ids are distinct, so these are: no repeats.
	c := convertedHead(l)
	k = 0
	for _, fm := range l.Machines {
		if fm == nil || fm.ID == "" {
			c.malformed++
			c.skipped = append(c.skipped, "")
			continue
		}
		e := &last[k]
		if e.hash != cv.hashes[k] {
			m, kept := convertOne(l, fm, &cv.configs, e.m, &e.kept)
			e.hash, e.m, e.kept = cv.hashes[k], m, kept
		}
		c.machines = append(c.machines, e.m)
		k++
	}
	return c, true
}

// Judged is the listing as the release's judge reads it: the plain
// machines, and what the answer held that could not be read.
func (c Converted) Judged() verdict.Listing { return c.judged(nil) }

// judged is Judged with the machine list appended to buf[:0] (the model
// reuses one between listings). The judge is handed the converted
// machines themselves: the same machine for an unchanged entry.
func (c Converted) judged(buf []*machine.Machine) verdict.Listing {
	ms := buf[:0]
	for _, m := range c.machines {
		ms = append(ms, &m.Machine)
	}
	return verdict.Listing{Machines: ms, Skipped: c.skipped, Partial: c.partial}
}

// Machines are copies of the converted machines, in listing order.
func (c Converted) Machines() []Machine {
	out := make([]Machine, len(c.machines))
	for i, m := range c.machines {
		out[i] = m.model()
	}
	return out
}

// ApplyConverted records a converted listing taken at platform time now:
// the release's judge sees it (and looks again at each machine a look is
// due for). When every machine is the one the model holds, with the same
// verdict, the model keeps its machines (MachinesRev does not move);
// otherwise it makes new ones (the panes hold the old).
func (a *App) ApplyConverted(c Converted, now time.Time) {
	a.Malformed = c.malformed
	l := c.judged(a.judged)
	a.judged = l.Machines
	wasRollout := a.Rollout.Rollout
	a.Rollout = a.judge.ObserveListing(l, now)
	a.ListedAt = now
	if moved, ok := a.judge.Moved(); ok && a.Rollout.Rollout == wasRollout && a.patch(c, moved) {
		return
	}
	if a.holds(c) {
		return
	}
	out := make([]Machine, len(c.machines))
	rows := len(out) != len(a.Machines) || len(a.from) != len(out) // some row changed
	for i, cm := range c.machines {
		out[i] = cm.model()
		a.judgedAs(&out[i], i)
		rows = rows || a.from[i] != cm || out[i].Hash != a.Machines[i].Hash
	}
	a.Machines = out
	a.from = append(a.from[:0], c.machines...)
	a.machinesRev++
	if rows {
		a.rowsRev++
	}
}

// patch makes the model's machines c's when the judge worked out again
// only the machines at moved (verdict.Judge.Moved), with the rollout
// columns shown as before: every other machine c holds at the place the
// model's was copied from, the same converted machine, is the model's
// already, verdict included. The rest are copied into a copy of the
// model's machines (the panes hold the old array, which is never
// written). ok false: too many moved to be worth the copy.
func (a *App) patch(c Converted, moved []int) (ok bool) {
	n := len(c.machines)
	if n == 0 || len(a.from) != n || len(a.Machines) != n || len(moved) > n/2 {
		return false
	}
	var out []Machine
	rows := false
	redo := func(i int) {
		if out == nil {
			out = slices.Clone(a.Machines)
		}
		cm := c.machines[i]
		out[i] = cm.model()
		a.judgedAs(&out[i], i)
		rows = rows || a.from[i] != cm || out[i].Hash != a.Machines[i].Hash
	}
	for i, cm := range c.machines {
		if a.from[i] != cm {
			redo(i)
		}
	}
	for _, i := range moved {
		// The judge moves only machines handed in anew, redone above:
		// this is for a model whose from was kept across a look.
		if a.from[i] == c.machines[i] {
			redo(i)
		}
	}
	if out == nil {
		return true // the model holds c's machines, as judged now
	}
	a.Machines = out
	copy(a.from, c.machines)
	a.machinesRev++
	if rows {
		a.rowsRev++
	}
	return true
}

// judgedAs gives m, the i-th machine of the last listing, what the judge
// said of it, and its row hash.
func (a *App) judgedAs(m *Machine, i int) {
	if jm := a.judge.At(i); jm != nil {
		m.Crash = jm.Crash
		if a.Rollout.Rollout { // shown only while a deploy moves machines
			m.FromRelease, m.Rollout = jm.From, jm.Status
		}
	}
	m.Hash = withRollout(withCrash(m.content, m.Crash.Kind), m.FromRelease, m.Rollout)
}

// holds reports whether the model's machines are c's already, in order,
// each with the verdict the judge gives it now.
func (a *App) holds(c Converted) bool {
	if len(c.machines) == 0 || len(a.from) != len(c.machines) || len(a.Machines) != len(c.machines) {
		return false
	}
	if a.judge.Same() {
		// What the judge says of each is what it said of the same machine
		// at the last listing, which the model holds (a look since is not
		// a machine c holds).
		for i, cm := range c.machines {
			if a.from[i] != cm {
				return false
			}
		}
		return true
	}
	for i, cm := range c.machines {
		if a.from[i] != cm {
			return false
		}
		m := Machine{content: cm.content}
		a.judgedAs(&m, i)
		held := &a.Machines[i]
		if held.Crash != m.Crash || held.FromRelease != m.FromRelease || held.Rollout != m.Rollout || held.Hash != m.Hash {
			return false
		}
	}
	return true
}

// derived is what the readers work out from the machines alone, kept
// while the machines are the same (see derived).
type derived struct {
	machines   uint64   // MachinesRev they were worked out at
	first      *Machine // and Machines' array and length
	n          int
	release    string
	digests    []string
	states     []StateCount
	transition bool
	releaseOK  bool
	digestsOK  bool
	statesOK   bool
	// The checklist's evidence of the machines alone (evidence.go),
	// shared by every Evidence while the machines stand: read, never
	// written.
	deployed     *checklist.Deployed
	checks       *checklist.HealthChecks
	releases     int
	evidenceOK   bool
	transitionOK bool
}

// derived is the memory of what was worked out from the machines as they
// are now: emptied when the machines changed (a listing, a look, or a
// slice set by hand).
func (a *App) derived() *derived {
	var first *Machine
	if len(a.Machines) > 0 {
		first = &a.Machines[0]
	}
	if d := &a.memo; d.machines != a.machinesRev || d.first != first || d.n != len(a.Machines) {
		*d = derived{machines: a.machinesRev, first: first, n: len(a.Machines)}
	}
	return &a.memo
}

// MachinesRev changes whenever Machines does: a reader that derived
// something from the machines may keep it while MachinesRev is the same.
func (a *App) MachinesRev() uint64 { return a.machinesRev }

// A Mark stands for the app's machines as the tiles read them (what they
// list, and what their row hashes cover of the judge's verdict: not its
// sentence, which counts the looks) and its probe outcomes (Meminfo,
// Sockets, Bytecode): a pane that derived its rows from those alone keeps
// them while the app's Mark is the one it derived them at. The zero Mark
// is no app's. Machines set or rewritten by hand (a test's) move it too,
// as long as their count or row hashes say so.
type Mark struct {
	app          *App
	rows, probes uint64
	n            int
	hashes       uint64 // the row hashes, folded
}

// Mark is a's Mark now (the zero Mark for a nil app).
func (a *App) Mark() Mark {
	if a == nil {
		return Mark{}
	}
	if a.pinned != nil {
		return *a.pinned
	}
	k := Mark{app: a, rows: a.rowsRev, probes: a.probesRev, n: len(a.Machines)}
	for i := range a.Machines {
		k.hashes = (k.hashes ^ a.Machines[i].Hash) * fnvPrime
	}
	return k
}

// PinMark works the Mark out once and has every Mark answer it until
// UnpinMark: for a caller that hands the app to several readers, none of
// which changes it, each reading the Mark (the root handing a listing to
// its panes). A walk through 10,000 machines' hashes is then paid once,
// not once per reader. The app must not change while pinned.
func (a *App) PinMark() {
	a.pinned = nil
	k := a.Mark()
	a.pinned = &k
}

// UnpinMark has Mark work the Mark out again on every call.
func (a *App) UnpinMark() { a.pinned = nil }

// ApplyLook merges a look at some machines (a GET of one, converted) into
// the model: each replaces the listed machine of its id, keeping the
// crash verdict and rollout columns the last listing's judge gave it (the
// judge judges whole listings: the next one judges this too). A machine
// the last listing did not hold waits for the next listing. The machines
// slice is replaced, not written in place: the panes hold the old one.
func (a *App) ApplyLook(c Converted) {
	var out []Machine
	for _, cm := range c.machines {
		i := slices.IndexFunc(a.Machines, func(o Machine) bool { return o.ID == cm.ID })
		if i < 0 {
			continue
		}
		if out == nil {
			out = slices.Clone(a.Machines)
		}
		old, m := out[i], cm.model()
		m.Crash, m.FromRelease, m.Rollout = old.Crash, old.FromRelease, old.Rollout
		m.Hash = withRollout(withCrash(m.content, m.Crash.Kind), m.FromRelease, m.Rollout)
		out[i] = m
		if i < len(a.from) {
			a.from[i] = nil // not the listing's machine any more
		}
	}
	if out != nil {
		a.Machines = out
		a.machinesRev++
		a.rowsRev++
	}
}

// Machine returns the machine with id.
func (a *App) Machine(id string) (Machine, bool) {
	for _, m := range a.Machines {
		if m.ID == id {
			return m, true
		}
	}
	return Machine{}, false
}

// Transitioning reports whether any machine is in a transient state: the
// dashboard then refreshes fast and long-polls `wait` for it.
func (a *App) Transitioning() bool {
	d := a.derived()
	if !d.transitionOK {
		d.transition, d.transitionOK = slices.ContainsFunc(a.Machines, func(m Machine) bool { return diagnose.IsTransient(m.State) }), true
	}
	return d.transition
}

// ApplyLogs appends lines that are not older than what the model holds (in
// time order) and rebuilds the boot timelines. Lines may share a timestamp
// (a proxy's "Starting machine" and the runner's first line often do); pages
// are cut after the last line of a timestamp, so equal times are new lines.
// Every line is made inert as it enters (an app logs what its users send).
func (a *App) ApplyLogs(lines []diagnose.LogLine) {
	a.LogsRead = true
	first := len(a.logs)
	for _, l := range lines {
		if l.Time.Before(a.LogsUntil) {
			continue
		}
		l.Machine, l.Provider, l.Message = sanitize.Line(l.Machine), sanitize.Line(l.Provider), sanitize.Line(l.Message)
		l.Region, l.Level = sanitize.Line(l.Region), sanitize.Line(l.Level)
		a.logs = append(a.logs, l)
		a.LogsUntil = l.Time
	}
	// Only the new lines are read for boots: a day of a busy app's logs is
	// too much to match again on every page.
	a.boots.Add(a.logs[first:])
	a.noteLogs(a.logs[first:])
	if len(a.logs) > first || a.Boots == nil {
		a.Boots = a.boots.Boots()
	}
	if len(a.logs) > MaxLogLines {
		// Drop a tenth at a time so the copy is paid once per many pages.
		keep := MaxLogLines - MaxLogLines/10
		a.logs = append(a.logs[:0:0], a.logs[len(a.logs)-keep:]...)
	}
}

// ApplyLogsError records how the last logs fetch ended: err nil clears a
// failure. The error text comes from outside and is made inert.
func (a *App) ApplyLogsError(cause diagnose.Cause, err error) {
	a.LogsErr, a.LogsCause = "", ""
	if err != nil {
		a.LogsErr, a.LogsCause = sanitize.Line(err.Error()), cause
	}
}

// Logs returns the lines held, oldest first. Callers must not modify them.
func (a *App) Logs() []diagnose.LogLine { return a.logs }

// MachineLogs returns the newest n lines of one machine, oldest first.
func (a *App) MachineLogs(id string, n int) []diagnose.LogLine {
	var out []diagnose.LogLine
	for i := len(a.logs) - 1; i >= 0 && len(out) < n; i-- {
		if a.logs[i].Machine == id {
			out = append(out, a.logs[i])
		}
	}
	slices.Reverse(out)
	return out
}

// ColdStarts summarises boots over the 24 hours before now.
func (a *App) ColdStarts(now time.Time) diagnose.ColdStartStats {
	return diagnose.Summarize(a.Boots, now.Add(-24*time.Hour), now)
}

// LiveBoots are the boots under way now, newest first.
func (a *App) LiveBoots() []diagnose.Boot {
	var out []diagnose.Boot
	for _, b := range a.Boots {
		if b.Live() {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Begin.After(out[j].Begin) })
	return out
}

// Watching reports whether some machine crashed once since its release and
// needs another look before its crash verdict means anything.
func (a *App) Watching() bool {
	for _, m := range a.Machines {
		if m.Crash.Kind == diagnose.Watching {
			return true
		}
	}
	return false
}
