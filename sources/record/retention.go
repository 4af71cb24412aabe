package record

import (
	"context"
	"database/sql"
	"time"
)

// retain drops what is older than cut (--keep), keeping what the instant
// cut needs to be rebuilt: each machine's last state before it (and its
// config), its newest events, the sessions cut at it.
func retain(ctx context.Context, db *sql.DB, cut time.Time, eventsKept int) error {
	c := ns(cut)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		// A state older than cut goes when a newer one, also at or before cut, replaces it.
		{`DELETE FROM states WHERE t < ? AND rowid NOT IN (SELECT max(rowid) FROM states WHERE t <= ? GROUP BY mid)`, []any{c, c}},
		{`DELETE FROM events WHERE rowid IN (SELECT rowid FROM (SELECT rowid, t,
			row_number() OVER (PARTITION BY mid ORDER BY t DESC) AS n FROM events WHERE seen <= ?) WHERE t < ? AND n > ?)`, []any{c, c, eventsKept}},
		{`DELETE FROM logs WHERE t < ?`, []any{c}},
		{`DELETE FROM probes WHERE t < ? AND rowid NOT IN (SELECT max(rowid) FROM probes WHERE t <= ? GROUP BY app, machine, command)`, []any{c, c}},
		{`DELETE FROM counts WHERE minute < ?`, []any{cut.Unix() / 60}},
		{`DELETE FROM boots WHERE began < ?`, []any{c}},
		{`DELETE FROM judgements WHERE t < ? AND rowid NOT IN (SELECT max(rowid) FROM judgements WHERE t <= ? GROUP BY app)`, []any{c, c}},
		{`DELETE FROM apps WHERE t < ? AND rowid NOT IN (SELECT max(rowid) FROM apps WHERE t <= ? GROUP BY app)`, []any{c, c}},
		{`DELETE FROM volumes WHERE t < ? AND rowid NOT IN (SELECT max(rowid) FROM volumes WHERE t <= ? GROUP BY app)`, []any{c, c}},
		{`DELETE FROM configs WHERE id NOT IN (SELECT DISTINCT config FROM states)`, nil},
		{`DELETE FROM sessions WHERE last < ?`, []any{c}},
		{`UPDATE sessions SET began = ? WHERE began < ?`, []any{c, c}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return err
		}
	}
	return tx.Commit()
}
