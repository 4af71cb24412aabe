//go:build unix

package waketest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A disk that fills mid-save (here a file-size limit: the write stops
// part-way with EFBIG, as ENOSPC would) used to leave a truncated result
// that LoadLast took for the newest and could not read. The save fails
// saying so, leaves no file behind, and the earlier result is still the
// last one. The limit is a whole process's, so the save runs in a child
// process: set here, it made every other write of the test binary fail too
// (go test's own log among them).
func TestSaveOnAFullDiskKeepsTheEarlierResult(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	if _, err := (&Report{App: "api", Release: "1", Runs: []Run{}}).Save(dir, t0); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}

	saveErr := saveUnderFileSizeLimit(t, dir, t0.Add(time.Hour))

	if saveErr == "" || !strings.Contains(saveErr, "saving the wake test in "+dir+": file too large") ||
		!strings.Contains(saveErr, "earlier results are kept") {
		t.Errorf("Save on a full disk: %q, want the failure named", saveErr)
	}
	after, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		var names []string
		for _, e := range after {
			names = append(names, e.Name())
		}
		t.Errorf("files after the failed save: %v, want only the earlier one", names)
	}
	last, _, err := LoadLast(dir, "api")
	if err != nil || last == nil || last.Release != "1" {
		t.Errorf("LoadLast after a failed save: %+v, %v; want the earlier result (release 1)", last, err)
	}
}

// saveUnderFileSizeLimit saves a report larger than 64 bytes into dir from
// a child process whose file-size limit is 64 bytes and returns the error
// the save gave, "" if none.
func saveUnderFileSizeLimit(t *testing.T, dir string, at time.Time) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFileSizeLimitedSave$")
	cmd.Env = append(os.Environ(), "FLYWAKE_LIMITED_SAVE_DIR="+dir, "FLYWAKE_LIMITED_SAVE_AT="+at.Format(time.RFC3339))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the limited save's process: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "cannot set a file-size limit") {
		t.Skip(string(out))
	}
	_, after, ok := strings.Cut(string(out), "save error: ")
	if !ok {
		t.Fatalf("the limited save's process said no result:\n%s", out)
	}
	msg, _, _ := strings.Cut(after, "\n")
	return msg
}

// TestFileSizeLimitedSave is saveUnderFileSizeLimit's child; run alone it
// does nothing.
func TestFileSizeLimitedSave(t *testing.T) {
	dir := os.Getenv("FLYWAKE_LIMITED_SAVE_DIR")
	if dir == "" {
		return
	}
	at, err := time.Parse(time.RFC3339, os.Getenv("FLYWAKE_LIMITED_SAVE_AT"))
	if err != nil {
		t.Fatal(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		fmt.Println("cannot set a file-size limit:", err)
		return
	}
	lim.Cur = 64 // bytes: less than any report
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		fmt.Println("cannot set a file-size limit:", err)
		return
	}
	_, saveErr := (&Report{App: "api", Release: "2", Runs: []Run{}, Warnings: []string{strings.Repeat("x", 200)}}).Save(dir, at)
	msg := ""
	if saveErr != nil {
		msg = saveErr.Error()
	}
	fmt.Printf("save error: %s\n", msg)
}
