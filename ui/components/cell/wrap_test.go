package cell

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrap(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"the edge answered 33,440 requests", 20, []string{"the edge answered", "  33,440 requests"}},
		{"  fix RUN python -m compileall", 20, []string{"  fix RUN python -m", "    compileall"}},
		{"abc def", 3, []string{"abc", "def"}}, // too narrow to indent
	}
	for _, c := range cases {
		got := Wrap(c.in, c.width, 2)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > c.width {
				t.Errorf("Wrap(%q, %d): line %q is too wide", c.in, c.width, l)
			}
		}
	}
}

func TestWrapClosesStyles(t *testing.T) {
	styled := "\x1b[1mone two three four five six\x1b[0m"
	lines := Wrap(styled, 12, 2)
	if len(lines) < 2 {
		t.Fatalf("not wrapped: %q", lines)
	}
	for _, l := range lines {
		if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, reset) {
			t.Errorf("line %q leaves its style open", l)
		}
	}
	if got := ansi.Strip(strings.Join(lines, " ")); strings.Join(strings.Fields(got), " ") != "one two three four five six" {
		t.Errorf("words lost: %q", got)
	}
}

// A word longer than the width (a digest, a URL) is split where the width
// ends and nowhere else: put back together, the lines are the line, with
// no space added inside the word.
func TestWrapKeepsLongWordsWhole(t *testing.T) {
	digest := "sha256:" + strings.Repeat("0123456789abcdef", 4)
	for _, in := range []string{
		`    "image": "registry.fly.io/sleepy-api@` + digest + `",`,
		`  "url": "https://example.com/` + strings.Repeat("segment/", 12) + `"`,
		"\x1b[7m" + digest + "\x1b[0m" + digest,
	} {
		for width := 12; width <= 60; width += 7 {
			lines := Wrap(in, width, 2)
			var joined strings.Builder
			for i, l := range lines {
				l = ansi.Strip(l)
				if i > 0 {
					l = strings.TrimLeft(l, " ")
				}
				joined.WriteString(l)
				if ansi.StringWidth(lines[i]) > width {
					t.Errorf("Wrap(%q, %d): line %q is too wide", in, width, lines[i])
				}
			}
			want := strings.Replace(ansi.Strip(in), ": ", ":", 1) // the one break at a space may fall there
			if got := joined.String(); got != ansi.Strip(in) && got != want {
				t.Errorf("Wrap(%q, %d) = %q: put together %q", in, width, lines, got)
			}
		}
	}
}

// A figure never ends one line with its unit on the next, at any width.
func TestWrapKeepsFiguresWithUnits(t *testing.T) {
	cases := []struct {
		in    string
		whole []string // each must sit on one line
		from  int      // the narrowest width tried (a longer word is split)
	}{
		{"p50 478 ms / 546 ms / 553 ms over the last hour", []string{"478 ms", "546 ms", "553 ms"}, 0},
		{"the edge answered 30,144 requests the app never saw in 24 h (19.9 %): they died", []string{"(19.9 %)", "24 h"}, 0},
		{"cause: 100.0 % of the lost requests (108 boots, p50 28.4 s; booting minutes)", []string{"28.4 s;", "100.0 %"}, 0},
		{"2048 MB swap on 10/10 machines, 23 h 30 m since 10:00", []string{"2048 MB", "23 h", "30 m"}, 0},
		{"● started · b6cfb876f1a383 · wild-wind-8057 · region ams · group app · release v42 · image 67ac8500bb8b", []string{"release v42"}, 18},
	}
	for _, c := range cases {
		for width := max(c.from, 12); width < len(c.in); width++ {
			got := Wrap(c.in, width, 2)
			for _, l := range got {
				if ansi.StringWidth(l) > width {
					t.Errorf("Wrap(%q, %d): line %q is too wide", c.in, width, l)
				}
				if strings.Contains(l, nbsp) {
					t.Errorf("Wrap(%q, %d): line %q keeps a non-breaking space", c.in, width, l)
				}
			}
			for _, w := range c.whole {
				found := false
				for _, l := range got {
					found = found || strings.Contains(l, w)
				}
				if !found {
					t.Errorf("Wrap(%q, %d) = %q: %q split across lines", c.in, width, got, w)
				}
			}
			if j := strings.Join(strings.Fields(strings.Join(got, " ")), " "); j != c.in {
				t.Errorf("Wrap(%q, %d) lost words: %q", c.in, width, j)
			}
		}
	}
	// A number before a word that only starts like a unit is not a figure.
	if got := joinFigures("3 machines, 5 hosts, 2 s"); got != "3 machines, 5 hosts, 2"+nbsp+"s" {
		t.Errorf("joinFigures = %q", got)
	}
}

// Hyphenated names stay whole: a machine's name, a term.
func TestWrapKeepsHyphenatedWordsWhole(t *testing.T) {
	in := "● started b6cfb876f1a383 · wild-wind-8057 · region ams · 5,707 site-packages files"
	for width := 16; width < len(in); width++ {
		got := Wrap(in, width, 2)
		joined := strings.Join(got, "\n")
		for _, w := range []string{"wild-wind-8057", "site-packages"} {
			if !strings.Contains(joined, w) {
				t.Errorf("Wrap(%d) = %q: %q split", width, got, w)
			}
		}
		if strings.Contains(joined, nbhyphen) {
			t.Errorf("Wrap(%d) kept a non-breaking hyphen: %q", width, got)
		}
	}
}
