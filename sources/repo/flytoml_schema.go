package repo

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/textfile"
	"github.com/flywake/flywake/sources/words"
)

// schemaWalk checks a decoded fly.toml against the raw* types: a value of
// the wrong type is an error (and is dropped from the document, so the rest
// still decodes); a key the schema does not know is a warning.
type schemaWalk struct {
	lines       map[string]int
	errs, warns []error
}

// table checks the keys of one table against struct type t. path is the
// table's dotted path with array indexes ("services.1").
func (w *schemaWalk) table(m map[string]any, t reflect.Type, path string) {
	fields := tomlFields(t)
	for _, key := range sortedKeys(m) {
		p := join(path, key)
		ft, ok := fields[key]
		if !ok {
			w.unknown(key, path, m[key], fields)
			continue
		}
		if !w.value(m[key], ft, p) {
			delete(m, key)
		}
	}
}

// value checks v against t; false when it has the wrong type.
func (w *schemaWalk) value(v any, t reflect.Type, path string) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := ""
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.String:
		if _, ok := v.(string); !ok {
			want = "a string"
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			want = "a boolean"
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if _, ok := v.(int64); !ok {
			want = "an integer"
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			want = "a table"
			break
		}
		w.table(m, t, path)
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			want = "a table"
			break
		}
		for _, k := range sortedKeys(m) {
			if !w.value(m[k], t.Elem(), join(path, k)) {
				delete(m, k)
			}
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			want = "an array of tables"
			break
		}
		for i, e := range list {
			if !w.value(e, t.Elem(), fmt.Sprintf("%s.%d", path, i)) {
				// an empty table in its place keeps the later indexes
				// matching their lines (the result is discarded anyway)
				list[i] = map[string]any{}
			}
		}
	}
	if want == "" {
		return true
	}
	w.errs = append(w.errs, &textfile.FileError{File: FlyTomlFile, Line: w.lines[path],
		Msg: fmt.Sprintf("expected %s for %s, got %s %s", want, keyName(path), words.Article(tomlType(v)), tomlType(v))})
	return false
}

// unknown warns about key in the table at path, naming the nearest known
// key; a table of its own is named as a table ("[http_servic]").
func (w *schemaWalk) unknown(key, path string, v any, fields map[string]reflect.Type) {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	near := textfile.Nearest(key, names)
	what, nearName := fmt.Sprintf("key %s", strconv.Quote(clip(key, 80))), near
	if open, close, ok := tableBrackets(v); ok {
		what, nearName = "table "+open+clip(keyName(join(path, key)), 80)+close, open+keyName(join(path, near))+close
	}
	where := " at the top level"
	switch {
	case strings.HasPrefix(what, "table"):
		where = ""
	case path != "":
		where = " in [" + keyName(path) + "]"
	}
	msg := fmt.Sprintf("unknown %s%s, ignored", what, where)
	// Key may hold any character a TOML escape can write: kept inert.
	fe := &textfile.FileError{File: FlyTomlFile, Line: w.lines[join(path, key)], Warning: true, Key: sanitize.Line(clip(keyName(join(path, key)), 200))}
	if near != "" {
		msg += fmt.Sprintf(" — did you mean %s?", nearName)
		fe.Nearest = keyName(join(path, near))
	}
	fe.Msg = msg
	w.warns = append(w.warns, fe)
}

// tableBrackets: how a table value is written as a header, [t] or [[t]].
func tableBrackets(v any) (open, close string, ok bool) {
	switch x := v.(type) {
	case map[string]any:
		return "[", "]", true
	case []any:
		if len(x) > 0 {
			if _, isTable := x[0].(map[string]any); isTable {
				return "[[", "]]", true
			}
		}
	}
	return "", "", false
}

// tomlFields maps the toml tags of struct t to their field types.
func tomlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("toml"), ","); name != "" && name != "-" {
			out[name] = f.Type
		}
	}
	return out
}

// keyName is a path as the user wrote it: without array indexes.
func keyName(path string) string {
	parts := strings.Split(path, ".")
	kept := parts[:0]
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ".")
}

// tomlType names a decoded value's TOML type.
func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "table"
	case time.Time, toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		return "datetime"
	}
	return "value"
}

// clip shortens s to n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// join is a dotted key path: prefix.part, or part at the top level.
func join(prefix, part string) string {
	if prefix == "" {
		return part
	}
	return prefix + "." + part
}
