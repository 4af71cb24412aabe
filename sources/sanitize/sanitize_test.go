package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestLine(t *testing.T) {
	cases := map[string]string{
		"plain text":                           "plain text",
		"":                                     "",
		"a\nb\tc\rd\r\ne":                      "a b c d e",
		"\x1b]0;pwned\x07":                     "␛]0;pwned␇",
		"\x1b]52;c;aGVsbG8=\x1b\\":             "␛]52;c;aGVsbG8=␛\\",
		"\x1b[31mred\x1b[0m":                   "␛[31mred␛[0m",
		"\x1bPq#0;2;0;0;0\x1b\\":               "␛Pq#0;2;0;0;0␛\\",
		"\x1b_apc\x1b\\ \x1b^pm\x1b\\":         "␛_apc␛\\ ␛^pm␛\\",
		"bare \x1b here":                       "bare ␛ here",
		"nul\x00 bel\x07 bs\x08 del\x7f":       "nul␀ bel␇ bs␈ del␡",
		"c1 csi \u009b31m osc \u009d0;x\u009c": "c1 csi ␛[31m osc ␛]0;x␛\\",
		"raw 8-bit \x9b31m":                    "raw 8-bit \ufffd31m",
		"bidi \u202egnp.exe\u202c":             "bidi <U+202E>gnp.exe<U+202C>",
		"isolate \u2067x\u2069":                "isolate <U+2067>x<U+2069>",
		"日本語 ✓ ● é":                            "日本語 ✓ ● é",
		"line\u2028sep":                        "line sep",
		"zero\u200bwidth\u200c\u200d\u2060":    "zero<U+200B>width<U+200C><U+200D><U+2060>",
		"\ufeffbom soft\u00adhyphen":           "<U+FEFF>bom soft<U+00AD>hyphen",
		"tag \U000e0041\U000e007f":             "tag <U+E0041><U+E007F>",
		"filler \u3164 vs \U000e0100":          "filler <U+3164> vs <U+E0100>",
		"emoji ❤\ufe0f":                        "emoji ❤\ufe0f",
	}
	for in, want := range cases {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

// A line from outside is bounded: a 20 MB machine name is cut at MaxLine
// bytes on a rune boundary, and says so.
func TestLineIsBounded(t *testing.T) {
	long := strings.Repeat("é", 10<<20) // 20 MB
	got := Line(long)
	if len(got) > MaxLine || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Fatalf("Line of 20 MB: %d bytes, ends %q", len(got), got[max(len(got)-8, 0):])
	}
	if Line(got) != got {
		t.Error("a cut line changes when cleaned again")
	}
	if q := Quote(strings.Repeat("x", 1<<20)); len(q) > MaxQuote {
		t.Errorf("Quote: %d bytes", len(q))
	}
	for _, tt := range []struct {
		s    string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefg…"},
		{"ééééé", 8, "éé…"},
		{"abc", 2, "…"},
	} {
		if got := Clip(tt.s, tt.max); got != tt.want || len(got) > max(tt.max, len("…")) {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	cases := map[string]string{
		"a\nb":              "a\nb",
		"a\r\nb\rc\u2028d":  "a\nb c d",
		"tab\there":         "tab here",
		"\x1b]0;t\x07\nok":  "␛]0;t␇\nok",
		"evil\x1b[2J\x1b[H": "evil␛[2J␛[H",
	}
	for in, want := range cases {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlainASCIIIsNotCopied(t *testing.T) {
	s := strings.Repeat("GET /health 200 ", 64)
	if got := Line(s); got != s {
		t.Fatalf("Line changed printable ASCII: %q", got)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Line(s) }); n != 0 {
		t.Errorf("Line allocates %v times on printable ASCII", n)
	}
}

func TestLines(t *testing.T) {
	got := Lines([]string{"ok", "\x1b[1mbold"})
	if got[0] != "ok" || got[1] != "␛[1mbold" {
		t.Errorf("Lines = %q", got)
	}
}

// inert is the property every output holds: valid UTF-8, no ESC, no C0
// control but tab (and, for Text, newline), no DEL, no C1 control, no bidi
// control; and x/ansi's own parser finds no escape sequence in it.
func inert(t *testing.T, in, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%q → %q: not UTF-8", in, out)
	}
	for _, r := range out {
		switch {
		case r == '\t':
		case r == '\n' && multiline:
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			t.Fatalf("%q → %q: control %U left", in, out, r)
		case isInvisible(r):
			t.Fatalf("%q → %q: invisible %U left", in, out, r)
		}
	}
	var state byte
	p := ansi.NewParser()
	for rest := out; len(rest) > 0; {
		seq, width, n, next := ansi.DecodeSequence(rest, state, p)
		if width == 0 && n > 0 && (seq[0] < 0x20 || seq[0] == 0x7f) && seq[0] != '\n' {
			t.Fatalf("%q → %q: x/ansi decodes the sequence %q", in, out, seq)
		}
		state, rest = next, rest[n:]
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{
		"plain", "\x1b]0;title\x07", "\x1b]52;c;Y2xpcA==\x1b\\", "\x1b[31;1mx\x1b[0m", "\x1bP+q\x1b\\",
		"\x1b_G\x1b\\", "\u009b2J", "\x9b\x9d", "a\r\nb\tc", "\u202e\u2066", "\xff\xfe\x00", "日本\x1b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, text := Line(s), Text(s)
		inert(t, s, line, false)
		inert(t, s, text, true)
		if strings.ContainsRune(line, '\n') {
			t.Fatalf("Line(%q) = %q keeps a line break", s, line)
		}
		if Line(line) != line || Text(text) != text {
			t.Fatalf("not idempotent on %q: %q, %q", s, line, text)
		}
		if strings.Count(text, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Text(%q) = %q changes the number of lines", s, text)
		}
		if safeASCII(s) && (line != s || text != s) {
			t.Fatalf("printable ASCII %q changed", s)
		}
	})
}

func TestAll(t *testing.T) {
	type inner struct{ Text string }
	type record struct {
		Name   string
		List   []string
		ByName map[string]int
		Ptr    *inner
		Any    any
		Items  []inner
		secret string
	}
	r := &record{
		Name: "a\x1b]0;x\x07", List: []string{"\x1b[2J"}, ByName: map[string]int{"\u009b1m": 1},
		Ptr: &inner{"\x1b]52;c;x\x07"}, Any: &inner{"\x07"}, Items: []inner{{"\x1bP"}}, secret: "\x1b",
	}
	All(r)
	if r.Name != "a␛]0;x␇" || r.List[0] != "␛[2J" || r.ByName["␛[1m"] != 1 || r.Ptr.Text != "␛]52;c;x␇" ||
		r.Any.(*inner).Text != "␇" || r.Items[0].Text != "␛P" {
		t.Errorf("All left %+v", r)
	}
	if r.secret != "\x1b" {
		t.Error("All touched an unexported field")
	}
	All(nil)
	All(record{}) // not a pointer: nothing to do, no panic
}

// safeASCII's eight bytes at a time say what the byte-by-byte rule says,
// for every byte at every place of a word, and for any string.
func TestSafeASCIIReadsWordsAsBytes(t *testing.T) {
	for b := 0; b < 256; b++ {
		for at := 0; at < 11; at++ {
			s := []byte("abcdefghijk")
			s[at] = byte(b)
			if got, want := safeASCII(string(s)), safeASCIIBytes(string(s)); got != want {
				t.Errorf("byte %#x at %d of %q: %v, byte by byte %v", b, at, s, got, want)
			}
		}
	}
}

func FuzzSafeASCII(f *testing.F) {
	for _, s := range []string{"", "plain ascii text", "tab\there", "del\x7f", "é", "\x1f", "~~~~~~~~ ", "\x1b[2J"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := safeASCII(s), safeASCIIBytes(s); got != want {
			t.Fatalf("safeASCII(%q) = %v, byte by byte %v", s, got, want)
		}
	})
}
