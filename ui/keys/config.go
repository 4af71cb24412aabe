package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/flywake/flywake/sources/textfile"
	toml "github.com/pelletier/go-toml/v2"
)

// The key file rebinds actions, one line each, as k9s's hotkeys and
// gh-dash's keybindings do:
//
//	# ~/.config/flywake/keys.toml
//	stop = "X"               # one key
//	down = ["down", "ctrl+n"] # or several
//	log_follow = "space"
//
// It is TOML, as fly.toml is, read by go-toml (already the module's
// parser for fly.toml), whose errors carry their line. An action the file
// does not name keeps its default keys. Every problem is reported with its
// line and nothing is applied until there are none: an unknown action, a
// key bubbletea cannot deliver, a value that is not a key or a list of
// keys, a section, and two actions that would answer to one key in one
// place (places.go). --readonly still turns the dangerous actions off,
// whatever the file binds them to.

// FileName is the key file's name in flywake's config directory.
const FileName = "keys.toml"

// File is the key file: $XDG_CONFIG_HOME/flywake/keys.toml (an absolute
// XDG_CONFIG_HOME, as the XDG spec requires), else
// ~/.config/flywake/keys.toml. Pure: pass os.Getenv and the home directory.
func File(getenv func(string) string, home string) string {
	if x := strings.TrimSpace(getenv("XDG_CONFIG_HOME")); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "flywake", FileName)
	}
	return filepath.Join(home, ".config", "flywake", FileName)
}

// Load is Default with the rebindings of the key file at path. No file
// there is no rebinding; a file that cannot be read, or holds any problem,
// is an error naming each one (the key map is then of no use). It is read
// as project files are (textfile.ReadLinked: a key file linked from a
// dotfiles checkout is read where the link leads): a FIFO or a device there is refused
// rather than waited on, and a read that hangs, the link to it followed
// on the way, ends at textfile.Timeout.
func Load(path string) (KeyMap, error) {
	k := Default()
	data, err := textfile.ReadLinked(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return k, nil
	case err != nil:
		var fe *textfile.FileError
		if errors.As(err, &fe) {
			err = errors.New(fe.Msg) // the path is said once, here
		}
		return k, fmt.Errorf("reading the key file %s: %w", path, err)
	}
	return k, k.Rebind(data, path)
}

// LoadUser is Load of the user's key file (File). Without a home directory
// and an XDG_CONFIG_HOME there is no file to read: the defaults.
func LoadUser() (KeyMap, error) {
	home, err := os.UserHomeDir()
	path := File(os.Getenv, home)
	if err != nil && !filepath.IsAbs(path) {
		return Default(), nil
	}
	return Load(path)
}

// rebinding is one line of the key file.
type rebinding struct {
	action string
	keys   []string // as bubbletea names them
	line   int
	bad    bool // the line has a problem: its keys are not known
}

// Rebind applies a key file's contents (file names it in errors). It
// changes nothing unless the whole file is good; the error lists every
// problem, one "file:line: …" each.
func (k *KeyMap) Rebind(data []byte, file string) error {
	rebinds, errs := parse(data, file)
	all := k.All()
	bound := map[string][]string{}
	for name, b := range all {
		bound[name] = b.Keys()
	}
	written := map[string]int{} // action -> its line in the file
	for _, r := range rebinds {
		bound[r.action] = r.keys
		if r.bad {
			bound[r.action] = nil // what the line meant is not known: no conflict to find
		}
		written[r.action] = r.line
	}
	for _, c := range conflicts(bound) {
		errs = append(errs, conflictError(file, c, written))
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b error) int { return lineOfError(a) - lineOfError(b) })
		return errors.Join(errs...)
	}
	for _, r := range rebinds {
		b := all[r.action]
		b.SetKeys(r.keys...)
		b.SetHelp(labelOf(r.keys), b.Help().Desc)
	}
	return nil
}

// parse reads the file's lines: each a known action and its keys.
func parse(data []byte, file string) ([]rebinding, []error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, []error{textfile.TOMLError(file, err)}
	}
	lines, err := textfile.TOMLLines(data)
	if err != nil {
		return nil, []error{textfile.TOMLError(file, err)}
	}
	actions := slices.Sorted(maps.Keys((&KeyMap{}).All()))
	var out []rebinding
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &textfile.FileError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	for _, name := range slices.Sorted(maps.Keys(doc)) {
		line := lineOf(lines, name)
		value := doc[name]
		if _, table := value.(map[string]any); table {
			fail(line, "%s is a table: the key file has no sections or dotted names, only lines of action = \"key\"", strconv.Quote(name))
			continue
		}
		if !slices.Contains(actions, name) {
			msg := "unknown action " + strconv.Quote(name)
			if near := textfile.Nearest(name, actions); near != "" {
				msg += " — did you mean " + near + "?"
			} else {
				msg += " (the actions are listed in the README, \"Keys can be rebound\")"
			}
			fail(line, "%s", msg)
			continue
		}
		r := rebinding{action: name, line: line}
		written, ok := keyList(value)
		switch {
		case !ok:
			fail(line, "%s: expected a key name or a list of them, like \"x\" or [\"x\", \"ctrl+x\"], got %s", name, describe(value))
			r.bad = true
		case len(written) == 0:
			fail(line, "%s: no key given; an action needs one (delete the line to keep its default keys)", name)
			r.bad = true
		}
		for _, w := range written {
			k, ok := normalKey(w)
			switch {
			case !ok:
				fail(line, "%s: %s is not a key: write one character (\"x\", \"X\", \"?\"), ctrl+ a letter (\"ctrl+x\"), alt+ any key, space, or one of %s", name, strconv.Quote(w), namedKeys())
				r.bad = true
			case !slices.Contains(r.keys, k):
				r.keys = append(r.keys, k)
			}
		}
		out = append(out, r)
	}
	return out, errs
}

// keyList is a TOML value as key names: a string, or an array of strings.
func keyList(v any) ([]string, bool) {
	switch v := v.(type) {
	case string:
		return []string{v}, true
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// describe names a decoded TOML value for an error: `3 (a number)`.
func describe(v any) string {
	switch v := v.(type) {
	case []any:
		return "a list holding something else than key names"
	case bool:
		return fmt.Sprintf("%v (true or false)", v)
	case int64, float64:
		return fmt.Sprintf("%v (a number)", v)
	}
	return fmt.Sprintf("%v (%T)", v, v)
}

// conflictError says which lines bind the conflicting keys.
func conflictError(file string, c conflict, written map[string]int) error {
	line := 0
	for _, a := range c.actions {
		if l, ok := written[a]; ok && (line == 0 || l < line) {
			line = l
		}
	}
	msg := c.String()
	if c.actions[1] != "" {
		var whose []string
		for _, a := range c.actions {
			if l, ok := written[a]; ok {
				whose = append(whose, a+" on line "+strconv.Itoa(l))
			} else {
				whose = append(whose, a+" by default")
			}
		}
		msg += " (" + strings.Join(whose, ", ") + "): bind one of them to another key"
	}
	return &textfile.FileError{File: file, Line: line, Msg: msg}
}

func lineOfError(err error) int {
	var fe *textfile.FileError
	if errors.As(err, &fe) {
		return fe.Line
	}
	return 0
}

// lineOf is where a top-level name is written: its own line, or for a
// dotted name (a.b = …) the first line under it.
func lineOf(lines map[string]int, name string) int {
	if l, ok := lines[name]; ok {
		return l
	}
	first := 0
	for path, l := range lines {
		if strings.HasPrefix(path, name+".") && (first == 0 || l < first) {
			first = l
		}
	}
	return first
}
