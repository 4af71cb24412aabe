package textfile

import (
	"errors"
	"fmt"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/flywake/flywake/sources/words"
)

// TOMLError turns a go-toml error reading file into a FileError with its
// line and a sentence saying what was expected (fly.toml, the key file).
func TOMLError(file string, err error) *FileError {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &FileError{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	line, _ := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	key := strings.Join(de.Key(), ".")
	if got, want, ok := typeMismatch(msg); ok {
		msg = "expected " + want
		if key != "" {
			msg += " for " + key
		}
		msg += ", got " + words.Article(got) + " " + got
	} else {
		msg = syntaxHint(msg)
		if key != "" && !strings.Contains(msg, key) {
			msg = fmt.Sprintf("%s (at %s)", msg, key)
		}
	}
	return &FileError{File: file, Line: line, Msg: msg}
}

// syntaxHint rewords go-toml messages that do not say what was expected.
func syntaxHint(msg string) string {
	switch {
	case strings.Contains(msg, "strings cannot have new lines"):
		return "unterminated string: expected a closing quote before the end of the line"
	case strings.HasPrefix(msg, "unexpected character") && strings.Contains(msg, "at start of value"):
		return "expected a value after '=', " + strings.TrimSuffix(msg, " at start of value")
	case msg == "array is incomplete":
		return "expected ']' to close the array"
	case msg == "inline table is incomplete":
		return "expected '}' to close the inline table"
	}
	return msg
}

// typeMismatch reads go-toml's "cannot decode TOML string into struct field
// repo.rawService.InternalPort of type int". A named type of a package
// ("repo.rawService") is one of the reader's own tables.
func typeMismatch(msg string) (got, want string, ok bool) {
	const prefix = "cannot decode TOML "
	if !strings.HasPrefix(msg, prefix) {
		return "", "", false
	}
	got, target, found := strings.Cut(strings.TrimPrefix(msg, prefix), " into ")
	if !found {
		return "", "", false
	}
	if _, t, ok := strings.Cut(target, " of type "); ok {
		target = t
	}
	target = strings.TrimPrefix(strings.TrimSpace(target), "*")
	switch {
	case strings.HasPrefix(target, "int") || strings.HasPrefix(target, "uint"):
		want = "an integer"
	case target == "bool":
		want = "a boolean"
	case target == "string":
		want = "a string"
	case strings.HasPrefix(target, "[]"):
		want = "an array of tables"
	case strings.HasPrefix(target, "map["), strings.Contains(target, "."), strings.HasPrefix(target, "struct"):
		want = "a table"
	default:
		want = "a " + target
	}
	return got, want, true
}
