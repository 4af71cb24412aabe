package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
)

func TestCrashBannerNamesMachinesThenExplains(t *testing.T) {
	ids := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fixtureID(i)
		}
		return out
	}
	cases := []struct {
		name     string
		c        snapshot.CrashLoops
		width    int
		first    []string // the first line names these
		second   string   // the explanation starts so
		notWant  string
		maxLines int
	}{
		{"one looping", snapshot.CrashLoops{Release: "7", Looping: ids(1)}, 80,
			[]string{"release v7", fixtureID(0), "crash-looping"}, "it has crashed repeatedly", "", 2},
		{"two looping never say the machine", snapshot.CrashLoops{Release: "7", Looping: ids(2)}, 80,
			[]string{fixtureID(0), fixtureID(1)}, "each has crashed", "the machine", 2},
		{"one of each at 80", snapshot.CrashLoops{Release: "7", Looping: ids(1), GaveUp: ids(2)[1:]}, 80,
			[]string{fixtureID(0) + " crash-looping", fixtureID(1) + " gave up restarting"}, "every start since the deploy", "the machine", 2},
		{"many at 80 stand for the rest", snapshot.CrashLoops{Release: "12", Looping: ids(12)}, 80,
			[]string{fixtureID(0), "more crash-looping"}, "each has crashed", "", 2},
		{"gave up only", snapshot.CrashLoops{GaveUp: ids(3)}, 160,
			[]string{"the current release", fixtureID(2), "gave up restarting"}, "the platform gave up restarting them", "", 2},
	}
	for _, c := range cases {
		lines := bannerText(c.c, c.width)
		if len(lines) < 2 || len(lines) > c.maxLines {
			t.Fatalf("%s: %d lines %q", c.name, len(lines), lines)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > c.width-1 || strings.Contains(l, cell.Ellipsis) {
				t.Errorf("%s: line %q does not fit %d whole", c.name, l, c.width)
			}
		}
		for _, w := range c.first {
			if !strings.Contains(lines[0], w) {
				t.Errorf("%s: first line %q lacks %q", c.name, lines[0], w)
			}
		}
		if !strings.HasPrefix(lines[1], c.second) {
			t.Errorf("%s: explanation %q, want it to start %q", c.name, lines[1], c.second)
		}
		if all := strings.Join(lines, " "); c.notWant != "" && strings.Contains(all, c.notWant) {
			t.Errorf("%s: banner says %q: %q", c.name, c.notWant, all)
		}
	}
	if got := bannerText(snapshot.CrashLoops{Release: "7"}, 80); got != nil {
		t.Errorf("no crash, banner %q", got)
	}
}
