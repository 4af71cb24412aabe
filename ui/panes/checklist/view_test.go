package checklist

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// TestViewIsExactAtEverySize: every size, collapsed and all expanded,
// focused or not, scrolled to the end and back, colour or not.
func TestViewIsExactAtEverySize(t *testing.T) {
	uitest.PinColorProfile(t)
	for _, noColor := range []bool{false, true} {
		for _, f := range []fixture{demoDay, asleep} {
			p := newPane(t, theme.New(noColor), f)
			for _, sz := range uitest.Sizes {
				w, h := sz[0], sz[1]
				name := fmt.Sprintf("%dx%d/nocolor=%v/%s", w, h, noColor, f.state)
				press(p, "home")
				for i := 0; i < len(checklist.IDs); i++ {
					for _, focused := range []bool{true, false} {
						uitest.AssertSize(t, uitest.View(p, w, h, focused, t0), w, h)
					}
					p.expanded[p.Cursor()] = i%2 == 0 // every other item open
					press(p, "n")
				}
				for i := 0; i < 12; i++ {
					press(p, "pgdown")
					uitest.AssertSize(t, uitest.View(p, w, h, true, t0), w, h)
				}
				press(p, "pgup", "pgup")
				out := uitest.View(p, w, h, true, t0)
				uitest.AssertSize(t, out, w, h)
				if h >= 8 && w >= 30 {
					lines := strings.Split(plain(out), "\n")
					if !strings.Contains(lines[0], "of 8 checked") {
						t.Errorf("%s: first line %q, want the progress", name, lines[0])
					}
					if !strings.Contains(lines[h-1], "fail") {
						t.Errorf("%s: last line %q, want the summary", name, lines[h-1])
					}
				}
			}
		}
	}
}

// TestLongEvidenceWrapsAndScrolls: wrapped lines stay inside the pane,
// pgdn/pgup scroll an expanded item taller than the pane, and moving on
// brings the cursor back into view.
func TestLongEvidenceWrapsAndScrolls(t *testing.T) {
	const w, h = 40, 12
	p := newPane(t, theme.New(true), demoDay)
	press(p, "n", "n", "enter") // bytecode: long facts and a long fix
	first := plain(uitest.View(p, w, h, true, t0))
	if !strings.Contains(first, "›▾ 3") {
		t.Fatalf("the open item's head is not in view:\n%s", first)
	}
	press(p, "pgdown")
	second := plain(uitest.View(p, w, h, true, t0))
	if second == first {
		t.Fatal("pgdown did not scroll")
	}
	if strings.Contains(second, "›▾ 3") {
		t.Errorf("pgdown kept the head in view; the page did not move far enough:\n%s", second)
	}
	press(p, "pgup")
	if got := plain(uitest.View(p, w, h, true, t0)); got != first {
		t.Errorf("pgup did not come back:\n%s\nwant:\n%s", got, first)
	}
	press(p, "pgdown", "pgdown", "n")
	if got := plain(uitest.View(p, w, h, true, t0)); !strings.Contains(got, "›▸ 4") {
		t.Errorf("after n the cursor's item is off screen:\n%s", got)
	}
}

// TestWrapping: text wraps at spaces only, hyphenated flags stay whole,
// words wider than the pane are cut hard, and outside text cannot carry
// escape sequences or control characters onto the screen.
func TestWrapping(t *testing.T) {
	long := strings.Repeat("x", 95)
	cases := []struct {
		name, text string
		width      int
		want       []string
	}{
		{"fits", "granian --workers-max-rss", 30, []string{"granian --workers-max-rss"}},
		{"breaks at the space, not the hyphen", "use granian --workers-max-rss", 20, []string{"use granian", "--workers-max-rss"}},
		{"a word wider than the line", "a " + long, 40, []string{"a", long[:40], long[40:80], long[80:]}},
		{"empty", "", 10, []string{""}},
		{"newlines and tabs are spaces", clean("one\ttwo\nthree"), 40, []string{"one two three"}},
		{"escapes and bells are dropped", clean("RUN rm\x1b[2J -rf\x07 /"), 40, []string{"RUN rm -rf /"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapWords(tc.text, tc.width)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("wrapWords(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
			}
			for _, l := range got {
				if ansi.StringWidth(l) > tc.width {
					t.Errorf("line %q wider than %d", l, tc.width)
				}
			}
		})
	}
}

// TestHostileEvidence: a fact quoting a file with escape sequences is
// drawn without them, inside the pane.
func TestHostileEvidence(t *testing.T) {
	km := keys.Default()
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, nil, nil, checklist.Options{})
	p.items = []checklist.Item{{
		ID: "x", Title: "Title\x1b[31m red", Status: checklist.Fail,
		Evidence: []checklist.Fact{{Text: "CMD evil\x1b[2J\x1b]0;owned\x07 " + strings.Repeat("y", 120), Source: "Dockerfile:\x1b[1A9"}},
		Fix:      "fix\x1b[H it",
	}}
	p.cursorID = "x"
	press(p, "enter")
	for _, sz := range uitest.Sizes {
		out := uitest.View(p, sz[0], sz[1], true, t0)
		uitest.AssertSize(t, out, sz[0], sz[1])
		for _, bad := range []string{"\x1b[2J", "\x1b]0;", "\x07", "\x1b[1A", "\x1b[H", "\x1b[31m"} {
			if strings.Contains(out, bad) {
				t.Fatalf("%v: %q reached the screen", sz, bad)
			}
		}
	}
	if v := flat(uitest.View(p, 100, 20, true, t0)); !strings.Contains(v, "Dockerfile:9") || !strings.Contains(v, "CMD evil") {
		t.Errorf("cleaned text missing:\n%s", v)
	}
}

func TestNeverCaptures(t *testing.T) {
	for _, f := range []fixture{demoDay, asleep} {
		p := newPane(t, theme.New(true), f)
		press(p, "n", "enter")
		if p.Capturing() {
			t.Errorf("%s: Capturing, want false", f.state)
		}
		if cmd := p.Update(uitest.Key("n")); cmd != nil {
			t.Error("Update returned a command; the pane does no I/O")
		}
	}
}

// A walkthrough taller than the view says how much is below, and scrolling
// to the end leaves nothing below.
func TestBelowCountsTheLinesPastTheView(t *testing.T) {
	p := newPane(t, theme.New(true), demoDay)
	p.SetSize(78, 12)
	p.Update(uitest.Key("enter"))
	n, scrolls := p.Below()
	if n <= 0 || !scrolls {
		t.Fatalf("an expanded item at 12 lines: %d below (scrolls %v)", n, scrolls)
	}
	for range 20 {
		p.Update(uitest.Key("pgdown"))
	}
	if n, _ := p.Below(); n != 0 {
		t.Errorf("at the end, %d lines still below", n)
	}
}
