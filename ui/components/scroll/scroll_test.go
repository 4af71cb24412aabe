package scroll

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/uitest"
)

func TestWindow(t *testing.T) {
	tests := []struct {
		name                    string
		offset, cursor, page, n int
		want                    int
	}{
		{"cursor in view stays put", 3, 5, 10, 100, 3},
		{"cursor above scrolls up to it", 8, 5, 10, 100, 5},
		{"cursor below scrolls just enough", 0, 14, 10, 100, 5},
		{"no blank rows after the last", 95, 99, 10, 100, 90},
		{"fewer rows than a page", 4, 2, 10, 5, 0},
		{"page below one counts as one", 0, 7, 0, 20, 7},
		{"negative offset", -3, 0, 10, 100, 0},
		{"no rows", 5, 0, 10, 0, 0},
	}
	for _, tt := range tests {
		if got := Window(tt.offset, tt.cursor, tt.page, tt.n); got != tt.want {
			t.Errorf("%s: Window(%d, %d, %d, %d) = %d, want %d", tt.name, tt.offset, tt.cursor, tt.page, tt.n, got, tt.want)
		}
	}
}

func TestReveal(t *testing.T) {
	tests := []struct {
		name                        string
		offset, start, end, page, n int
		want                        int
	}{
		{"item in view", 0, 2, 5, 10, 40, 0},
		{"item's end below: scroll to show all of it", 0, 8, 14, 10, 40, 4},
		{"taller than the page: its head stays", 0, 8, 30, 10, 40, 8},
		{"item above: its head on top", 20, 8, 12, 10, 40, 8},
		{"clamped at the end", 0, 36, 40, 10, 40, 30},
	}
	for _, tt := range tests {
		if got := Reveal(tt.offset, tt.start, tt.end, tt.page, tt.n); got != tt.want {
			t.Errorf("%s: Reveal(%d, %d, %d, %d, %d) = %d, want %d", tt.name, tt.offset, tt.start, tt.end, tt.page, tt.n, got, tt.want)
		}
	}
}

func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i+1)
	}
	return out
}

func firstLine(v View) string {
	return strings.TrimSpace(strings.SplitN(ansi.Strip(v.View()), "\n", 2)[0])
}

func TestViewScrollsByTheKeyMap(t *testing.T) {
	km := keys.Default()
	var v View
	v.SetLines(numbered(30))
	v.SetSize(20, 10)
	steps := []struct {
		key   string
		first string
		below int
	}{
		{"down", "line 2", 19},
		{"j", "line 3", 18},
		{"pgdown", "line 13", 8},
		{"pgdown", "line 21", 0}, // not past the last line
		{"down", "line 21", 0},
		{"up", "line 20", 1},
		{"home", "line 1", 20},
		{"up", "line 1", 20},
		{"end", "line 21", 0},
		{"pgup", "line 11", 10},
	}
	for _, s := range steps {
		if !v.HandleKey(uitest.Key(s.key), km) {
			t.Fatalf("%s: not taken", s.key)
		}
		if got := firstLine(v); got != s.first || v.Below() != s.below {
			t.Fatalf("after %s: first line %q, %d below; want %q, %d", s.key, got, v.Below(), s.first, s.below)
		}
		uitest.AssertSize(t, v.View(), 20, 10)
	}
	if v.HandleKey(uitest.Key("x"), km) {
		t.Error("x taken as a scroll key")
	}
}

func TestViewObeysARebinding(t *testing.T) {
	km := keys.Default()
	km.Down.SetKeys("ctrl+n")
	var v View
	v.SetLines(numbered(30))
	v.SetSize(20, 10)
	if v.HandleKey(uitest.Key("j"), km) || firstLine(v) != "line 1" {
		t.Fatalf("j still scrolls after down was rebound: %q", firstLine(v))
	}
	if !v.HandleKey(uitest.Key("ctrl+n"), km) || firstLine(v) != "line 2" {
		t.Fatalf("ctrl+n does not scroll down: %q", firstLine(v))
	}
}

// A shrinking content or a taller view never leaves the offset past the end.
func TestViewKeepsTheOffsetInRange(t *testing.T) {
	km := keys.Default()
	var v View
	v.SetLines(numbered(30))
	v.SetSize(20, 10)
	v.HandleKey(uitest.Key("end"), km)
	v.SetLines(numbered(12))
	if got := firstLine(v); got != "line 3" {
		t.Errorf("after the content shrank the first line is %q, want line 3", got)
	}
	v.SetSize(20, 40)
	if got := v.Offset(); got != 0 {
		t.Errorf("taller than the content: offset %d, want 0", got)
	}
	if v.Scrolls() {
		t.Error("Scrolls true with every line in view")
	}
	uitest.AssertSize(t, v.View(), 20, 40)
}

// A line wider than the view is cut with an ellipsis, and refitted when
// the width changes.
func TestViewCutsWideLinesVisibly(t *testing.T) {
	var v View
	v.SetLines([]string{"a fairly long line that does not fit", "short"})
	v.SetSize(12, 2)
	out := ansi.Strip(v.View())
	if first := strings.SplitN(out, "\n", 2)[0]; first != "a fairly lo…" {
		t.Errorf("cut line %q, want an ellipsis at 12 cells", first)
	}
	v.SetSize(40, 2)
	if first := strings.TrimSpace(strings.SplitN(ansi.Strip(v.View()), "\n", 2)[0]); first != "a fairly long line that does not fit" {
		t.Errorf("at 40 the line is %q, want it whole", first)
	}
	for _, size := range [][2]int{{0, 3}, {3, 0}} {
		v.SetSize(size[0], size[1])
		if got := v.View(); got != "" {
			t.Errorf("View at %v = %q, want empty", size, got)
		}
	}
}
