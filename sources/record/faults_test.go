package record

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
)

// Every way a recording's file can fail is refused with what to do, or
// recovered from; none panics, hangs or records silently into nothing.

func wantKind(t *testing.T, err error, k Kind, words string) {
	t.Helper()
	if !IsKind(err, k) {
		t.Fatalf("err = %v, want kind %d", err, k)
	}
	if !strings.Contains(err.Error(), words) {
		t.Errorf("err = %q, want it to say %q", err, words)
	}
}

func TestDiskFullStopsTheWriterAndSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.db")
	c := &clock{now: t0}
	w, err := Create(path, Options{Org: "o", Now: c.Now, FlushEvery: 10 * time.Millisecond, MaxPages: 100})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 4000)
	deadline := time.After(20 * time.Second)
	for i := 0; ; i++ {
		w.Logs("api", []fly.LogEntry{{Timestamp: t0.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano), Message: big}})
		time.Sleep(time.Millisecond) // a few lines a commit, so the first ones fit
		select {
		case <-w.Dead():
			wantKind(t, w.Err(), DiskFull, "the disk is full")
			if err := w.Close(); !IsKind(err, DiskFull) {
				t.Errorf("Close = %v, want the disk-full error again", err)
			}
			// What was committed before the disk filled is still there.
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			lines, _ := r.Logs("api", t0.Add(-time.Hour), t0.Add(time.Hour), "", "", 1000)
			if len(lines) == 0 || len(lines) >= i+1 {
				t.Errorf("%d lines kept of %d sent; want some, not all", len(lines), i+1)
			}
			return
		case <-deadline:
			t.Fatal("the writer never noticed the disk was full")
		default:
		}
	}
}

func TestReadOnlyFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.db")
	c := &clock{now: t0}
	w := newWriter(t, path, c)
	w.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	_, err := Create(path, Options{Org: "o", Now: c.Now})
	wantKind(t, err, ReadOnly, "read-only")
	// Reading it is fine: a replay never writes.
	r, err := Open(path)
	if err != nil {
		t.Fatalf("a read-only recording cannot be replayed: %v", err)
	}
	r.Close()
}

func TestSecondRecorderIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.db")
	c := &clock{now: t0}
	w := newWriter(t, path, c)
	defer w.Close()
	_, err := Create(path, Options{Org: "demo-org", Now: c.Now})
	wantKind(t, err, Locked, "another flywake record")
}

// A lock SQLite itself holds (another program inside a write transaction)
// stops the writer with Locked once the wait for it runs out.
func TestDatabaseLockedByAnotherProgram(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rec.db")
	c := &clock{now: t0}
	w := newWriter(t, path, c)
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	if _, err := other.Exec("BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	w.Apps(t0, []string{"api"})
	select {
	case <-w.Dead():
		wantKind(t, w.Err(), Locked, "locked by another process")
	case <-time.After(30 * time.Second):
		t.Fatal("the writer waited on the lock for ever")
	}
	other.Exec("ROLLBACK")
	w.Close()
}

func TestNotARecording(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "notes.txt")
	os.WriteFile(garbage, []byte(strings.Repeat("not a database\n", 500)), 0o644)
	_, err := Open(garbage)
	wantKind(t, err, NotARecording, "is not a flywake recording")
	_, err = Create(garbage, Options{Org: "o"})
	wantKind(t, err, NotARecording, "is not a flywake recording")

	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite", "file:"+other)
	db.Exec("CREATE TABLE t (x)")
	db.Close()
	_, err = Open(other)
	wantKind(t, err, NotARecording, "without flywake's tables")

	_, err = Open(filepath.Join(dir, "missing.db"))
	wantKind(t, err, NotARecording, "no such file")
}

func TestNewerSchemaIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.db")
	c := &clock{now: t0}
	w := newWriter(t, path, c)
	w.Close()
	db, _ := sql.Open("sqlite", "file:"+path)
	if _, err := db.Exec(`UPDATE meta SET value = ? WHERE key = 'schema_version'`, strconv.Itoa(SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err := Open(path)
	wantKind(t, err, NewerSchema, fmt.Sprintf("schema is version %d", SchemaVersion+1))
	_, err = Create(path, Options{Org: "demo-org"})
	wantKind(t, err, NewerSchema, "newer flywake")
}

// A file damaged in the middle (its pages overwritten) is named damaged
// when it is read, never read as if whole.
func TestDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.db")
	c := &clock{now: t0}
	w := newWriter(t, path, c)
	for i := 0; i < 300; i++ {
		w.Listing(t0.Add(time.Duration(i)*time.Second), "api",
			listing(machine(fmt.Sprintf("m%03d", i), "started", "7", t0.Add(time.Duration(i)*time.Second))))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkpoint(t, path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	junk := []byte(strings.Repeat("\xde\xad\xbe\xef", 1024))
	for off := int64(8192); off+int64(len(junk)) < st.Size(); off += 16384 {
		f.WriteAt(junk, off)
	}
	f.Close()
	_, err = Open(path)
	if !IsKind(err, Corrupt) && !IsKind(err, NotARecording) {
		t.Fatalf("a damaged file opened: err = %v", err)
	}
	if !strings.Contains(err.Error(), "damaged") && !strings.Contains(err.Error(), "not a flywake recording") {
		t.Errorf("err = %q, want it to say the file is damaged", err)
	}
}

// checkpoint folds the WAL into the file, so damage to the file's pages
// is damage to the data.
func checkpoint(t *testing.T, path string) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
}

// A recorder killed with SIGKILL while it writes loses at most its last
// second: what it handed the writer a second before the kill is in the
// file, which opens whole, and a new session resumes it without
// duplicates.
func TestKillMidWriteLosesAtMostTheLastSecond(t *testing.T) {
	t.Parallel()
	if path := os.Getenv("FLYWAKE_RECORD_CHILD"); path != "" {
		childWrites(path)
		return
	}
	path := filepath.Join(t.TempDir(), "rec.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidWriteLosesAtMostTheLastSecond$")
	cmd.Env = append(os.Environ(), "FLYWAKE_RECORD_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child prints the number of each line as it hands it over.
	sc := bufio.NewScanner(out)
	handed := map[int]time.Time{}
	for sc.Scan() && len(handed) < 3000 {
		if n, err := strconv.Atoi(sc.Text()); err == nil {
			handed[n] = time.Now()
		}
	}
	killed := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	r, err := Open(path)
	if err != nil {
		t.Fatalf("the file does not open after kill -9: %v", err)
	}
	lines, err := r.Logs("api", t0.Add(-time.Hour), t0.Add(24*time.Hour), "", "", 100000)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	kept := map[int]bool{}
	for _, l := range lines {
		n, _ := strconv.Atoi(strings.TrimPrefix(l.Message, "line "))
		kept[n] = true
	}
	// A second of flush interval, and the commit under way then: every line
	// handed over more than that before the kill is in the file.
	const lose = time.Second + 500*time.Millisecond
	lost := 0
	for n, at := range handed {
		if !kept[n] && killed.Sub(at) > lose {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d lines handed over more than %s before the kill are missing (%d of %d kept)", lost, lose, len(kept), len(handed))
	}
	if len(kept) == 0 {
		t.Fatal("nothing was kept")
	}
	// Resume: the same lines again add nothing.
	c := &clock{now: t0.Add(time.Hour)}
	w, err := Create(path, Options{Org: "o", Now: c.Now, FlushEvery: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var again []fly.LogEntry
	for n := range kept {
		again = append(again, logLine(n))
	}
	sortEntries(again)
	w.Logs("api", again)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if st := w.Stats(); st.Logs != 0 {
		t.Errorf("resuming stored %d lines again", st.Logs)
	}
}

func logLine(n int) fly.LogEntry {
	return fly.LogEntry{Timestamp: t0.Add(time.Duration(n) * time.Millisecond).Format(time.RFC3339Nano), Message: "line " + strconv.Itoa(n)}
}

func sortEntries(es []fly.LogEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Timestamp < es[j-1].Timestamp; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// childWrites hands the writer a line every millisecond until killed.
func childWrites(path string) {
	now := t0
	w, err := Create(path, Options{Org: "o", Now: func() time.Time { return now }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for n := 0; ; n++ {
		w.Logs("api", []fly.LogEntry{logLine(n)})
		fmt.Println(n)
		time.Sleep(time.Millisecond)
	}
}
