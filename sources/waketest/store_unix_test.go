//go:build unix

package waketest

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A disk that fills mid-save (here a file-size limit: the write stops
// part-way with EFBIG, as ENOSPC would) used to leave a truncated result
// that LoadLast took for the newest and could not read. The save fails
// saying so, leaves no file behind, and the earlier result is still the
// last one. (Not parallel: the limit is the whole process's.)
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

	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip("no file-size limit to set:", err)
	}
	full := lim
	full.Cur = 64 // bytes: less than any report
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &full); err != nil {
		t.Skip("cannot set a file-size limit:", err)
	}
	_, saveErr := (&Report{App: "api", Release: "2", Runs: []Run{}, Warnings: []string{strings.Repeat("x", 200)}}).Save(dir, t0.Add(time.Hour))
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}

	if saveErr == nil || !strings.Contains(saveErr.Error(), "saving the wake test in "+dir+": file too large") ||
		!strings.Contains(saveErr.Error(), "earlier results are kept") {
		t.Errorf("Save on a full disk: %v, want the failure named", saveErr)
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
