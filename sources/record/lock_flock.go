//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package record

import (
	"errors"
	"os"
	"syscall"
)

// lockWriter takes the recording's writer lock: an advisory lock on the
// file itself (SQLite's own locks are fcntl locks, which this does not
// touch), held while the writer lives, so two recorders never interleave
// their facts in one file. It fails at once when another process holds it.
func lockWriter(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &Error{Kind: Locked, Path: path, Detail: "another flywake record is writing it"}
		}
		return nil, err
	}
	return f, nil
}
