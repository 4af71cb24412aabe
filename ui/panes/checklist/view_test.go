package checklist

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/repo"
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
// words wider than the pane are cut hard.
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

// TestHostileEvidence: a project file quoted as evidence with escape
// sequences in it is drawn inert, inside the pane: the text is made so
// where the file is read (sources/repo), and nothing in the pane undoes it.
func TestHostileEvidence(t *testing.T) {
	demo, ok := repo.DemoProject("scale-to-zero")
	if !ok {
		t.Fatal("no scale-to-zero demo project")
	}
	fsys := fstest.MapFS{}
	if err := fs.WalkDir(demo, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(demo, path)
		fsys[path] = &fstest.MapFile{Data: b, Mode: 0o755}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	const hostile = "\x1b[2J\x1b]0;owned\x07\x1b[1A\x1b[H"
	ep := string(fsys["entrypoint.sh"].Data)
	fsys["entrypoint.sh"].Data = []byte(strings.Replace(ep, "migrate --noinput\n", "migrate --noinput "+hostile+"\n", 1))
	proj, errs := repo.LoadFS(fsys)
	km := keys.Default()
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, proj, errs, checklist.Options{})
	p.SetData(demoDay.app(), t0)
	for range p.items {
		press(p, "enter", "down")
	}
	shown := false
	for _, sz := range append(uitest.Sizes, [2]int{200, 400}) {
		out := uitest.View(p, sz[0], sz[1], true, t0)
		uitest.AssertSize(t, out, sz[0], sz[1])
		if bad := sgr.ReplaceAllString(out, ""); strings.Contains(bad, "\x1b") || strings.Contains(bad, "\x07") {
			t.Fatalf("%v: a control sequence reached the screen:\n%q", sz, bad)
		}
		shown = shown || strings.Contains(flat(out), "migrate --noinput ␛[2J␛]0;owned␇")
	}
	if !shown {
		t.Errorf("the quoted line is not shown, inert, at any size:\n%s", flat(uitest.View(p, 200, 400, true, t0)))
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
