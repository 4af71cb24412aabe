package machines

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/uitest"
)

var linesOf = regexp.MustCompile(`lines (\d+)–(\d+) of (\d+)`)

// The drill-down scrolls with the navigation keys and says where it is.
func TestDetailScrolls(t *testing.T) {
	const w, h = 100, 8
	p := newPane()
	p.SetSize(w, h)
	p.SetData(appOf(machine("a", "started")), t0)
	p.Update(uitest.Key("enter"))
	if !p.InDetail() {
		t.Fatal("enter did not open the detail")
	}
	position := func() string {
		out := uitest.View(p, w, h, true, t0)
		uitest.AssertSize(t, out, w, h)
		lines := strings.Split(ansi.Strip(out), "\n")
		m := linesOf.FindStringSubmatch(lines[len(lines)-1])
		if m == nil {
			t.Fatalf("no position on the last line %q", lines[len(lines)-1])
		}
		return m[1] + "–" + m[2] + " of " + m[3]
	}
	first := position()
	n := strings.SplitN(first, " of ", 2)[1]
	if first != "1–6 of "+n {
		t.Fatalf("opened at %s, want 1–6 of %s", first, n)
	}
	steps := []struct{ key, want string }{
		{"down", "2–7"},
		{"pgdown", "8–13"},
		{"up", "7–12"},
		{"home", "1–6"},
		{"up", "1–6"},
	}
	for _, s := range steps {
		p.Update(uitest.Key(s.key))
		if got := position(); got != s.want+" of "+n {
			t.Errorf("after %s: lines %s, want %s of %s", s.key, got, s.want, n)
		}
	}
	p.Update(uitest.Key("end"))
	if got := position(); !strings.HasSuffix(strings.SplitN(got, " of ", 2)[0], "–"+n) {
		t.Errorf("after end: lines %s, want the last line %s shown", got, n)
	}
}
