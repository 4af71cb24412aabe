package record

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Lookback is how far before an instant the dashboard reads logs and
// counters (a day): an export keeps that much before FROM, so the panes'
// day-long figures at FROM are what they were.
const Lookback = 24 * time.Hour

// Export writes the part of the recording at src between from and to into
// a new file dst: what happened in between, and what the instant `from`
// needs to be rebuilt (each machine's state then, its newest events, the
// day of logs and counters before it). dst must not exist.
func Export(src, dst string, from, to time.Time) error {
	if !to.After(from) {
		return fmt.Errorf("the export's end %s is not after its start %s", to.Format(time.RFC3339), from.Format(time.RFC3339))
	}
	r, err := Open(src)
	if err != nil {
		return err
	}
	scope, kept := r.Scope(), r.EventsKept()
	org, version := r.Org(), r.version
	r.Close()
	if _, err := os.Stat(dst); err == nil {
		return &Error{Kind: IO, Path: dst, Detail: "it exists already: name a new file"}
	}
	absSrc, _ := filepath.Abs(src)
	w, err := Create(dst, Options{Org: org, Scope: fmt.Sprintf("%s, %s to %s", scope, from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339)),
		EventsKept: kept, Now: func() time.Time { return from }})
	if err != nil {
		return err
	}
	// The writer made the schema and a session; the rows come straight
	// from the source file.
	w.closing.Do(func() { close(w.done) })
	<-w.loopEnd
	defer w.lock.Close()
	defer w.db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	f, t, back := ns(from), ns(to), ns(from.Add(-Lookback))
	if _, err := w.db.ExecContext(ctx, `ATTACH DATABASE ? AS src`, "file:"+absSrc+"?mode=ro"); err != nil {
		return classify(dst, err)
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return classify(dst, err)
	}
	defer tx.Rollback()
	type query struct {
		sql  string
		args []any
	}
	queries := []query{
		{`DELETE FROM sessions`, nil},
		{`INSERT INTO sessions (began, last, scope) SELECT max(began, ?), min(last, ?), scope FROM src.sessions
			WHERE last >= ? AND began <= ? ORDER BY began`, []any{f, t, f, t}},
		{`INSERT INTO machines SELECT * FROM src.machines`, nil},
		{`INSERT INTO states SELECT * FROM src.states WHERE t >= ? AND t <= ?
			OR rowid IN (SELECT max(rowid) FROM src.states WHERE t < ? GROUP BY mid)`, []any{f, t, f}},
		{`INSERT INTO configs SELECT * FROM src.configs WHERE id IN (SELECT DISTINCT config FROM states)`, nil},
		{`INSERT INTO events SELECT * FROM src.events WHERE seen <= ? AND (t >= ? / 1000000
			OR rowid IN (SELECT rowid FROM (SELECT rowid, row_number() OVER (PARTITION BY mid ORDER BY t DESC) AS n
				FROM src.events WHERE seen < ?) WHERE n <= ?))`, []any{t, f, f, kept}},
		{`INSERT INTO logs SELECT * FROM src.logs WHERE t >= ? AND t <= ?`, []any{back, t}},
		{`INSERT INTO probes SELECT * FROM src.probes WHERE t >= ? AND t <= ?
			OR rowid IN (SELECT max(rowid) FROM src.probes WHERE t < ? GROUP BY app, machine, command)`, []any{f, t, f}},
		{`INSERT INTO counts SELECT * FROM src.counts WHERE minute >= ? AND minute <= ?`, []any{from.Add(-Lookback).Unix() / 60, to.Unix() / 60}},
		{`INSERT INTO boots SELECT * FROM src.boots WHERE began >= ? AND began <= ?`, []any{back, t}},
		{`INSERT INTO judgements SELECT * FROM src.judgements WHERE t >= ? AND t <= ?
			OR rowid IN (SELECT max(rowid) FROM src.judgements WHERE t < ? GROUP BY app)`, []any{f, t, f}},
		{`INSERT INTO apps SELECT * FROM src.apps WHERE t >= ? AND t <= ?
			OR rowid IN (SELECT max(rowid) FROM src.apps WHERE t < ? GROUP BY app)`, []any{f, t, f}},
	}
	if version >= 2 { // an older file has no volumes
		queries = append(queries, query{`INSERT INTO volumes SELECT * FROM src.volumes WHERE t >= ? AND t <= ?
			OR rowid IN (SELECT max(rowid) FROM src.volumes WHERE t < ? GROUP BY app)`, []any{f, t, f}})
	}
	for _, q := range queries {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return classify(dst, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return classify(dst, err)
	}
	if _, err := w.db.ExecContext(ctx, `DETACH DATABASE src`); err != nil {
		return classify(dst, err)
	}
	_, err = w.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return classify(dst, err)
}
