package textfile

import "fmt"

// FileError is a problem with one file, pointing at the line when it is
// known (Line 0 = the file as a whole).
type FileError struct {
	File string // path as the user knows it, e.g. "fly.toml"
	Line int
	Msg  string
	// Warning: the file was read and its values stand (an unknown key,
	// ignored); not a reason to call the file unreadable.
	Warning bool
	// Key is the unknown key of a warning, dotted as written without array
	// indexes ("http_service.auto_stop_machine"), and Nearest the known key
	// it is probably a typo of ("http_service.auto_stop_machines"; "" when
	// none is close).
	Key, Nearest string
}

func (e *FileError) Error() string {
	msg := e.Msg
	if e.Warning {
		msg = "warning: " + msg
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
	}
	return fmt.Sprintf("%s: %s", e.File, msg)
}
