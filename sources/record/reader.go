package record

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
)

// Recording is a recording opened for reading (a replay). Opening it reads
// every machine's states and events without their JSON — a day of 10,000
// machines is over 100 MB of it — so the whole org's state at any instant
// is known at once; each app's JSON is read the first time a listing of
// the app needs it, and a goroutine reads every app's meanwhile (Close
// stops it). Log lines and probes stay in the file and are read when
// asked for.
type Recording struct {
	path       string
	file       string // path, absolute
	db         *sql.DB
	org, scope string
	eventsKept int
	version    int // the file's schema version
	sessions   []Session

	machines map[string]*machineIndex   // app \x00 machine
	byApp    map[string][]*machineIndex // in first-seen order
	appLog   map[string][]appChange     // the apps listing's changes, by app
	appOrder []string
	moments  []int64 // every state change and event, sorted, unique

	loaded   map[string]*appJSONs // each app's JSON, read once
	stopLoad context.CancelFunc
	loading  sync.WaitGroup

	cfgMu    sync.Mutex
	configs  map[int64][]byte // read once each
	releases map[int64]string // each config's release

	series map[seriesKey]*minuteSeries
}

// appJSONs is one app's states' and events' JSON, read once.
type appJSONs struct {
	once sync.Once
	err  error
}

// Session is one run of the recorder: what it recorded spans Began..Last.
type Session struct {
	Began, Last time.Time
	Scope       string
}

// Gap is a span between two sessions that nothing recorded.
type Gap struct{ From, To time.Time }

type machineIndex struct {
	mid     int64
	app, id string
	states  []stateRef // by time
	events  []eventRef // newest first
	// The JSON of each state and event (by index), once the app's is read
	// (appJSON): apart from the refs, which are read meanwhile.
	stateJS, eventJS [][]byte
}

type stateRef struct {
	t        int64
	row      int64 // the states row: its JSON is read with the app's
	state    string
	config   int64
	cordoned bool
	gone     bool // json NULL: gone from the listing
}

type eventRef struct {
	t, seen int64
	row     int64 // the events row
	exit    bool  // an exit: a crash, maybe (Crashes reads its JSON)
	deploy  bool  // a launch or an update: a release beginning on the machine
}

type appChange struct {
	t       int64
	present bool
}

type seriesKey struct{ app, metric, status string }

// minuteSeries is one counter's minutes, with running sums for any range.
type minuteSeries struct {
	minutes []int64   // unix minutes, ascending
	cum     []float64 // cum[i] = n of minutes[0..i]
}

// Open opens a recording for reading. It fails with an Error saying why
// the file cannot be replayed: missing, not a recording, damaged, from a
// newer flywake.
func Open(path string) (*Recording, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{Kind: IO, Path: path, Detail: err.Error(), Err: err}
	}
	empty, err := emptyFile(abs)
	if err != nil {
		return nil, classify(path, err)
	}
	if empty {
		return nil, &Error{Kind: NotARecording, Path: path, Detail: "there is no such file, or it is empty"}
	}
	db, err := openSQL(abs, true)
	if err != nil {
		return nil, classify(path, err)
	}
	r := &Recording{path: path, file: abs, db: db, machines: map[string]*machineIndex{}, byApp: map[string][]*machineIndex{},
		appLog: map[string][]appChange{}, configs: map[int64][]byte{}, releases: map[int64]string{}, series: map[seriesKey]*minuteSeries{},
		loaded: map[string]*appJSONs{}}
	if err := r.load(context.Background()); err != nil {
		db.Close()
		return nil, classify(path, err)
	}
	for app := range r.byApp {
		r.loaded[app] = &appJSONs{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.stopLoad = cancel
	r.loading.Add(1)
	go r.loadAll(ctx)
	return r, nil
}

// Close stops reading and closes the file.
func (r *Recording) Close() error {
	r.stopLoad()
	r.loading.Wait()
	return r.db.Close()
}

// loadAll reads every app's JSON, in the apps' order, until ctx ends: a
// listing of an app read here is served without waiting for the file.
func (r *Recording) loadAll(ctx context.Context) {
	defer r.loading.Done()
	for _, app := range r.appOrder {
		if ctx.Err() != nil {
			return
		}
		_ = r.appJSON(ctx, app) // an error is the listing's to tell
	}
}

// Loaded waits until every app's JSON is read (or ctx ends): the
// benchmarks' warm recording.
func (r *Recording) Loaded(ctx context.Context) error {
	for _, app := range r.appOrder {
		if err := r.appJSON(ctx, app); err != nil {
			return err
		}
	}
	return nil
}

// appJSON reads app's states' and events' JSON once (the first caller
// reads; the others wait for it).
func (r *Recording) appJSON(ctx context.Context, app string) error {
	l := r.loaded[app]
	if l == nil {
		return nil
	}
	l.once.Do(func() { l.err = r.readAppJSON(ctx, app) })
	return l.err
}

func (r *Recording) readAppJSON(ctx context.Context, app string) error {
	ms := r.byApp[app]
	if len(ms) == 0 {
		return nil
	}
	type slot struct {
		mi *machineIndex
		i  int
	}
	states, events := map[int64]slot{}, map[int64]slot{}
	mids := make([]string, 0, len(ms))
	for _, mi := range ms {
		mids = append(mids, strconv.FormatInt(mi.mid, 10))
		mi.stateJS, mi.eventJS = make([][]byte, len(mi.states)), make([][]byte, len(mi.events))
		for i := range mi.states {
			states[mi.states[i].row] = slot{mi, i}
		}
		for i := range mi.events {
			events[mi.events[i].row] = slot{mi, i}
		}
	}
	in := strings.Join(mids, ",")
	read := func(query string, put func(row int64, js []byte)) error {
		return scanRows(ctx, r.db, query, nil, func(rows *sql.Rows) error {
			var row int64
			var js []byte
			if err := rows.Scan(&row, &js); err != nil {
				return err
			}
			put(row, js)
			return nil
		})
	}
	if err := read(`SELECT rowid, json FROM states WHERE mid IN (`+in+`) AND json IS NOT NULL`, func(row int64, js []byte) {
		if s, ok := states[row]; ok {
			s.mi.stateJS[s.i] = js
		}
	}); err != nil {
		return classify(r.path, err)
	}
	if err := read(`SELECT rowid, json FROM events WHERE mid IN (`+in+`)`, func(row int64, js []byte) {
		if e, ok := events[row]; ok {
			e.mi.eventJS[e.i] = js
		}
	}); err != nil {
		return classify(r.path, err)
	}
	return nil
}

// Path is the file.
func (r *Recording) Path() string { return r.path }

// Org is the organization recorded.
func (r *Recording) Org() string { return r.org }

// Scope says what was recorded ("org demo-org", "app sleepy-api").
func (r *Recording) Scope() string { return r.scope }

// EventsKept is how many events per machine the replay lists.
func (r *Recording) EventsKept() int { return r.eventsKept }

func (r *Recording) load(ctx context.Context) error {
	meta, err := readMeta(ctx, r.db)
	if err != nil {
		return err
	}
	if meta == nil {
		return &Error{Kind: NotARecording, Path: r.path, Detail: "an SQLite database without flywake's tables"}
	}
	if r.version, err = checkVersion(r.path, meta); err != nil {
		return err
	}
	r.org, r.scope = meta["org"], meta["scope"]
	if r.eventsKept, _ = strconv.Atoi(meta["events_kept"]); r.eventsKept <= 0 {
		r.eventsKept = 5
	}
	q := func(query string, scan func(*sql.Rows) error) error { return scanRows(ctx, r.db, query, nil, scan) }
	if err := q(`SELECT began, last, scope FROM sessions ORDER BY began`, func(rows *sql.Rows) error {
		var s Session
		var b, l int64
		if err := rows.Scan(&b, &l, &s.Scope); err != nil {
			return err
		}
		s.Began, s.Last = fromNS(b), fromNS(l)
		r.sessions = append(r.sessions, s)
		return nil
	}); err != nil {
		return err
	}
	byMID := map[int64]*machineIndex{}
	if err := q(`SELECT id, app, machine FROM machines ORDER BY id`, func(rows *sql.Rows) error {
		mi := &machineIndex{}
		if err := rows.Scan(&mi.mid, &mi.app, &mi.id); err != nil {
			return err
		}
		byMID[mi.mid] = mi
		r.machines[mi.app+"\x00"+mi.id] = mi
		if len(r.byApp[mi.app]) == 0 {
			r.appOrder = append(r.appOrder, mi.app)
		}
		r.byApp[mi.app] = append(r.byApp[mi.app], mi)
		return nil
	}); err != nil {
		return err
	}
	if err := q(`SELECT id, release FROM configs`, func(rows *sql.Rows) error {
		var id int64
		var rel string
		if err := rows.Scan(&id, &rel); err != nil {
			return err
		}
		r.releases[id] = rel
		return nil
	}); err != nil {
		return err
	}
	// In the file's order (a scan, not the index's lookups), sorted here,
	// and without the JSON (appJSON reads it): a day of 10,000 machines
	// is 700,000 rows, each column of them a tenth of a second and more.
	// The events on a second connection meanwhile: a core each.
	events, err := openSQL(r.file, true)
	if err != nil {
		return err
	}
	defer events.Close()
	var eventMoments []int64
	eventsRead := make(chan error, 1)
	go func() {
		eventsRead <- scanRows(ctx, events, `SELECT rowid, t, seen, (mid << 2) | ((type = 'exit') << 1) | (type IN ('launch', 'update')) FROM events`, nil, func(rows *sql.Rows) error {
			var e eventRef
			var packed int64
			if err := rows.Scan(&e.row, &e.t, &e.seen, &packed); err != nil {
				return err
			}
			e.exit, e.deploy = packed&2 != 0, packed&1 != 0
			if mi := byMID[packed>>2]; mi != nil {
				mi.events = append(mi.events, e)
				eventMoments = append(eventMoments, e.t*int64(time.Millisecond))
			}
			return nil
		})
	}()
	var moments []int64
	err = r.loadStates(ctx, q, byMID, &moments)
	if eerr := <-eventsRead; err == nil {
		err = eerr
	}
	if err != nil {
		return err
	}
	moments = append(moments, eventMoments...)
	for _, mi := range byMID {
		slices.SortFunc(mi.states, func(a, b stateRef) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.row, b.row)) })
		// Newest first; of one instant, as the listing that first held them listed them.
		slices.SortFunc(mi.events, func(a, b eventRef) int { return cmp.Or(cmp.Compare(b.t, a.t), cmp.Compare(a.row, b.row)) })
	}
	slices.Sort(moments)
	r.moments = slices.Compact(moments)
	if err := q(`SELECT t, app, present FROM apps ORDER BY t, rowid`, func(rows *sql.Rows) error {
		var c appChange
		var app string
		var present int
		if err := rows.Scan(&c.t, &app, &present); err != nil {
			return err
		}
		c.present = present != 0
		if _, ok := r.appLog[app]; !ok && len(r.byApp[app]) == 0 {
			r.appOrder = append(r.appOrder, app)
		}
		r.appLog[app] = append(r.appLog[app], c)
		return nil
	}); err != nil {
		return err
	}
	sort.Strings(r.appOrder)
	return q(`SELECT app, metric, status, minute, n FROM counts ORDER BY app, metric, status, minute`, func(rows *sql.Rows) error {
		var k seriesKey
		var minute int64
		var n float64
		if err := rows.Scan(&k.app, &k.metric, &k.status, &minute, &n); err != nil {
			return err
		}
		s := r.series[k]
		if s == nil {
			s = &minuteSeries{}
			r.series[k] = s
		}
		prev := 0.0
		if len(s.cum) > 0 {
			prev = s.cum[len(s.cum)-1]
		}
		s.minutes, s.cum = append(s.minutes, minute), append(s.cum, prev+n)
		return nil
	})
}

// loadStates reads every machine's states without their JSON: the machine,
// config and flags packed in one column when the ids fit (a column less
// read is a tenth of a second less on a day of 10,000 machines), and the
// entries gone from the listing apart (they are few).
func (r *Recording) loadStates(ctx context.Context, q func(string, func(*sql.Rows) error) error, byMID map[int64]*machineIndex, moments *[]int64) error {
	var maxMID, maxConfig int64
	if err := r.db.QueryRowContext(ctx, `SELECT (SELECT coalesce(max(id), 0) FROM machines), (SELECT coalesce(max(id), 0) FROM configs)`).Scan(&maxMID, &maxConfig); err != nil {
		return err
	}
	const configBits = 22
	query := `SELECT rowid, t, (mid << 24) | (config << 2) | (cordoned != 0), state FROM states`
	if maxMID >= 1<<37 || maxConfig >= 1<<configBits || maxConfig < 0 {
		query = `SELECT rowid, t, mid, config, cordoned != 0, state FROM states`
	}
	packed := !strings.Contains(query, "mid, config")
	if err := q(query, func(rows *sql.Rows) error {
		var s stateRef
		var mid int64
		if packed {
			var p int64
			if err := rows.Scan(&s.row, &s.t, &p, &s.state); err != nil {
				return err
			}
			mid, s.config, s.cordoned = p>>24, p>>2&(1<<configBits-1), p&1 != 0
		} else if err := rows.Scan(&s.row, &s.t, &mid, &s.config, &s.cordoned, &s.state); err != nil {
			return err
		}
		if mi := byMID[mid]; mi != nil {
			mi.states = append(mi.states, s)
			*moments = append(*moments, s.t)
		}
		return nil
	}); err != nil {
		return err
	}
	gone := map[int64]bool{}
	if err := q(`SELECT rowid FROM states WHERE json IS NULL`, func(rows *sql.Rows) error {
		var row int64
		err := rows.Scan(&row)
		gone[row] = true
		return err
	}); err != nil || len(gone) == 0 {
		return err
	}
	for _, mi := range byMID {
		for i := range mi.states {
			mi.states[i].gone = gone[mi.states[i].row]
		}
	}
	return nil
}

// scanRows runs query with args on db and hands each row to scan.
func scanRows(ctx context.Context, db *sql.DB, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Sessions are the recorder's runs, oldest first.
func (r *Recording) Sessions() []Session { return r.sessions }

// Span is the recorded time: the first session's start to the last one's end.
func (r *Recording) Span() (from, to time.Time) {
	if len(r.sessions) == 0 {
		return time.Time{}, time.Time{}
	}
	from, to = r.sessions[0].Began, r.sessions[0].Last
	for _, s := range r.sessions[1:] {
		to = maxTime(to, s.Last)
	}
	return from, to
}

// GapSlack is how far apart two sessions may be before the time between
// them is a gap (a restart takes a moment).
const GapSlack = 5 * time.Second

// Gaps are the spans between sessions that nothing recorded.
func (r *Recording) Gaps() []Gap {
	var out []Gap
	var end time.Time
	for i, s := range r.sessions {
		if i > 0 && s.Began.Sub(end) > GapSlack {
			out = append(out, Gap{From: end, To: s.Began})
		}
		end = maxTime(end, s.Last)
	}
	return out
}

// GapAt is the gap t falls in, if it does (and outside the span: before
// the first session or after the last).
func (r *Recording) GapAt(t time.Time) (Gap, bool) {
	for _, g := range r.Gaps() {
		if !t.Before(g.From) && t.Before(g.To) {
			return g, true
		}
	}
	return Gap{}, false
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Apps are the apps the org had at t (for a recording of one app: that
// app, once it has a machine), sorted.
func (r *Recording) Apps(t time.Time) []string {
	at := ns(t)
	var out []string
	for _, app := range r.appOrder {
		if log, ok := r.appLog[app]; ok {
			i := sort.Search(len(log), func(i int) bool { return log[i].t > at })
			if i > 0 && log[i-1].present {
				out = append(out, app)
			}
			continue
		}
		for _, mi := range r.byApp[app] {
			if len(mi.states) > 0 && mi.states[0].t <= at {
				out = append(out, app)
				break
			}
		}
	}
	return out
}

// HasApp reports whether the recording knows app at all.
func (r *Recording) HasApp(app string) bool {
	_, listed := r.appLog[app]
	return listed || len(r.byApp[app]) > 0
}

// stateAt is mi's state at t (false: not seen yet, or gone).
func (mi *machineIndex) stateAt(at int64) (stateRef, bool) {
	i, ok := mi.stateIndex(at)
	if !ok {
		return stateRef{}, false
	}
	return mi.states[i], true
}

// stateIndex is the index of mi's state at t (false: not seen yet, or
// gone). The search is written out: the whole org at an instant is one
// per machine, 10,000 of them in a step.
func (mi *machineIndex) stateIndex(at int64) (int, bool) {
	lo, hi := 0, len(mi.states) // the first state after at is in [lo, hi]
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if mi.states[h].t > at {
			hi = h
		} else {
			lo = h + 1
		}
	}
	if lo == 0 || mi.states[lo-1].gone {
		return 0, false
	}
	return lo - 1, true
}

// MachineState is one machine's state at an instant, without its JSON.
type MachineState struct {
	App, ID, State string
	Since          time.Time // when the recording saw it change to State
}

// OrgAt is every machine of every app at t: the whole org rebuilt.
func (r *Recording) OrgAt(t time.Time) []MachineState {
	at := ns(t)
	out := make([]MachineState, 0, len(r.machines))
	for _, app := range r.appOrder {
		for _, mi := range r.byApp[app] {
			if s, ok := mi.stateAt(at); ok {
				out = append(out, MachineState{App: mi.app, ID: mi.id, State: s.state, Since: fromNS(s.t)})
			}
		}
	}
	return out
}

// ListingJSON is app's machines listing at t as the Machines API answers
// it (fly-go's JSON of each machine, its config and newest events).
func (r *Recording) ListingJSON(app string, t time.Time) ([]byte, error) {
	if err := r.appJSON(context.Background(), app); err != nil {
		return nil, err
	}
	at := ns(t)
	var buf bytes.Buffer
	buf.WriteByte('[')
	n := 0
	for _, mi := range r.byApp[app] {
		s, ok := mi.stateIndex(at)
		if !ok {
			continue
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		if err := r.writeMachine(&buf, mi, s, at); err != nil {
			return nil, err
		}
		n++
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// MachineJSON is one machine at t as GET machine answers it; false when
// the recording has no such machine then.
func (r *Recording) MachineJSON(app, id string, t time.Time) ([]byte, bool, error) {
	mi := r.machines[app+"\x00"+id]
	if mi == nil {
		return nil, false, nil
	}
	if err := r.appJSON(context.Background(), app); err != nil {
		return nil, false, err
	}
	s, ok := mi.stateIndex(ns(t))
	if !ok {
		return nil, false, nil
	}
	var buf bytes.Buffer
	err := r.writeMachine(&buf, mi, s, ns(t))
	return buf.Bytes(), true, err
}

// StateOf is one machine's state at t ("" when it did not exist then).
func (r *Recording) StateOf(app, id string, t time.Time) string {
	mi := r.machines[app+"\x00"+id]
	if mi == nil {
		return ""
	}
	s, ok := mi.stateAt(ns(t))
	if !ok {
		return ""
	}
	return s.state
}

// writeMachine splices one machine's JSON: its entry, config and events
// were stored apart (the config once per version, each event once). The
// app's JSON has been read (appJSON); si is the state's index.
func (r *Recording) writeMachine(buf *bytes.Buffer, mi *machineIndex, si int, at int64) error {
	s, sjs := mi.states[si], mi.stateJS[si]
	cfg, err := r.config(s.config)
	if err != nil {
		return err
	}
	buf.WriteString(`{"config":`)
	buf.Write(cfg)
	buf.WriteString(`,"events":[`)
	n := 0
	for i, e := range mi.events {
		if n == r.eventsKept {
			break
		}
		if e.seen > at || mi.eventJS[i] == nil {
			// nil: the row was dropped since Open (a recorder still
			// writing the file keeps only --keep); an empty slot would
			// make the listing invalid JSON.
			continue
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		buf.Write(mi.eventJS[i])
		n++
	}
	buf.WriteByte(']')
	if s.cordoned {
		buf.WriteString(`,"cordoned":true`)
	}
	if len(sjs) > 2 {
		buf.WriteByte(',')
		buf.Write(sjs[1:])
	} else {
		buf.WriteByte('}')
	}
	return nil
}

func (r *Recording) config(id int64) ([]byte, error) {
	r.cfgMu.Lock()
	defer r.cfgMu.Unlock()
	if b, ok := r.configs[id]; ok {
		return b, nil
	}
	var b []byte
	if err := r.db.QueryRow(`SELECT json FROM configs WHERE id = ?`, id).Scan(&b); err != nil {
		if err == sql.ErrNoRows {
			return []byte("null"), nil
		}
		return nil, classify(r.path, err)
	}
	r.configs[id] = b
	return b, nil
}

// Next is the first moment after t when a machine changed or an event
// happened; false when there is none.
func (r *Recording) Next(t time.Time) (time.Time, bool) {
	at := ns(t)
	i := sort.Search(len(r.moments), func(i int) bool { return r.moments[i] > at })
	if i == len(r.moments) {
		return time.Time{}, false
	}
	return fromNS(r.moments[i]), true
}

// Prev is the last such moment before t.
func (r *Recording) Prev(t time.Time) (time.Time, bool) {
	at := ns(t)
	i := sort.Search(len(r.moments), func(i int) bool { return r.moments[i] >= at })
	if i == 0 {
		return time.Time{}, false
	}
	return fromNS(r.moments[i-1]), true
}

// LogLine is one recorded line of an app's logs.
type LogLine struct {
	ID                               int64
	Time                             time.Time
	Machine, Region, Provider, Level string
	Message, Error                   string
}

// Logs are up to limit of app's lines after `after` and at or before
// until, oldest first, narrowed to instance and region when not "".
func (r *Recording) Logs(app string, after, until time.Time, instance, region string, limit int) ([]LogLine, error) {
	return r.logs(`SELECT rowid, t, machine, region, provider, level, message, error FROM logs
		WHERE app = ? AND t > ? AND t <= ? AND (? = '' OR machine = ?) AND (? = '' OR region = ?) ORDER BY t, rowid LIMIT ?`,
		app, after.UnixNano(), ns(until), instance, instance, region, region, limit)
}

// Tail is the newest limit of app's lines since `since`, at or before
// until, oldest first.
func (r *Recording) Tail(app string, since, until time.Time, instance, region string, limit int) ([]LogLine, error) {
	out, err := r.logs(`SELECT rowid, t, machine, region, provider, level, message, error FROM logs
		WHERE app = ? AND t >= ? AND t <= ? AND (? = '' OR machine = ?) AND (? = '' OR region = ?) ORDER BY t DESC, rowid DESC LIMIT ?`,
		app, since.UnixNano(), ns(until), instance, instance, region, region, limit)
	slices.Reverse(out)
	return out, err
}

func (r *Recording) logs(query string, args ...any) ([]LogLine, error) {
	rows, err := r.db.Query(query, args...)
	if err != nil {
		return nil, classify(r.path, err)
	}
	defer rows.Close()
	var out []LogLine
	for rows.Next() {
		var l LogLine
		var t int64
		if err := rows.Scan(&l.ID, &t, &l.Machine, &l.Region, &l.Provider, &l.Level, &l.Message, &l.Error); err != nil {
			return nil, classify(r.path, err)
		}
		l.Time = fromNS(t)
		out = append(out, l)
	}
	return out, classify(r.path, rows.Err())
}

// Probe is the last answer recorded at or before t to command on app's
// machine; false when none was.
func (r *Recording) Probe(app, machine, command string, t time.Time) (fly.MachineExecResponse, time.Time, bool, error) {
	var res fly.MachineExecResponse
	var at int64
	err := r.db.QueryRow(`SELECT t, exit_code, stdout, stderr FROM probes WHERE app = ? AND machine = ? AND command = ? AND t <= ?
		ORDER BY t DESC LIMIT 1`, app, machine, command, ns(t)).Scan(&at, &res.ExitCode, &res.StdOut, &res.StdErr)
	if err == sql.ErrNoRows {
		return res, time.Time{}, false, nil
	}
	if err != nil {
		return res, time.Time{}, false, classify(r.path, err)
	}
	return res, fromNS(at), true, nil
}

// Volumes is app's volumes listing (fly-go's JSON) as last recorded at or
// before t; ok is false when none was (or the file predates volumes).
func (r *Recording) Volumes(app string, t time.Time) (js []byte, ok bool, err error) {
	if r.version < 2 {
		return nil, false, nil
	}
	err = r.db.QueryRow(`SELECT json FROM volumes WHERE app = ? AND t <= ? ORDER BY t DESC LIMIT 1`, app, ns(t)).Scan(&js)
	if err == sql.ErrNoRows {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, classify(r.path, err)
	}
	return js, true, nil
}

// CounterSeries is one recorded counter of one app and status.
type CounterSeries struct {
	App, Metric, Status string
	// Increase is the count over the minutes that begin in [from, to) and
	// ended by `known` (a minute still under way then is not counted).
	Increase func(from, to, known time.Time) float64
}

// Counters lists the recorded counters of metric ("" every one).
func (r *Recording) Counters(metric string) []CounterSeries {
	out := make([]CounterSeries, 0, len(r.series))
	for k, s := range r.series {
		if metric != "" && k.metric != metric {
			continue
		}
		out = append(out, CounterSeries{App: k.app, Metric: k.metric, Status: k.status, Increase: s.increase})
	}
	slices.SortFunc(out, func(a, b CounterSeries) int {
		return strings.Compare(a.App+"\x00"+a.Metric+"\x00"+a.Status, b.App+"\x00"+b.Metric+"\x00"+b.Status)
	})
	return out
}

// increase sums the minutes beginning in [ceil(from), ceil(to)) — the
// platform's own rule (flysim's metrics) — that ended by known.
func (s *minuteSeries) increase(from, to, known time.Time) float64 {
	lo, hi := minuteCeil(from), minuteCeil(to)
	if k := known.Unix()/60 - 1; hi > k+1 { // the minute k ended at or before known
		hi = k + 1
	}
	if hi <= lo {
		return 0
	}
	sumBelow := func(m int64) float64 { // minutes < m
		i := sort.Search(len(s.minutes), func(i int) bool { return s.minutes[i] >= m })
		if i == 0 {
			return 0
		}
		return s.cum[i-1]
	}
	return sumBelow(hi) - sumBelow(lo)
}

func minuteCeil(t time.Time) int64 {
	ns := t.UnixNano()
	const m = int64(time.Minute)
	q := ns / m
	if ns%m > 0 {
		q++
	}
	return q
}

// ReleaseSince is when release (a fly_release_version) began on app's
// machines, as the recording tells: the earliest of each machine's last
// launch or update before its first entry running it (every event the
// recording holds, not the platform's five), else its oldest event held.
// False when no machine was seen running it.
func (r *Recording) ReleaseSince(app, release string) (time.Time, bool) {
	var first int64
	for _, mi := range r.byApp[app] {
		for _, s := range mi.states {
			if s.gone || r.releases[s.config] != release {
				continue
			}
			// Without a launch or update (the deploy fell out of the
			// platform's list before the recording began), every event it
			// holds of the machine is since the release's start.
			at := s.t
			if n := len(mi.events); n > 0 {
				at = min(at, mi.events[n-1].t*int64(time.Millisecond))
			}
			for _, e := range mi.events { // newest first
				if e.deploy && e.t*int64(time.Millisecond) <= s.t {
					at = e.t * int64(time.Millisecond)
					break
				}
			}
			if first == 0 || at < first {
				first = at
			}
			break
		}
	}
	return fromNS(first), first != 0
}

// Crash is one crash the recording holds.
type Crash struct {
	Machine string
	At      time.Time
	Event   fly.MachineEvent
}

// Crashes are every crash of app's machines in [since, until] the
// recording holds (newest first), however many the platform dropped.
func (r *Recording) Crashes(app string, since, until time.Time) ([]Crash, error) {
	if err := r.appJSON(context.Background(), app); err != nil {
		return nil, err
	}
	lo, hi := since.UnixMilli(), until.UnixMilli()
	var out []Crash
	for _, mi := range r.byApp[app] {
		for i, e := range mi.events {
			if !e.exit || e.t < lo || e.t > hi || e.seen > ns(until) {
				continue
			}
			var ev fly.MachineEvent
			if json.Unmarshal(mi.eventJS[i], &ev) != nil || !diagnose.IsCrash(&ev) {
				continue
			}
			out = append(out, Crash{Machine: mi.id, At: time.UnixMilli(e.t).UTC(), Event: ev})
		}
	}
	slices.SortFunc(out, func(a, b Crash) int { return b.At.Compare(a.At) })
	return out, nil
}

// Describe is a one-line account of the recording, for the command line.
func (r *Recording) Describe() string {
	from, to := r.Span()
	return fmt.Sprintf("%s: %s, %s – %s, %d sessions", r.path, r.scope, from.Format(time.RFC3339), to.Format(time.RFC3339), len(r.sessions))
}
