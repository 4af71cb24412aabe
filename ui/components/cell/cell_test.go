package cell

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/words"
)

func TestFit(t *testing.T) {
	cases := []struct {
		s     string
		w     int
		align Align
		want  string
	}{
		{"abc", 5, Left, "abc  "},
		{"abc", 5, Right, "  abc"},
		{"abc", 6, Center, " abc  "},
		{"abcdef", 4, Left, "abc…"},
		{"abcdef", 1, Left, "…"},
		{"abc", 0, Left, ""},
		{"日本語", 4, Left, "日… "},
		{"日本語", 6, Right, "日本語"},
		{"\x1b[31mred text\x1b[0m", 4, Left, "red…"},
	}
	for _, c := range cases {
		got := Fit(c.s, c.w, c.align)
		if ansi.Strip(got) != c.want {
			t.Errorf("Fit(%q,%d) = %q, want %q", c.s, c.w, ansi.Strip(got), c.want)
		}
		if ansi.StringWidth(got) != c.w {
			t.Errorf("Fit(%q,%d) width %d", c.s, c.w, ansi.StringWidth(got))
		}
	}
	// A cut styled string is closed, so padding does not inherit its style.
	if got := Fit("\x1b[7mreverse me\x1b[0m", 5, Left); !strings.HasSuffix(got, "\x1b[0m") {
		t.Errorf("cut styled text not reset: %q", got)
	}
}

func TestBlock(t *testing.T) {
	cases := []struct {
		s    string
		w, h int
		want string
	}{
		{"ab\ncd", 3, 3, "ab \ncd \n   "},
		{"a\nb\nc\nd", 2, 2, "a \nb "},
		{"toolong\r", 4, 1, "too…"},
		{"", 2, 2, "  \n  "},
		{"x", 0, 3, ""},
		{"x", 3, 0, ""},
	}
	for _, c := range cases {
		if got := Block(c.s, c.w, c.h); got != c.want {
			t.Errorf("Block(%q,%d,%d) = %q, want %q", c.s, c.w, c.h, got, c.want)
		}
	}
}

func TestThousands(t *testing.T) {
	cases := map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 12345: "12,345", 1000000: "1,000,000",
		-1000: "-1,000", -12: "-12", math.MinInt64: "-9,223,372,036,854,775,808",
	}
	for in, want := range cases {
		if got := Thousands(in); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	cases := []struct {
		d        time.Duration
		down, up string
	}{
		{0, "0s", "0s"},
		{-5 * time.Second, "0s", "0s"},
		{400 * time.Millisecond, "0s", "1s"},
		{42 * time.Second, "42s", "42s"},
		{59*time.Second + 999*time.Millisecond, "59s", "1m00s"},
		{125 * time.Second, "2m05s", "2m05s"},
		{2*time.Hour + 3*time.Minute + 9*time.Second, "2h03m", "2h03m"},
		{50 * time.Hour, "2d02h", "2d02h"},
	}
	for _, c := range cases {
		if got := words.Duration(c.d, words.Whole); got != c.down {
			t.Errorf("words.Duration(%v, Whole) = %q, want %q", c.d, got, c.down)
		}
		if got := DurationUp(c.d); got != c.up {
			t.Errorf("DurationUp(%v) = %q, want %q", c.d, got, c.up)
		}
	}
}

// Width counts what ansi.StringWidth counts, ASCII or not.
func TestWidthIsStringWidth(t *testing.T) {
	for _, s := range []string{"", "3d8d9e1c2f4a78", "ams", "● started", "日本語", "🚀 v12→v13", "tab\there", "\x1b[31mred\x1b[0m", "del\x7f"} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}
