//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package record

import "os"

// lockWriter opens the file without an advisory lock where the system has
// no flock: SQLite's own locking still keeps each transaction whole.
func lockWriter(path string) (*os.File, error) { return os.OpenFile(path, os.O_RDWR, 0) }
