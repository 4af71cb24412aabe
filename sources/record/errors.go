package record

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Kind is what went wrong with a recording's file, in the words a user
// can act on.
type Kind int

const (
	// NotARecording: the file is not a flywake recording (another SQLite
	// database, or no database at all).
	NotARecording Kind = iota + 1
	// Corrupt: the file was a recording but is damaged.
	Corrupt
	// NewerSchema: a newer flywake wrote it; this one cannot read it.
	NewerSchema
	// Locked: another process holds it (another recorder, or a lock).
	Locked
	// ReadOnly: the file or its directory cannot be written.
	ReadOnly
	// DiskFull: the disk (or the file's size limit) is full.
	DiskFull
	// IO: any other failure to read or write it.
	IO
)

// Error is a recording's file failing, with what to do about it.
type Error struct {
	Kind   Kind
	Path   string
	Detail string // what was found, in plain words
	Err    error  // the driver's error, when there was one
}

func (e *Error) Error() string {
	var what, fix string
	switch e.Kind {
	case NotARecording:
		what, fix = "is not a flywake recording", "name a file `flywake record` wrote, or a new one"
	case Corrupt:
		what, fix = "is damaged", "export what can still be read (flywake record --export) or start a new recording"
	case NewerSchema:
		what, fix = "was written by a newer flywake", "use that flywake (or a newer one) to read it"
	case Locked:
		what, fix = "is locked by another process", "stop the other `flywake record` on this file, or record into another file"
	case ReadOnly:
		what, fix = "cannot be written", "make the file and its directory writable, or record into another file"
	case DiskFull:
		what, fix = "could not be written: the disk is full", "free space (or lower --keep), then run flywake record again: it resumes"
	default:
		what, fix = "could not be read or written", "check the file and its disk"
	}
	msg := fmt.Sprintf("recording %s %s", e.Path, what)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg + ": " + fix
}

func (e *Error) Unwrap() error { return e.Err }

// IsKind reports whether err is a recording Error of kind k.
func IsKind(err error, k Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

// classify turns a driver error on path into an Error (nil stays nil; an
// Error already is one).
func classify(path string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return &Error{Kind: IO, Path: path, Detail: err.Error(), Err: err}
	}
	kind := IO
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_FULL:
		kind = DiskFull
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM:
		kind = ReadOnly
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		kind = Locked
	case sqlite3.SQLITE_CORRUPT:
		kind = Corrupt
	case sqlite3.SQLITE_NOTADB:
		kind = NotARecording
	case sqlite3.SQLITE_CANTOPEN:
		kind = ReadOnly
	}
	return &Error{Kind: kind, Path: path, Detail: se.Error(), Err: err}
}
