package record

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"

	"github.com/flywake/flywake/sources/fly"
)

// diffState is what the writer remembers of the file, so each fact is
// compared in memory rather than by a query: every machine's last state,
// the configs held, the newest events of each machine, each app's newest
// log lines and each probe's last answer. A restart loads it back from the
// file (loadDiffState), which is how it resumes without duplicates.
type diffState struct {
	db         *sql.DB
	eventsKept int

	nextMID, nextCfg int64
	mids             map[string]int64 // app \x00 machine → id
	last             map[int64]lastState
	byApp            map[string]map[int64]bool // machines the app's last listing held
	cfgs             map[[32]byte]int64
	events           map[int64][]eventKey // newest first, at most 2×eventsKept
	tails            map[string]*logTail
	probes           map[probeKey][32]byte
	apps             map[string]bool
	judgements       map[string]string
	boots            map[bootKey]bootSig
	volumes          map[string][32]byte // app → its last volumes listing's hash
}

type lastState struct {
	sig    [32]byte
	config int64
	gone   bool
}

type eventKey struct {
	t                   int64
	typ, status, source string
}

type logTail struct {
	t  int64            // the newest line's time
	at map[[32]byte]int // the lines held at t
}

type probeKey struct{ app, machine, command string }

// bootSig is what a boot's row holds beyond its key.
type bootSig struct {
	phases          string
	served, crashed int64
}

type bootKey struct {
	app, machine string
	began        int64
}

func loadDiffState(ctx context.Context, db *sql.DB, eventsKept int) (*diffState, error) {
	st := &diffState{db: db, eventsKept: eventsKept, mids: map[string]int64{}, last: map[int64]lastState{},
		byApp: map[string]map[int64]bool{}, cfgs: map[[32]byte]int64{}, events: map[int64][]eventKey{},
		tails: map[string]*logTail{}, probes: map[probeKey][32]byte{}, apps: map[string]bool{},
		judgements: map[string]string{}, boots: map[bootKey]bootSig{}, volumes: map[string][32]byte{}}
	q := func(query string, args []any, scan func(*sql.Rows) error) error {
		return scanRows(ctx, db, query, args, scan)
	}
	appOf := map[int64]string{}
	if err := q(`SELECT id, app, machine FROM machines`, nil, func(r *sql.Rows) error {
		var id int64
		var app, m string
		if err := r.Scan(&id, &app, &m); err != nil {
			return err
		}
		st.mids[app+"\x00"+m] = id
		appOf[id] = app
		st.nextMID = max(st.nextMID, id)
		return nil
	}); err != nil {
		return nil, err
	}
	if err := q(`SELECT id, hash FROM configs`, nil, func(r *sql.Rows) error {
		var id int64
		var h []byte
		if err := r.Scan(&id, &h); err != nil {
			return err
		}
		var k [32]byte
		copy(k[:], h)
		st.cfgs[k] = id
		st.nextCfg = max(st.nextCfg, id)
		return nil
	}); err != nil {
		return nil, err
	}
	if err := q(`SELECT mid, config, cordoned, json FROM states WHERE rowid IN (SELECT max(rowid) FROM states GROUP BY mid)`, nil,
		func(r *sql.Rows) error {
			var mid, cfg, cordoned int64
			var js []byte
			if err := r.Scan(&mid, &cfg, &cordoned, &js); err != nil {
				return err
			}
			if js == nil {
				st.last[mid] = lastState{gone: true, config: cfg}
				return nil
			}
			var m fly.Machine
			if err := json.Unmarshal(js, &m); err != nil {
				return err
			}
			st.last[mid] = lastState{sig: stateSig(&m, cordoned != 0), config: cfg}
			st.present(appOf[mid], mid, true)
			return nil
		}); err != nil {
		return nil, err
	}
	if err := q(`SELECT mid, t, type, status, source FROM (SELECT mid, t, type, status, source,
			row_number() OVER (PARTITION BY mid ORDER BY t DESC) AS n FROM events) WHERE n <= ? ORDER BY mid, t DESC`,
		[]any{2 * eventsKept}, func(r *sql.Rows) error {
			var mid int64
			var k eventKey
			if err := r.Scan(&mid, &k.t, &k.typ, &k.status, &k.source); err != nil {
				return err
			}
			st.events[mid] = append(st.events[mid], k)
			return nil
		}); err != nil {
		return nil, err
	}
	if err := q(`SELECT app, machine, command, exit_code, stdout, stderr FROM probes
			WHERE rowid IN (SELECT max(rowid) FROM probes GROUP BY app, machine, command)`, nil, func(r *sql.Rows) error {
		var p probeRow
		if err := r.Scan(&p.app, &p.machine, &p.command, &p.exit, &p.stdout, &p.stderr); err != nil {
			return err
		}
		st.probes[probeKey{p.app, p.machine, p.command}] = probeHash(p)
		return nil
	}); err != nil {
		return nil, err
	}
	if err := q(`SELECT app, present FROM apps WHERE rowid IN (SELECT max(rowid) FROM apps GROUP BY app)`, nil, func(r *sql.Rows) error {
		var app string
		var present int
		if err := r.Scan(&app, &present); err != nil {
			return err
		}
		st.apps[app] = present != 0
		return nil
	}); err != nil {
		return nil, err
	}
	if err := q(`SELECT app, release, outcome, reason FROM judgements WHERE rowid IN (SELECT max(rowid) FROM judgements GROUP BY app)`, nil,
		func(r *sql.Rows) error {
			var j judgementRow
			if err := r.Scan(&j.app, &j.release, &j.outcome, &j.reason); err != nil {
				return err
			}
			st.judgements[j.app] = judgementSig(j)
			return nil
		}); err != nil {
		return nil, err
	}
	if err := q(`SELECT app, json FROM volumes WHERE rowid IN (SELECT max(rowid) FROM volumes GROUP BY app)`, nil, func(r *sql.Rows) error {
		var app string
		var js []byte
		if err := r.Scan(&app, &js); err != nil {
			return err
		}
		st.volumes[app] = sha256.Sum256(js)
		return nil
	}); err != nil {
		return nil, err
	}
	return st, nil
}

// machineID is the id of app's machine, a new one when first seen.
func (st *diffState) machineID(app, machine string) (int64, bool) {
	k := app + "\x00" + machine
	if id, ok := st.mids[k]; ok {
		return id, false
	}
	st.nextMID++
	st.mids[k] = st.nextMID
	return st.nextMID, true
}

// configID is the id of the config with hash h, a new one when first seen.
func (st *diffState) configID(h [32]byte) (int64, bool) {
	if id, ok := st.cfgs[h]; ok {
		return id, false
	}
	st.nextCfg++
	st.cfgs[h] = st.nextCfg
	return st.nextCfg, true
}

func (st *diffState) present(app string, mid int64, in bool) {
	set := st.byApp[app]
	if set == nil {
		set = map[int64]bool{}
		st.byApp[app] = set
	}
	if in {
		set[mid] = true
	} else {
		delete(set, mid)
	}
}

// newEvent reports whether k is an event of mid not held yet, and holds it.
// Only the newest events are remembered (a listing carries the newest
// few); an older one that comes again is caught by the table's UNIQUE.
func (st *diffState) newEvent(mid int64, k eventKey) bool {
	ks := st.events[mid]
	for _, h := range ks {
		if h == k {
			return false
		}
	}
	i := 0
	for i < len(ks) && ks[i].t > k.t {
		i++
	}
	ks = append(ks, eventKey{})
	copy(ks[i+1:], ks[i:])
	ks[i] = k
	if len(ks) > 2*st.eventsKept {
		ks = ks[:2*st.eventsKept]
	}
	st.events[mid] = ks
	return true
}

// logTail is app's newest lines, read from the file the first time.
func (st *diffState) logTail(app string) *logTail {
	if t := st.tails[app]; t != nil {
		return t
	}
	t := &logTail{at: map[[32]byte]int{}}
	st.tails[app] = t
	ctx := context.Background()
	var newest sql.NullInt64
	if err := st.db.QueryRowContext(ctx, `SELECT max(t) FROM logs WHERE app = ?`, app).Scan(&newest); err != nil || !newest.Valid {
		return t // nothing held (or unreadable: the UNIQUE-free logs may then repeat a page, never lose one)
	}
	t.t = newest.Int64
	rows, err := st.db.QueryContext(ctx, `SELECT machine, provider, message, error FROM logs WHERE app = ? AND t = ?`, app, t.t)
	if err != nil {
		return t
	}
	defer rows.Close()
	for rows.Next() {
		var r logRow
		if rows.Scan(&r.machine, &r.provider, &r.message, &r.errText) == nil {
			t.at[logKey(r)]++
		}
	}
	return t
}

func logKey(r logRow) [32]byte {
	return sha256.Sum256([]byte(r.machine + "\x00" + r.provider + "\x00" + r.message + "\x00" + r.errText))
}
