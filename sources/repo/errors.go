package repo

import "fmt"

// Source is the "file:line" form used as evidence sources.
func Source(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}
