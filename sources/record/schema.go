package record

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver: "sqlite"
)

// SchemaVersion is the schema this build writes (see the package doc).
const SchemaVersion = 2

// volumesTable is version 2's addition: each app's volumes listing.
var volumesTable = []string{
	`CREATE TABLE volumes (t INTEGER NOT NULL, app TEXT NOT NULL, json BLOB NOT NULL)`,
	`CREATE INDEX volumes_by_app ON volumes (app, t)`,
}

// schema is the current version, as the package doc documents it.
var schema = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
	`CREATE TABLE sessions (id INTEGER PRIMARY KEY, began INTEGER NOT NULL, last INTEGER NOT NULL, scope TEXT NOT NULL)`,
	`CREATE TABLE apps (t INTEGER NOT NULL, app TEXT NOT NULL, present INTEGER NOT NULL)`,
	`CREATE TABLE machines (id INTEGER PRIMARY KEY, app TEXT NOT NULL, machine TEXT NOT NULL, UNIQUE (app, machine))`,
	`CREATE TABLE configs (id INTEGER PRIMARY KEY, hash BLOB NOT NULL UNIQUE, release TEXT NOT NULL, json BLOB NOT NULL)`,
	`CREATE TABLE states (t INTEGER NOT NULL, mid INTEGER NOT NULL, state TEXT NOT NULL, config INTEGER NOT NULL,
		cordoned INTEGER NOT NULL, json BLOB)`,
	`CREATE INDEX states_by_machine ON states (mid, t)`,
	`CREATE TABLE events (mid INTEGER NOT NULL, t INTEGER NOT NULL, seen INTEGER NOT NULL, type TEXT NOT NULL,
		status TEXT NOT NULL, source TEXT NOT NULL, exit_code INTEGER, oom INTEGER NOT NULL, json BLOB NOT NULL,
		UNIQUE (mid, t, type, status, source))`,
	`CREATE TABLE logs (app TEXT NOT NULL, t INTEGER NOT NULL, machine TEXT NOT NULL, region TEXT NOT NULL,
		provider TEXT NOT NULL, level TEXT NOT NULL, message TEXT NOT NULL, error TEXT NOT NULL)`,
	`CREATE INDEX logs_by_app ON logs (app, t)`,
	`CREATE TABLE probes (t INTEGER NOT NULL, app TEXT NOT NULL, machine TEXT NOT NULL, command TEXT NOT NULL,
		exit_code INTEGER NOT NULL, stdout TEXT NOT NULL, stderr TEXT NOT NULL)`,
	`CREATE INDEX probes_by_machine ON probes (app, machine, command, t)`,
	`CREATE TABLE counts (app TEXT NOT NULL, metric TEXT NOT NULL, status TEXT NOT NULL, minute INTEGER NOT NULL,
		n REAL NOT NULL, PRIMARY KEY (app, metric, status, minute)) WITHOUT ROWID`,
	`CREATE TABLE boots (app TEXT NOT NULL, machine TEXT NOT NULL, began INTEGER NOT NULL, served INTEGER NOT NULL,
		crashed INTEGER NOT NULL, phases TEXT NOT NULL, PRIMARY KEY (app, machine, began)) WITHOUT ROWID`,
	`CREATE TABLE judgements (t INTEGER NOT NULL, app TEXT NOT NULL, release TEXT NOT NULL, outcome TEXT NOT NULL,
		reason TEXT NOT NULL)`,
	volumesTable[0], volumesTable[1],
}

// pragmas apply to every connection: WAL (one writer, readers alongside),
// durable commits against a crashed process, and a wait for a lock held
// by someone else before SQLITE_BUSY.
const pragmas = "_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(2000)&_pragma=foreign_keys(OFF)"

// openSQL opens path; readOnly opens it without write access (a replay).
func openSQL(path string, readOnly bool) (*sql.DB, error) {
	dsn := "file:" + path + "?" + pragmas
	if readOnly {
		dsn = "file:" + path + "?mode=ro&_pragma=busy_timeout(2000)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// One connection: the writer's transactions and the replay's reads are
	// serial anyway, and a single connection keeps SQLite's locks simple.
	db.SetMaxOpenConns(1)
	return db, nil
}

// meta reads the meta table (nil, nil when the file has none: not ours).
func readMeta(ctx context.Context, db *sql.DB) (map[string]string, error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// checkVersion refuses a file this build cannot read.
func checkVersion(path string, meta map[string]string) (int, error) {
	v, err := strconv.Atoi(meta["schema_version"])
	if err != nil || v < 1 {
		return 0, &Error{Kind: NotARecording, Path: path, Detail: "it has no schema version"}
	}
	if v > SchemaVersion {
		return v, &Error{Kind: NewerSchema, Path: path,
			Detail: fmt.Sprintf("its schema is version %d; this flywake reads up to version %d", v, SchemaVersion)}
	}
	return v, nil
}

// create writes the schema into an empty file.
func create(ctx context.Context, db *sql.DB, org, scope string, eventsKept int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("creating the schema: %w", err)
		}
	}
	for k, v := range map[string]string{
		"schema_version": strconv.Itoa(SchemaVersion), "org": org, "scope": scope,
		"events_kept": strconv.Itoa(eventsKept), "created_by": "flywake",
	} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)`, k, v); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// migrate brings an older schema to SchemaVersion, in one transaction:
// version 2 adds the volumes table.
func migrate(ctx context.Context, db *sql.DB, from int) error {
	if from >= SchemaVersion {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if from < 2 {
		for _, stmt := range volumesTable {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrating the schema to version 2: %w", err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'schema_version'`, strconv.Itoa(SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// emptyFile reports whether path is missing or has no bytes (a new recording).
func emptyFile(path string) (bool, error) {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if st.IsDir() {
		return false, &Error{Kind: NotARecording, Path: path, Detail: "it is a directory"}
	}
	return st.Size() == 0, nil
}

// ns is t in unix nanoseconds (the schema's time); zero stays 0.
func ns(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromNS is the inverse of ns.
func fromNS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.Unix(0, v).UTC()
}
