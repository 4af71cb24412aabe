package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/record"
)

// flywake record, then status, verdict and check on the recording: the
// commands answer from it as they answer from a platform.
func TestRecordThenReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "rec.db")
	_, stderr, code := runFlywake(t, nil, "record", "--demo", "--speed", "40", "--for", "2s", "--db", db, "-a", "crashy-api")
	if code != 0 {
		t.Fatalf("record exited %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "recording app crashy-api") || !strings.Contains(stderr, "kept ") {
		t.Errorf("record said: %s", stderr)
	}

	out, stderr, code := runFlywake(t, nil, "status", "--replay", db, "-a", "crashy-api", "--json")
	if code != 0 {
		t.Fatalf("status --replay exited %d: %s", code, stderr)
	}
	var rep struct {
		Apps []struct {
			Name     string `json:"app"`
			Machines []struct {
				ID string `json:"id"`
			} `json:"machines"`
		} `json:"apps"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("status --json: %v\n%.300s", err, out)
	}
	if len(rep.Apps) != 1 || rep.Apps[0].Name != "crashy-api" || len(rep.Apps[0].Machines) == 0 {
		t.Errorf("status of the recording: %.500s", out)
	}

	// The demo's crashing app, judged at the recording's start: its
	// looks move the replay's clock on, within what was recorded.
	out, stderr, code = runFlywake(t, nil, "verdict", "--replay", db, "-a", "crashy-api", "--at", "start", "--settle", "2s")
	if code != 2 && code != 3 {
		t.Errorf("verdict --replay exited %d, want 2 (failed) or 3 (could not judge in what was recorded):\n%s%s", code, out, stderr)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "--replay", db, "--at", "1999-01-01 00:00"}, "outside the recording"},
		{[]string{"status", "--replay", db, "-a", "nope"}, `holds no app "nope"`},
		{[]string{"wake", "--replay", db, "--yes"}, "a recording cannot be changed"},
		{[]string{"status", "--at", "03:00", "--demo"}, "--at picks an instant of a recording"},
		{[]string{"status", "--replay", filepath.Join(dir, "missing.db")}, "is not a flywake recording"},
		{[]string{"record", "--db", db, "--export", "start..end", "--out", db}, "exists already"},
	} {
		_, stderr, code := runFlywake(t, nil, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("flywake %s: exit %d, stderr %q; want it to say %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}

	out, stderr, code = runFlywake(t, nil, "record", "--db", db, "--export", "start..end", "--out", filepath.Join(dir, "part.db"))
	if code != 0 || !strings.Contains(out, "wrote ") {
		t.Errorf("export exited %d: %s%s", code, out, stderr)
	}
}

// A recording file record cannot write is refused at once, in words:
// before any platform is looked for (there is no token here, which
// would be the error otherwise), and before a demo is built.
func TestRecordRefusesAFileItCannotWrite(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "rec.db")
	w, err := record.Create(db, record.Options{Org: "demo-org", Scope: "app crashy-api"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	os.Chmod(db, 0o444)
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte(strings.Repeat("just text\n", 200)), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"record", "--db", db, "-a", "crashy-api"}, "cannot be written"},
		{[]string{"record", "--demo", "--for", "1s", "--db", db}, "cannot be written"},
		{[]string{"record", "--db", notes, "-a", "crashy-api"}, "is not a flywake recording"},
		{[]string{"record", "--demo", "--for", "1s", "--db", notes}, "is not a flywake recording"},
	} {
		_, stderr, code := runFlywake(t, nil, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("flywake %s: exit %d, %q; want 1 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}
