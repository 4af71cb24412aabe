package repo

import "fmt"

// FileError is a problem with one project file, pointing at the line when
// it is known (Line 0 = the file as a whole).
type FileError struct {
	File string // path relative to the project dir, e.g. "fly.toml"
	Line int
	Msg  string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Source is the "file:line" form used as evidence sources.
func Source(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}
