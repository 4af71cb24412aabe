// Package sanitize makes untrusted text inert before it enters flywake's
// model: machine names, regions, metadata, check output, log lines, exec
// output, metrics labels, API error text and project files. Every control
// character becomes a visible stand-in, so no escape sequence (CSI, OSC, DCS,
// APC, PM, SOS, a bare ESC, a C1 control) can reach the terminal, and the
// UI's own styling, added afterwards, is the only styling on screen.
// Characters that draw nothing (zero-width spaces and joiners, bidi
// controls, tag characters) show as their code point, so text cannot pose
// as other text.
//
// The mapping is per rune and needs no escape-sequence parser: a sequence
// cannot start without ESC or a C1 control, and both are replaced. The tests
// use github.com/charmbracelet/x/ansi's parser as an independent check that
// the output holds no sequence.
//
// The same boundary removes the process's secrets (redact.go) and bounds
// one line's length (MaxLine).
package sanitize

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLine bounds what Line returns, in bytes: one field or log line from
// outside is never a screenful (a 20 MB machine name is cut, with "…").
const MaxLine = 8 << 10

// MaxField bounds what Field returns, in bytes: an id, a name, a region, a
// label (Fly's are far shorter; a machine name is at most 63 characters).
const MaxField = 256

// MaxQuote bounds a quote of someone else's text in an error: enough to
// say what went wrong, never the whole of a 50 MB error page.
const MaxQuote = 300

// Line returns s as one inert line, redacted and at most MaxLine bytes:
// tabs and line breaks become spaces.
func Line(s string) string {
	if len(s) > 4*MaxLine {
		s = s[:4*MaxLine] // cleaning never shrinks a text below half: the cut below decides
	}
	return Clip(redact(clean(s, false)), MaxLine)
}

// Text returns s inert and redacted, keeping its newlines and only those,
// so line numbers still hold: "\r\n" becomes "\n"; tabs, a lone "\r" and
// the Unicode line and paragraph separators become spaces. Its length is
// the caller's to bound (a project file is read up to a limit).
func Text(s string) string { return redact(clean(s, true)) }

// Field is Line cut to MaxField bytes: for a short value that tables and
// reports print whole (a 20 MB machine name is not a name).
func Field(s string) string { return Clip(Line(s), MaxField) }

// Quote is Line cut to MaxQuote bytes: how an error quotes the API's or a
// file's words.
func Quote(s string) string { return Clip(Line(s), MaxQuote) }

// Clip cuts s to at most max bytes on a rune boundary, ending in "…" when
// it cut.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const more = "…"
	cut := max - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut < 0 {
		cut = 0
	}
	return s[:cut] + more
}

// Lines applies Line to every element, in place, and returns ss.
func Lines(ss []string) []string {
	for i, s := range ss {
		ss[i] = Line(s)
	}
	return ss
}

// Escape stands for ESC (and begins the 7-bit form of a C1 control).
const Escape = "␛"

// safeASCII reports whether s is printable ASCII only (0x20 to 0x7e): the
// common case, returned as it is without copying. It reads eight bytes at
// a time (every name, id and log line of every listing passes here);
// safeASCIIBytes is the rule byte by byte, which a test holds it to.
func safeASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !printable8(binary.LittleEndian.Uint64([]byte(s[i : i+8]))) {
			return false
		}
	}
	return safeASCIIBytes(s[i:])
}

func safeASCIIBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// printable8 reports whether each of the eight bytes of x is in 0x20–0x7e.
// With no byte's high bit set (ASCII), b-0x20 borrows into its high bit
// exactly when b < 0x20, and b+1 carries into it exactly when b is 0x7f;
// no byte borrows from or carries into its neighbour.
func printable8(x uint64) bool {
	const (
		high  = 0x8080808080808080
		space = 0x2020202020202020
		ones  = 0x0101010101010101
	)
	if x&high != 0 {
		return false
	}
	return ((x-space)|(x+ones))&high == 0
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
		case isInvisible(r):
			// Bidi overrides reorder what follows them on screen and
			// zero-width characters hide inside a word, so text could pose
			// as something else; they show as their code.
			b.WriteString(codePoint(r))
		default:
			b.WriteString(s[i:next])
		}
		i = next
	}
	return b.String()
}

// isInvisible: characters that draw nothing yet change what text means or
// how it reads — Unicode's format characters (zero-width space, joiners,
// the bidi embeddings, overrides, isolates and marks, the byte order mark,
// tag characters) and its other default-ignorable code points (Hangul
// fillers, the variation selectors used to hide bytes after a character).
// The emoji and text presentation selectors (U+FE0E, U+FE0F) stay: they
// only choose how the character before them is drawn.
func isInvisible(r rune) bool {
	if r < 0xad || r == 0xfe0e || r == 0xfe0f {
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// codePoint is r as "<U+200B>".
func codePoint(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	if len(h) < 4 {
		h = strings.Repeat("0", 4-len(h)) + h
	}
	return "<U+" + h + ">"
}

// All applies Line to every exported string reachable from ptr (a pointer
// to a struct, slice or map): fields, elements, map keys and values. It
// suits records that leave the program whole (a saved wake test, a live
// event) and keeps working as fields are added. Unexported fields are left
// alone.
func All(ptr any) { walk(ptr, Line) }

// walk replaces every exported string reachable from ptr by f of it.
func walk(ptr any, f func(string) string) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	walkValue(v.Elem(), f, 0)
}

func walkValue(v reflect.Value, f func(string) string, depth int) {
	if depth > 32 {
		return // a cycle or an absurd nesting: records are shallow
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); f(s) != s {
				v.SetString(f(s))
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkValue(v.Elem(), f, depth+1)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				walkValue(v.Field(i), f, depth+1)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkValue(v.Index(i), f, depth+1)
		}
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		if t := v.Type(); t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.String {
			walkStrings(v, f) // metadata, env, labels: the common case, without a copy
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(it.Key())
			walkValue(k, f, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			walkValue(e, f, depth+1)
			out.SetMapIndex(k, e)
		}
		v.Set(out)
	}
}

// walkStrings applies f to a map of strings to strings in place, touching
// only the entries f changes.
func walkStrings(v reflect.Value, f func(string) string) {
	type change struct{ oldKey, key, val reflect.Value }
	var changes []change
	it := v.MapRange()
	for it.Next() {
		k, e := it.Key().String(), it.Value().String()
		nk, ne := f(k), f(e)
		if nk != k || ne != e {
			changes = append(changes, change{it.Key(), reflect.ValueOf(nk).Convert(v.Type().Key()), reflect.ValueOf(ne).Convert(v.Type().Elem())})
		}
	}
	for _, c := range changes {
		v.SetMapIndex(c.oldKey, reflect.Value{})
		v.SetMapIndex(c.key, c.val)
	}
}
