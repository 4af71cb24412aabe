package record

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	flygo "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/sanitize"
)

// The facts a Writer takes, each as the platform answered it (fly-go's
// decoded values), timestamped with the platform's clock when it was read.

// Listing records one app's machines listing: every machine whose entry
// changed, its config when new, every event not yet held, and the
// machines the listing no longer holds as gone.
func (w *Writer) Listing(at time.Time, app string, l fly.Listing) {
	ms := w.listed.prepare(app, l)
	w.submit(func(b *batch) { b.addMachines(at, app, ms, true) })
}

// listedMemo keeps, by app and machine, the last listing's prepared
// entries with the hash of the bytes the API sent for each (fly.Listing's
// Hashes): a machine listed again byte for byte, cordon and secrets as
// before, is the same prepared entry, and preparing it again (three JSON
// encodings and two SHA-256) was most of what a listing cost the writer.
// It holds only the machines of each app's last listing.
type listedMemo struct {
	mu    sync.Mutex
	byApp map[string]map[string]listedEntry
}

type listedEntry struct {
	hash     uint64
	cordoned bool
	secrets  uint64 // sanitize.SecretsVersion when prepared
	p        prepared
}

func (lm *listedMemo) prepare(app string, l fly.Listing) []prepared {
	secrets := sanitize.SecretsVersion()
	lm.mu.Lock()
	last := lm.byApp[app]
	lm.mu.Unlock()
	out := make([]prepared, 0, len(l.Machines))
	next := make(map[string]listedEntry, len(l.Machines))
	twice := map[string]bool{}
	for _, m := range l.Machines {
		if m == nil || m.ID == "" {
			continue
		}
		// Hashes holds the first entry of an id listed twice: only that
		// one is known by its hash.
		h, hashed := l.Hashes[m.ID]
		hashed = hashed && !twice[m.ID]
		twice[m.ID] = true
		cordoned := l.Cordoned[m.ID]
		if e, ok := last[m.ID]; hashed && ok && e.hash == h && e.cordoned == cordoned && e.secrets == secrets {
			out = append(out, e.p)
			next[m.ID] = e
			continue
		}
		ps := prepareMachines([]*fly.Machine{m}, l.Cordoned)
		if len(ps) == 0 {
			continue
		}
		out = append(out, ps[0])
		if hashed {
			next[m.ID] = listedEntry{hash: h, cordoned: cordoned, secrets: secrets, p: ps[0]}
		}
	}
	lm.mu.Lock()
	if lm.byApp == nil {
		lm.byApp = map[string]map[string]listedEntry{}
	}
	lm.byApp[app] = next
	lm.mu.Unlock()
	return out
}

// Machine records one machine as a GET answered it (no machine is gone).
func (w *Writer) Machine(at time.Time, app string, m *fly.Machine, cordoned bool) {
	if m == nil {
		return
	}
	ms := prepareMachines([]*fly.Machine{m}, map[string]bool{m.ID: cordoned})
	w.submit(func(b *batch) { b.addMachines(at, app, ms, false) })
}

// Logs records log lines of app (lines already held are skipped).
func (w *Writer) Logs(app string, entries []fly.LogEntry) {
	rows := make([]logRow, 0, len(entries))
	for _, e := range entries {
		t, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		if err != nil {
			continue // a line without a time cannot be placed; the dashboard drops it too
		}
		r := logRow{app: app, t: t.UnixNano(), machine: first(e.Instance, e.Meta.Instance), region: first(e.Region, e.Meta.Region),
			provider: e.Meta.Event.Provider, level: e.Level, message: e.Message, errText: e.Meta.Error.Message}
		r.machine, r.region, r.provider, r.level = sanitize.Redact(r.machine), sanitize.Redact(r.region), sanitize.Redact(r.provider), sanitize.Redact(r.level)
		r.message, r.errText = sanitize.Redact(r.message), sanitize.Redact(r.errText)
		rows = append(rows, r)
	}
	w.submit(func(b *batch) { b.addLogs(app, rows) })
}

// Probe records an exec probe's answer on one machine.
func (w *Writer) Probe(at time.Time, app, machine, command string, res fly.MachineExecResponse) {
	r := probeRow{t: ns(at), app: app, machine: machine, command: command, exit: int(res.ExitCode),
		stdout: sanitize.Redact(res.StdOut), stderr: sanitize.Redact(res.StdErr)}
	w.submit(func(b *batch) { b.probe(r) })
}

// Volumes records app's volumes listing (fly-go's JSON) when it changed.
func (w *Writer) Volumes(at time.Time, app string, vs []fly.Volume) {
	if vs == nil {
		vs = []fly.Volume{}
	}
	js, err := json.Marshal(vs)
	if err != nil {
		return
	}
	r := volumesRow{t: ns(at), app: app, json: []byte(sanitize.Redact(string(js)))}
	w.submit(func(b *batch) { b.volumes(r) })
}

// Apps records the org's apps listing.
func (w *Writer) Apps(at time.Time, names []string) {
	names = append([]string(nil), names...)
	w.submit(func(b *batch) { b.addApps(ns(at), names) })
}

// Count is one minute of one response counter.
type Count struct {
	App, Metric, Status string
	Minute              time.Time // the minute's start
	N                   float64
}

// The counters recorded (Count.Metric).
const (
	EdgeResponses = "fly_edge_http_responses_count"
	AppResponses  = "fly_app_http_responses_count"
)

// Counts records minutes of the response counters (a minute whose count
// is unchanged writes nothing).
func (w *Writer) Counts(cs []Count) {
	cs = append([]Count(nil), cs...)
	w.submit(func(b *batch) { b.addCounts(cs) })
}

// Boots records app's boots the logs told: those that served or crashed.
func (w *Writer) Boots(app string, boots []diagnose.Boot) {
	var rows []bootRow
	enc := w.phases.forApp(app)
	defer enc.keep()
	for _, bt := range boots {
		if !bt.Complete && bt.CrashedAt.IsZero() {
			continue // still booting: recorded once it ends
		}
		k := bootKey{app: app, machine: bt.Machine, began: ns(bt.Begin)}
		rows = append(rows, bootRow{app: app, machine: bt.Machine, began: k.began, served: ns(bt.Serving),
			crashed: ns(bt.CrashedAt), phases: enc.json(k, bt.Phases)})
	}
	if len(rows) == 0 {
		return
	}
	w.submit(func(b *batch) { b.addBoots(rows) })
}

// phasesMemo keeps each boot's phases as last encoded: a logs reply hands
// over every boot the app's tracker holds (thousands by the end of a day),
// nearly all of them unchanged, and encoding their phases again each time
// was the largest part of recording a day. It holds only the boots of each
// app's last handover, so a recording that runs for weeks does not keep
// every boot it ever saw.
type phasesMemo struct {
	mu    sync.Mutex
	byApp map[string]map[bootKey]encodedPhases
}

type encodedPhases struct {
	phases  []diagnose.PhaseSpan
	secrets uint64 // sanitize.SecretsVersion when encoded
	json    string
}

// phasesEncoder encodes one handover of an app's boots.
type phasesEncoder struct {
	pm         *phasesMemo
	app        string
	secrets    uint64
	last, next map[bootKey]encodedPhases
}

func (pm *phasesMemo) forApp(app string) *phasesEncoder {
	pm.mu.Lock()
	last := pm.byApp[app]
	pm.mu.Unlock()
	return &phasesEncoder{pm: pm, app: app, secrets: sanitize.SecretsVersion(), last: last,
		next: make(map[bootKey]encodedPhases, len(last))}
}

// json is phases encoded and redacted, as the boots table holds them.
func (e *phasesEncoder) json(k bootKey, phases []diagnose.PhaseSpan) string {
	if old, ok := e.last[k]; ok && old.secrets == e.secrets && slices.Equal(old.phases, phases) {
		e.next[k] = old
		return old.json
	}
	js, _ := json.Marshal(phases)
	enc := encodedPhases{phases: slices.Clone(phases), secrets: e.secrets, json: sanitize.Redact(string(js))}
	e.next[k] = enc
	return enc.json
}

// keep makes this handover's boots the ones the app's next one is
// compared with.
func (e *phasesEncoder) keep() {
	e.pm.mu.Lock()
	if e.pm.byApp == nil {
		e.pm.byApp = map[string]map[bootKey]encodedPhases{}
	}
	e.pm.byApp[e.app] = e.next
	e.pm.mu.Unlock()
}

// Judgement records the crash-loop judgement of app's release when it
// changed.
func (w *Writer) Judgement(at time.Time, app, release, outcome, reason string) {
	r := judgementRow{t: ns(at), app: app, release: sanitize.Redact(release), outcome: outcome, reason: sanitize.Redact(reason)}
	w.submit(func(b *batch) { b.judgement(r) })
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// prepared is one machine ready for the diff: its JSON without config and
// events, its config's JSON and hash, its events' JSON. It is built in the
// caller's goroutine, so the writer's loop only compares hashes.
type prepared struct {
	id, state string
	json      []byte
	sig       [32]byte // the entry without the checks' times: a check that ran again changes nothing
	config    []byte
	cfgHash   [32]byte
	release   string
	cordoned  bool
	events    []eventRow
}

func prepareMachines(ms []*fly.Machine, cordoned map[string]bool) []prepared {
	out := make([]prepared, 0, len(ms))
	for _, m := range ms {
		if m == nil || m.ID == "" {
			continue
		}
		p := prepared{id: m.ID, state: m.State, cordoned: cordoned[m.ID]}
		cp := *m
		cp.Config, cp.Events, cp.LeaseNonce = nil, nil, ""
		sanitize.RedactAll(&cp)
		p.json, _ = json.Marshal(&cp)
		p.sig = stateSig(&cp, p.cordoned)
		if m.Config != nil {
			cfg := *m.Config
			sanitize.RedactAll(&cfg)
			p.config, _ = json.Marshal(&cfg)
			p.release = cfg.Metadata["fly_release_version"]
		} else {
			p.config = []byte("null")
		}
		p.cfgHash = sha256.Sum256(p.config)
		for _, ev := range m.Events {
			if ev == nil {
				continue
			}
			e := *ev
			sanitize.RedactAll(&e)
			row := eventRow{t: e.Timestamp, typ: e.Type, status: e.Status, source: e.Source}
			if e.Request != nil && e.Request.ExitEvent != nil {
				x := e.Request.ExitEvent
				code := int64(x.ExitCode)
				row.exit = &code
				row.oom = x.OOMKilled
			}
			row.json, _ = json.Marshal(&e)
			p.events = append(p.events, row)
		}
		out = append(out, p)
	}
	return out
}

// stateSig hashes a machine's entry (config and events already removed)
// without its checks' update times, with its cordon.
func stateSig(m *fly.Machine, cordoned bool) [32]byte {
	cp := *m
	if len(m.Checks) > 0 {
		cp.Checks = make([]*flygo.MachineCheckStatus, 0, len(m.Checks))
		for _, c := range m.Checks {
			if c == nil {
				continue
			}
			cc := *c
			cc.UpdatedAt = nil
			cp.Checks = append(cp.Checks, &cc)
		}
	}
	b, _ := json.Marshal(&cp)
	if cordoned {
		b = append(b, "cordoned"...)
	}
	return sha256.Sum256(b)
}

// The rows a batch writes.
type (
	machineRow struct {
		id           int64
		app, machine string
	}
	configRow struct {
		id      int64
		hash    [32]byte
		release string
		json    []byte
	}
	stateRow struct {
		t, mid, config int64
		state          string
		cordoned       bool
		json           []byte // nil: gone
	}
	eventRow struct {
		mid, t, seen        int64
		typ, status, source string
		exit                *int64
		oom                 bool
		json                []byte
	}
	logRow struct {
		app                                                string
		t                                                  int64
		machine, region, provider, level, message, errText string
	}
	probeRow struct {
		t                     int64
		app, machine, command string
		exit                  int
		stdout, stderr        string
	}
	countRow struct {
		app, metric, status string
		minute              int64
		n                   float64
	}
	bootRow struct {
		app, machine           string
		began, served, crashed int64
		phases                 string
	}
	judgementRow struct {
		t                             int64
		app, release, outcome, reason string
	}
	appRow struct {
		t       int64
		app     string
		present bool
	}
	volumesRow struct {
		t    int64
		app  string
		json []byte
	}
)

// batch is the rows of one commit, decided against the diff state (which
// it updates as it goes: a failed commit stops the writer, so the state
// never has to be rolled back).
type batch struct {
	st    *diffState
	mrows []machineRow
	crows []configRow
	srows []stateRow
	erows []eventRow
	lrows []logRow
	prows []probeRow
	nrows []countRow
	brows []bootRow
	jrows []judgementRow
	arows []appRow
	vrows []volumesRow
	stats Stats
}

func newBatch(st *diffState) *batch { return &batch{st: st} }

func (b *batch) size() int {
	return len(b.mrows) + len(b.crows) + len(b.srows) + len(b.erows) + len(b.lrows) + len(b.prows) +
		len(b.nrows) + len(b.brows) + len(b.jrows) + len(b.arows) + len(b.vrows)
}

func (b *batch) addMachines(at time.Time, app string, ms []prepared, complete bool) {
	t := ns(at)
	seen := map[int64]bool{}
	for i := range ms {
		p := &ms[i]
		mid, isNew := b.st.machineID(app, p.id)
		if isNew {
			b.mrows = append(b.mrows, machineRow{id: mid, app: app, machine: p.id})
		}
		seen[mid] = true
		cfg, cfgNew := b.st.configID(p.cfgHash)
		if cfgNew {
			b.crows = append(b.crows, configRow{id: cfg, hash: p.cfgHash, release: p.release, json: p.config})
			b.stats.Configs++
		}
		last, known := b.st.last[mid]
		if !known || last.gone || last.sig != p.sig || last.config != cfg {
			b.srows = append(b.srows, stateRow{t: t, mid: mid, config: cfg, state: p.state, cordoned: p.cordoned, json: p.json})
			b.st.last[mid] = lastState{sig: p.sig, config: cfg}
			b.stats.States++
		} else {
			b.stats.Skipped++
		}
		b.st.present(app, mid, true)
		for _, ev := range p.events {
			k := eventKey{t: ev.t, typ: ev.typ, status: ev.status, source: ev.source}
			if !b.st.newEvent(mid, k) {
				continue
			}
			ev.mid, ev.seen = mid, t
			b.erows = append(b.erows, ev)
		}
	}
	if !complete {
		return
	}
	for mid := range b.st.byApp[app] {
		if seen[mid] {
			continue
		}
		if last := b.st.last[mid]; !last.gone {
			b.srows = append(b.srows, stateRow{t: t, mid: mid, config: last.config, state: "gone"})
			b.st.last[mid] = lastState{gone: true, config: last.config}
			b.stats.States++
		}
		b.st.present(app, mid, false)
	}
}

func (b *batch) addLogs(app string, rows []logRow) {
	tail := b.st.logTail(app)
	// The lines held at the tail's nanosecond, each to be matched once: a
	// page may repeat them (it starts at that nanosecond), and two equal
	// lines may share one.
	held := make(map[[32]byte]int, len(tail.at))
	for k, n := range tail.at {
		held[k] = n
	}
	for _, r := range rows {
		k := logKey(r)
		switch {
		case r.t < tail.t:
			b.stats.Skipped++
			continue // before the newest line held: held already (pages run forward)
		case r.t == tail.t:
			if held[k] > 0 {
				held[k]--
				b.stats.Skipped++
				continue
			}
		default:
			tail.t, tail.at, held = r.t, map[[32]byte]int{}, map[[32]byte]int{}
		}
		tail.at[k]++
		b.lrows = append(b.lrows, r)
		b.stats.Logs++
	}
}

func (b *batch) probe(r probeRow) {
	k := probeKey{app: r.app, machine: r.machine, command: r.command}
	h := probeHash(r)
	if old, ok := b.st.probes[k]; ok && old == h {
		b.stats.Skipped++
		return
	}
	b.st.probes[k] = h
	b.prows = append(b.prows, r)
	b.stats.Probes++
}

func (b *batch) addApps(t int64, names []string) {
	now := map[string]bool{}
	for _, n := range names {
		now[n] = true
		if !b.st.apps[n] {
			b.st.apps[n] = true
			b.arows = append(b.arows, appRow{t: t, app: n, present: true})
			b.stats.AppChanges++
		}
	}
	for n, in := range b.st.apps {
		if in && !now[n] {
			b.st.apps[n] = false
			b.arows = append(b.arows, appRow{t: t, app: n, present: false})
			b.stats.AppChanges++
		}
	}
}

func (b *batch) addCounts(cs []Count) {
	for _, c := range cs {
		if c.N == 0 {
			continue // nothing counted: no row (a counter never goes back to zero)
		}
		b.nrows = append(b.nrows, countRow{app: c.App, metric: c.Metric, status: c.Status, minute: c.Minute.Unix() / 60, n: c.N})
	}
}

func (b *batch) addBoots(rows []bootRow) {
	for _, r := range rows {
		k := bootKey{app: r.app, machine: r.machine, began: r.began}
		// The phases are the same string while unchanged (phasesMemo):
		// comparing them is comparing two pointers.
		sig := bootSig{phases: r.phases, served: r.served, crashed: r.crashed}
		if b.st.boots[k] == sig {
			continue
		}
		b.st.boots[k] = sig
		b.brows = append(b.brows, r)
		b.stats.Boots++
	}
}

func (b *batch) volumes(r volumesRow) {
	h := sha256.Sum256(r.json)
	if old, ok := b.st.volumes[r.app]; ok && old == h {
		b.stats.Skipped++
		return
	}
	b.st.volumes[r.app] = h
	b.vrows = append(b.vrows, r)
	b.stats.Volumes++
}

func (b *batch) judgement(r judgementRow) {
	sig := judgementSig(r)
	if b.st.judgements[r.app] == sig {
		return
	}
	b.st.judgements[r.app] = sig
	b.jrows = append(b.jrows, r)
	b.stats.Judgements++
}

// write inserts the batch's rows in tx.
func (b *batch) write(ctx context.Context, tx *sql.Tx) error {
	type stmt struct {
		sql     string
		n       int
		arg     func(i int) []any
		changed *int // counts the rows the statement changed, when set
	}
	b2i := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for _, s := range []stmt{
		{`INSERT INTO machines (id, app, machine) VALUES (?, ?, ?)`, len(b.mrows), func(i int) []any {
			r := b.mrows[i]
			return []any{r.id, r.app, r.machine}
		}, nil},
		{`INSERT INTO configs (id, hash, release, json) VALUES (?, ?, ?, ?)`, len(b.crows), func(i int) []any {
			r := b.crows[i]
			return []any{r.id, r.hash[:], r.release, r.json}
		}, nil},
		{`INSERT INTO states (t, mid, state, config, cordoned, json) VALUES (?, ?, ?, ?, ?, ?)`, len(b.srows), func(i int) []any {
			r := b.srows[i]
			var js any
			if r.json != nil {
				js = r.json
			}
			return []any{r.t, r.mid, r.state, r.config, b2i(r.cordoned), js}
		}, nil},
		{`INSERT OR IGNORE INTO events (mid, t, seen, type, status, source, exit_code, oom, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, len(b.erows), func(i int) []any {
			r := b.erows[i]
			var exit any
			if r.exit != nil {
				exit = *r.exit
			}
			return []any{r.mid, r.t, r.seen, r.typ, r.status, r.source, exit, b2i(r.oom), r.json}
		}, &b.stats.Events},
		{`INSERT INTO logs (app, t, machine, region, provider, level, message, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, len(b.lrows), func(i int) []any {
			r := b.lrows[i]
			return []any{r.app, r.t, r.machine, r.region, r.provider, r.level, r.message, r.errText}
		}, nil},
		{`INSERT INTO probes (t, app, machine, command, exit_code, stdout, stderr) VALUES (?, ?, ?, ?, ?, ?, ?)`, len(b.prows), func(i int) []any {
			r := b.prows[i]
			return []any{r.t, r.app, r.machine, r.command, r.exit, r.stdout, r.stderr}
		}, nil},
		{`INSERT INTO counts (app, metric, status, minute, n) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (app, metric, status, minute) DO UPDATE SET n = excluded.n WHERE n != excluded.n`, len(b.nrows), func(i int) []any {
			r := b.nrows[i]
			return []any{r.app, r.metric, r.status, r.minute, r.n}
		}, &b.stats.Counts},
		{`INSERT OR REPLACE INTO boots (app, machine, began, served, crashed, phases) VALUES (?, ?, ?, ?, ?, ?)`, len(b.brows), func(i int) []any {
			r := b.brows[i]
			return []any{r.app, r.machine, r.began, r.served, r.crashed, r.phases}
		}, nil},
		{`INSERT INTO judgements (t, app, release, outcome, reason) VALUES (?, ?, ?, ?, ?)`, len(b.jrows), func(i int) []any {
			r := b.jrows[i]
			return []any{r.t, r.app, r.release, r.outcome, r.reason}
		}, nil},
		{`INSERT INTO apps (t, app, present) VALUES (?, ?, ?)`, len(b.arows), func(i int) []any {
			r := b.arows[i]
			return []any{r.t, r.app, b2i(r.present)}
		}, nil},
		{`INSERT INTO volumes (t, app, json) VALUES (?, ?, ?)`, len(b.vrows), func(i int) []any {
			r := b.vrows[i]
			return []any{r.t, r.app, r.json}
		}, nil},
	} {
		if s.n == 0 {
			continue
		}
		st, err := tx.PrepareContext(ctx, s.sql)
		if err != nil {
			return err
		}
		for i := 0; i < s.n; i++ {
			res, err := st.ExecContext(ctx, s.arg(i)...)
			if err != nil {
				st.Close()
				return err
			}
			if s.changed != nil {
				if n, err := res.RowsAffected(); err == nil {
					*s.changed += int(n)
				}
			}
		}
		st.Close()
	}
	return nil
}

func probeHash(r probeRow) [32]byte {
	return sha256.Sum256([]byte(fmt.Sprint(r.exit, "\x00", r.stdout, "\x00", r.stderr)))
}

func judgementSig(r judgementRow) string { return r.release + "\x00" + r.outcome + "\x00" + r.reason }
