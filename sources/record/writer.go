package record

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Options configure a Writer.
type Options struct {
	Org   string // the organization recorded (kept in meta)
	Scope string // what is recorded: "org demo-org", "app sleepy-api"
	// Now is the platform's clock: a session's span and the retention are
	// in its time. Default time.Now.
	Now func() time.Time
	// Keep is how much history the file keeps (--keep); 0 keeps everything.
	Keep time.Duration
	// EventsKept is how many events per machine the platform lists (Fly: 5);
	// the replay lists as many. Default 5.
	EventsKept int
	// FlushEvery is the longest a fact waits before it is committed: what a
	// kill -9 can lose. Default one second.
	FlushEvery time.Duration
	// MaxPages caps the file's size in pages (tests: a disk that fills up).
	MaxPages int
}

func (o *Options) defaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.EventsKept <= 0 {
		o.EventsKept = 5
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = time.Second
	}
}

// Writer appends facts to a recording. Its methods may be called from any
// goroutine; they queue the fact and return (they wait only when the
// queue is full). One goroutine owns the file: it diffs each fact against
// what the file already holds and commits a batch every FlushEvery.
// Once a commit fails the writer stops: Err says why, Dead is closed, and
// later facts are dropped (the command stops on Dead; it never records
// silently into nothing).
type Writer struct {
	path string
	opts Options
	db   *sql.DB
	lock *os.File

	in      chan func(*batch)
	dead    chan struct{}
	done    chan struct{}
	loopEnd chan struct{}
	mu      sync.Mutex
	err     error
	closing sync.Once

	session int64
	listed  listedMemo // the last listings' prepared machines (facts.go)
	phases  phasesMemo // each boot's phases, encoded (facts.go)
	st      *diffState // owned by the loop
	stats   Stats      // owned by the loop; copied out under mu
	shown   Stats
}

// Stats counts what a writer stored, for the recorder's status line and
// the benchmark.
type Stats struct {
	Commits                               int
	States, Configs, Events, Logs, Probes int
	Counts, Boots, Judgements, AppChanges int
	Volumes                               int       // volume listings that changed
	LastCommit                            time.Time // platform time of the last commit
	Skipped                               int       // facts that changed nothing (already held)
	Failed                                error
}

// Create opens path for recording (creating it when missing or empty),
// starts a session and returns the writer. The file is refused when it is
// not a recording, damaged, from a newer flywake, read-only or being
// written by another recorder.
func Create(path string, o Options) (*Writer, error) {
	o.defaults()
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{Kind: IO, Path: path, Detail: err.Error(), Err: err}
	}
	if err := checkWritable(abs); err != nil {
		return nil, err
	}
	fresh, err := emptyFile(abs)
	if err != nil {
		return nil, classify(path, err)
	}
	if fresh {
		f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, classify(path, err)
		}
		f.Close()
	}
	lock, err := lockWriter(abs)
	if err != nil {
		return nil, classify(path, err)
	}
	db, err := openSQL(abs, false)
	if err != nil {
		lock.Close()
		return nil, classify(path, err)
	}
	w := &Writer{path: path, opts: o, db: db, lock: lock, in: make(chan func(*batch), 4096),
		dead: make(chan struct{}), done: make(chan struct{}), loopEnd: make(chan struct{})}
	if err := w.open(fresh); err != nil {
		db.Close()
		lock.Close()
		return nil, classify(path, err)
	}
	go w.loop()
	return w, nil
}

// Check refuses path as Create would, without recording: a file that is
// not a recording, damaged, from a newer flywake or read-only (a missing or
// empty one is fine). It is cheap, for a caller to ask before it builds
// what it would record from.
func Check(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return &Error{Kind: IO, Path: path, Detail: err.Error(), Err: err}
	}
	if err := checkWritable(abs); err != nil {
		return err
	}
	fresh, err := emptyFile(abs)
	if err != nil || fresh {
		return classify(path, err)
	}
	db, err := openSQL(abs, true)
	if err != nil {
		return classify(path, err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	meta, err := readMeta(ctx, db)
	if err != nil {
		return classify(path, err)
	}
	if meta == nil {
		return &Error{Kind: NotARecording, Path: path, Detail: "an SQLite database without flywake's tables"}
	}
	_, err = checkVersion(path, meta)
	return err
}

// checkWritable refuses a file (or, for a new one, a directory) with no
// write permission before SQLite is asked: it would open read-only and
// fail on the first commit instead. The mode bits are read rather than
// tried, so the answer is the same for root.
func checkWritable(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return &Error{Kind: IO, Path: path, Detail: "its directory " + dir + " does not exist", Err: err}
	}
	if st.Mode().Perm()&0o222 == 0 {
		return &Error{Kind: ReadOnly, Path: path, Detail: "its directory is read-only"}
	}
	fst, err := os.Stat(path)
	if err == nil && !fst.IsDir() && fst.Mode().Perm()&0o222 == 0 {
		return &Error{Kind: ReadOnly, Path: path, Detail: fmt.Sprintf("the file is read-only (mode %04o)", fst.Mode().Perm())}
	}
	return nil
}

// open checks (or creates) the schema, applies the size cap and starts a
// session.
func (w *Writer) open(fresh bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if w.opts.MaxPages > 0 {
		if _, err := w.db.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", w.opts.MaxPages)); err != nil {
			return err
		}
	}
	if fresh {
		if err := create(ctx, w.db, w.opts.Org, w.opts.Scope, w.opts.EventsKept); err != nil {
			return err
		}
	} else {
		meta, err := readMeta(ctx, w.db)
		if err != nil {
			return err
		}
		if meta == nil {
			return &Error{Kind: NotARecording, Path: w.path, Detail: "an SQLite database without flywake's tables"}
		}
		v, err := checkVersion(w.path, meta)
		if err != nil {
			return err
		}
		if err := migrate(ctx, w.db, v); err != nil {
			return err
		}
		if org := meta["org"]; org != "" && w.opts.Org != "" && org != w.opts.Org {
			return &Error{Kind: NotARecording, Path: w.path,
				Detail: fmt.Sprintf("it records org %s, not %s: record into another file", org, w.opts.Org)}
		}
	}
	if w.opts.Keep > 0 {
		if err := retain(ctx, w.db, w.opts.Now().Add(-w.opts.Keep), w.opts.EventsKept); err != nil {
			return err
		}
	}
	now := ns(w.opts.Now())
	res, err := w.db.ExecContext(ctx, `INSERT INTO sessions (began, last, scope) VALUES (?, ?, ?)`, now, now, w.opts.Scope)
	if err != nil {
		return err
	}
	if w.session, err = res.LastInsertId(); err != nil {
		return err
	}
	w.st, err = loadDiffState(ctx, w.db, w.opts.EventsKept)
	return err
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

// Dead is closed once the writer stopped on an error (Err says which).
func (w *Writer) Dead() <-chan struct{} { return w.dead }

// Err is why the writer stopped; nil while it runs.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Stats is what the writer stored so far.
func (w *Writer) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.shown
}

// submit queues one change for the loop; dropped once the writer is dead.
func (w *Writer) submit(f func(*batch)) {
	select {
	case <-w.dead:
	case <-w.done:
	case w.in <- f:
	}
}

// Close commits what is queued, ends the session and closes the file. It
// returns the error that stopped the writer, if one did.
func (w *Writer) Close() error {
	w.closing.Do(func() { close(w.done) })
	<-w.loopEnd
	w.db.Close()
	w.lock.Close()
	return w.Err()
}

func (w *Writer) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = classify(w.path, err)
		w.shown.Failed = w.err
		close(w.dead)
	}
}

// loop owns the file: it gathers facts into a batch and commits it every
// FlushEvery, and once more on Close.
func (w *Writer) loop() {
	defer close(w.loopEnd)
	tick := time.NewTicker(w.opts.FlushEvery)
	defer tick.Stop()
	retainEvery := time.NewTicker(time.Hour)
	defer retainEvery.Stop()
	b := newBatch(w.st)
	flush := func() bool {
		if err := w.commit(b); err != nil {
			w.fail(err)
			return false
		}
		b = newBatch(w.st)
		return true
	}
	for {
		select {
		case f := <-w.in:
			f(b)
			if b.size() >= maxBatch && !flush() {
				return
			}
		case <-tick.C:
			if !flush() {
				return
			}
		case <-retainEvery.C:
			if w.opts.Keep > 0 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				err := retain(ctx, w.db, w.opts.Now().Add(-w.opts.Keep), w.opts.EventsKept)
				cancel()
				if err != nil {
					w.fail(err)
					return
				}
			}
		case <-w.done:
			for drained := false; !drained; {
				select {
				case f := <-w.in:
					f(b)
				default:
					drained = true
				}
			}
			flush()
			return
		}
	}
}

// maxBatch is the most rows one commit holds; a busy minute commits more
// often than once a second.
const maxBatch = 20_000

// commit writes b in one transaction with the session's heartbeat. A
// failed commit leaves the file as it was before it.
func (w *Writer) commit(b *batch) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := b.write(ctx, tx); err != nil {
		return err
	}
	now := w.opts.Now()
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET last = max(last, ?) WHERE id = ?`, ns(now), w.session); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	w.stats.add(b.stats)
	w.stats.Commits++
	w.stats.LastCommit = now
	w.mu.Lock()
	w.shown = w.stats
	w.mu.Unlock()
	return nil
}

func (s *Stats) add(c Stats) {
	s.States += c.States
	s.Configs += c.Configs
	s.Events += c.Events
	s.Logs += c.Logs
	s.Probes += c.Probes
	s.Counts += c.Counts
	s.Boots += c.Boots
	s.Judgements += c.Judgements
	s.AppChanges += c.AppChanges
	s.Volumes += c.Volumes
	s.Skipped += c.Skipped
}
