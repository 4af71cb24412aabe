// Package sanitize makes untrusted text inert before it enters flywake's
// model: machine names, regions, metadata, check output, log lines, exec
// output, metrics labels, API error text and project files. Every control
// character becomes a visible stand-in, so no escape sequence (CSI, OSC, DCS,
// APC, PM, SOS, a bare ESC, a C1 control) can reach the terminal, and the
// UI's own styling, added afterwards, is the only styling on screen.
//
// The mapping is per rune and needs no escape-sequence parser: a sequence
// cannot start without ESC or a C1 control, and both are replaced. The tests
// use github.com/charmbracelet/x/ansi's parser as an independent check that
// the output holds no sequence.
package sanitize

import (
	"reflect"
	"strings"
	"unicode/utf8"
)

// Line returns s as one inert line: tabs and line breaks become spaces.
func Line(s string) string { return clean(s, false) }

// Text returns s inert, keeping its newlines and only those, so line
// numbers still hold: "\r\n" becomes "\n"; tabs, a lone "\r" and the
// Unicode line and paragraph separators become spaces.
func Text(s string) string { return clean(s, true) }

// Lines applies Line to every element, in place, and returns ss.
func Lines(ss []string) []string {
	for i, s := range ss {
		ss[i] = Line(s)
	}
	return ss
}

// Escape stands for ESC (and begins the 7-bit form of a C1 control).
const Escape = "␛"

// safeASCII reports whether s is printable ASCII only: the common case,
// returned as it is without copying.
func safeASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func clean(s string, multiline bool) string {
	if safeASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next := i + size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError) // a byte that is not UTF-8 (a raw 8-bit C1 among them)
		case r == '\t':
			b.WriteByte(' ')
		case r == '\r' && next < len(s) && s[next] == '\n':
			next++
			fallthrough
		case r == '\n':
			if multiline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case r == '\r' || r == '\u2028' || r == '\u2029':
			b.WriteByte(' ')
		case r == 0x1b:
			b.WriteString(Escape)
		case r < 0x20:
			b.WriteRune(0x2400 + r) // the Unicode control pictures: ␀ ␁ … ␟
		case r == 0x7f:
			b.WriteRune('␡')
		case r >= 0x80 && r <= 0x9f:
			// A C1 control is its 7-bit ESC form: U+009B (CSI) shows as "␛[".
			b.WriteString(Escape)
			b.WriteRune(r - 0x40)
		case isBidiControl(r):
			// Bidi overrides and isolates reorder what follows them on screen,
			// so text could pose as something else; they show as their code.
			b.WriteString("<U+")
			b.WriteString(strings.ToUpper(hex4(r)))
			b.WriteString(">")
		default:
			b.WriteString(s[i:next])
		}
		i = next
	}
	return b.String()
}

// isBidiControl: the explicit directional embeddings, overrides, isolates
// and marks of Unicode's bidi algorithm (UAX #9).
func isBidiControl(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	out := []byte{digits[r>>12&0xf], digits[r>>8&0xf], digits[r>>4&0xf], digits[r&0xf]}
	return string(out)
}

// All applies Line to every exported string reachable from ptr (a pointer
// to a struct, slice or map): fields, elements, map keys and values. It
// suits records that leave the program whole (a saved wake test, a live
// event) and keeps working as fields are added. Unexported fields are left
// alone.
func All(ptr any) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	cleanValue(v.Elem(), 0)
}

func cleanValue(v reflect.Value, depth int) {
	if depth > 32 {
		return // a cycle or an absurd nesting: records are shallow
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); !safeASCII(s) {
				v.SetString(Line(s))
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cleanValue(v.Elem(), depth+1)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				cleanValue(v.Field(i), depth+1)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			cleanValue(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(it.Key())
			cleanValue(k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			cleanValue(e, depth+1)
			out.SetMapIndex(k, e)
		}
		v.Set(out)
	}
}
