package frame

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

func TestBoxIsExactAtEverySize(t *testing.T) {
	uitest.PinColorProfile(t)
	th := theme.New(false)
	bodies := []string{"", "one line", "日本語のテキスト\n\x1b[31mred and long enough to cut\x1b[0m\nthree\nfour\nfive\nsix", strings.Repeat("x\n", 50)}
	titles := []string{"", "Machines", "A very long pane title that will not fit"}
	for w := 1; w <= 30; w++ {
		for h := 1; h <= 12; h++ {
			for _, body := range bodies {
				for _, title := range titles {
					for _, focused := range []bool{false, true} {
						uitest.AssertSize(t, Box(th, title, focused, body, w, h), w, h)
					}
				}
			}
		}
	}
	for _, size := range [][2]int{{0, 5}, {5, 0}, {-3, -3}} {
		if got := Box(th, "x", true, "y", size[0], size[1]); got != "" {
			t.Errorf("Box %v = %q, want empty", size, got)
		}
	}
}

func TestBoxContent(t *testing.T) {
	th := theme.New(true)
	cases := []struct {
		name    string
		focused bool
		w, h    int
		want    []string
	}{
		{"rounded when unfocused", false, 14, 4, []string{
			"╭─ Machines ─╮",
			"│alpha       │",
			"│beta        │",
			"╰────────────╯",
		}},
		{"thick when focused", true, 14, 3, []string{
			"┏━ Machines ━┓",
			"┃alpha       ┃",
			"┗━━━━━━━━━━━━┛",
		}},
		{"title cut", false, 10, 3, []string{
			"╭─ Mach… ╮",
			"│alpha   │",
			"╰────────╯",
		}},
		{"no room for title", false, 4, 2, []string{
			"╭──╮",
			"╰──╯",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Split(ansi.Strip(Box(th, "Machines", c.focused, "alpha\nbeta", c.w, c.h)), "\n")
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestTooSmall(t *testing.T) {
	cases := []struct{ w, h int }{{50, 12}, {80, 3}, {20, 10}, {5, 5}, {1, 1}, {59, 15}}
	for _, c := range cases {
		out := TooSmall(c.w, c.h, 60, 16)
		uitest.AssertSize(t, out, c.w, c.h)
	}
	out := TooSmall(100, 12, 60, 16)
	flat := strings.Join(strings.Fields(out), " ")
	want := "flywake needs at least 60×16 — this terminal is 100×12. Enlarge it, or press q to quit."
	if flat != want {
		t.Errorf("message %q", flat)
	}
	// Centred: the text line sits in the middle row with equal margins (±1).
	lines := strings.Split(out, "\n")
	mid := lines[len(lines)/2]
	lead := len(mid) - len(strings.TrimLeft(mid, " "))
	trail := ansi.StringWidth(mid) - ansi.StringWidth(strings.TrimRight(mid, " "))
	if d := lead - trail; d < -1 || d > 1 {
		t.Errorf("not centred: %d before, %d after", lead, trail)
	}
	// Wrapped on a narrow screen, every word survives.
	narrow := strings.Join(strings.Fields(TooSmall(30, 12, 60, 16)), " ")
	if !strings.Contains(narrow, "Enlarge it, or press q to quit.") {
		t.Errorf("narrow message lost words: %q", narrow)
	}
}

func TestStale(t *testing.T) {
	cases := []struct {
		age, retry time.Duration
		want       string
	}{
		{42 * time.Second, 8 * time.Second, "stale · 42s · retrying in 8s"},
		{42*time.Second + 900*time.Millisecond, 7200 * time.Millisecond, "stale · 42s · retrying in 8s"},
		{125 * time.Second, 0, "stale · 2m05s · retrying now"},
		{-time.Second, -time.Second, "stale · 0s · retrying now"},
		{3*time.Hour + 4*time.Minute, 30 * time.Second, "stale · 3h04m · retrying in 30s"},
	}
	for _, c := range cases {
		if got := Stale(c.age, c.retry); got != c.want {
			t.Errorf("Stale(%v, %v) = %q, want %q", c.age, c.retry, got, c.want)
		}
	}
}

func TestSparkline(t *testing.T) {
	cases := []struct {
		name   string
		values []int
		width  int
		want   string
	}{
		{"rising", []int{0, 1, 2, 3, 4, 5, 6, 7}, 8, "▁▂▃▄▅▆▇█"},
		{"scaled to peak", []int{10, 20, 40}, 3, "▃▅█"},
		{"newest kept", []int{100, 0, 1, 2}, 3, "▁▅█"},
		{"padded left", []int{5}, 4, "   █"},
		{"all zero", []int{0, 0, 0}, 3, "▁▁▁"},
		{"negative counts as zero", []int{-5, 4}, 2, "▁█"},
		{"tiny positive above floor", []int{1, 1000}, 2, "▂█"},
		{"empty", nil, 3, "   "},
		{"zero width", []int{1}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Sparkline(c.values, c.width)
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if lipgloss.Width(got) != c.width {
				t.Errorf("width %d, want %d", lipgloss.Width(got), c.width)
			}
		})
	}
}

func TestHistogram(t *testing.T) {
	buckets := []Bucket{{"<250ms", 40}, {"<1s", 10}, {"<5s", 0}, {"<30s", 1}, {"≥30s", 2000}}
	out := Histogram(buckets, 30, 5)
	uitest.AssertSize(t, out, 30, 5)
	lines := strings.Split(out, "\n")
	wants := []struct{ prefix, suffix string }{
		{"<250ms ", "    40"},
		{"   <1s ", "    10"},
		{"   <5s ", "     0"},
		{"  <30s ▏", "     1"},
		{"  ≥30s ██████████████", " 2,000"},
	}
	for i, w := range wants {
		if !strings.HasPrefix(lines[i], w.prefix) || !strings.HasSuffix(lines[i], w.suffix) {
			t.Errorf("line %d = %q, want %q…%q", i, lines[i], w.prefix, w.suffix)
		}
	}
	if strings.ContainsAny(lines[2], "█▏▎▍▌▋▊▉") {
		t.Errorf("zero bucket drew a bar: %q", lines[2])
	}

	// More buckets than lines: the last line counts the rest.
	short := strings.Split(Histogram(buckets, 30, 3), "\n")
	if !strings.HasPrefix(short[2], "… 3 more") {
		t.Errorf("overflow line %q", short[2])
	}
	for w := 1; w <= 40; w++ {
		for h := 1; h <= 7; h++ {
			uitest.AssertSize(t, Histogram(buckets, w, h), w, h)
		}
	}
	uitest.AssertSize(t, Histogram(nil, 10, 2), 10, 2)
}

func TestHeader(t *testing.T) {
	th := theme.New(true)
	left := []string{"personal/scale-to-zero", ModeBadge(th, true), "API ok"}
	right := []string{"9 calls/min", Ago(3 * time.Second)}
	cases := []struct {
		width       int
		wantLeft    string
		wantRight   string
		rightIntact bool
	}{
		{100, "personal/scale-to-zero ·  DEMO  · API ok", "9 calls/min · updated 3s ago", true},
		{50, "personal/scale-to-ze… ", "9 calls/min · updated 3s ago", true},
		{20, "9 calls/min · updat…", "", false},
	}
	for _, c := range cases {
		out := Header(th, c.width, left, right)
		uitest.AssertSize(t, out, c.width, 1)
		plain := ansi.Strip(out)
		if c.wantLeft != "" && !strings.HasPrefix(plain, c.wantLeft) {
			t.Errorf("width %d: %q does not start with %q", c.width, plain, c.wantLeft)
		}
		if !strings.HasSuffix(strings.TrimRight(plain, " "), c.wantRight) && c.rightIntact {
			t.Errorf("width %d: %q does not end with %q", c.width, plain, c.wantRight)
		}
	}
	uitest.AssertSize(t, Header(th, 30, left, nil), 30, 1)
}

func TestFooterAndHelpOverlay(t *testing.T) {
	th := theme.New(true)
	km := keys.Default()
	for _, w := range []int{1, 10, 40, 80, 160} {
		uitest.AssertSize(t, Footer(th, km, w), w, 1)
	}
	if f := ansi.Strip(Footer(th, km, 160)); !strings.Contains(f, "? help") || !strings.Contains(f, "q quit") {
		t.Errorf("footer %q", f)
	}
	// At every width a hint is shown whole or not at all: the line is the
	// first hints, whole, then "…" when some are left out.
	var whole []string
	for _, b := range km.ShortHelp() {
		whole = append(whole, b.Help().Key+" "+b.Help().Desc)
	}
	for w := 8; w <= 200; w++ {
		f := strings.TrimRight(ansi.Strip(Footer(th, km, w)), " ")
		shown := strings.TrimSuffix(strings.TrimSuffix(f, "…"), " ")
		for i, item := range strings.Split(shown, " · ") {
			if shown != "" && (i >= len(whole) || item != whole[i]) {
				t.Errorf("width %d: hint %d is %q, want %q whole: %q", w, i, item, whole[min(i, len(whole)-1)], f)
				break
			}
		}
	}
	for _, size := range [][2]int{{160, 48}, {80, 24}, {60, 16}, {30, 8}, {5, 3}, {1, 1}} {
		uitest.AssertSize(t, HelpOverlay(th, km.Groups(), size[0], size[1]), size[0], size[1])
	}
	full := ansi.Strip(HelpOverlay(th, km.Groups(), 160, 48))
	for _, want := range []string{"Keys", "wake test", "stop", "filter", "quit"} {
		if !strings.Contains(full, want) {
			t.Errorf("help overlay lacks %q", want)
		}
	}
	km.ReadOnly()
	ro := ansi.Strip(HelpOverlay(th, km.Groups(), 160, 48))
	for _, gone := range []string{"wake test", "stop", "suspend", "start"} {
		if strings.Contains(ro, gone) {
			t.Errorf("read-only help still shows %q", gone)
		}
	}
}

func TestNoColorOutputHasNoColourCodes(t *testing.T) {
	uitest.PinColorProfile(t)
	th := theme.New(true)
	km := keys.Default()
	outs := []string{
		Box(th, "Machines", true, th.State("failed").Render()+"\n"+th.State("started").Render(), 30, 5),
		Box(th, "Swap", false, "x", 30, 5),
		Header(th, 80, []string{"org/app", ModeBadge(th, true)}, []string{Ago(time.Second)}),
		Footer(th, km, 80),
		HelpOverlay(th, km.Groups(), 120, 30),
	}
	for i, out := range outs {
		for _, m := range sgrColour(out) {
			t.Errorf("output %d has colour SGR %q", i, m)
		}
	}
	if plain := ansi.Strip(outs[0]); !strings.Contains(plain, "✗ failed") || !strings.Contains(plain, "● started") {
		t.Errorf("glyph and word lost under NO_COLOR:\n%s", plain)
	}
	if !strings.Contains(outs[0], "\x1b[1") {
		t.Error("focused box lost its bold attribute under NO_COLOR")
	}
}

// A note sits in the bottom border at its right; one too long for the
// border is left out whole.
func TestBoxNote(t *testing.T) {
	th := theme.New(true)
	lines := strings.Split(ansi.Strip(BoxNote(th, "Traffic", "↓ 3 more lines", false, "a\nb\nc\nd", 30, 4)), "\n")
	if got := lines[len(lines)-1]; !strings.HasSuffix(got, " ↓ 3 more lines ─╯") || ansi.StringWidth(got) != 30 {
		t.Errorf("bottom border %q", got)
	}
	lines = strings.Split(ansi.Strip(BoxNote(th, "Traffic", "↓ 3 more lines", false, "a", 12, 3)), "\n")
	if got := lines[len(lines)-1]; strings.Contains(got, "more") || ansi.StringWidth(got) != 12 {
		t.Errorf("a note too long for a 12-cell box: %q", got)
	}
}
