package frame

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// Every key and every group title shows whole at 80×24 and 70×20 (the
// body the root gives help: the screen less the header and the footer),
// read-only or not.
func TestHelpShowsEveryKeyAtSmallScreens(t *testing.T) {
	th := theme.New(true)
	for _, ro := range []bool{false, true} {
		km := keys.Default()
		if ro {
			km.ReadOnly()
		}
		for _, size := range [][2]int{{80, 22}, {70, 18}} {
			out := HelpOverlay(th, km.Groups(), size[0], size[1])
			uitest.AssertSize(t, out, size[0], size[1])
			plain := ansi.Strip(out)
			if strings.Contains(plain, "…") {
				t.Errorf("read-only %v, %dx%d: something is cut:\n%s", ro, size[0], size[1], plain)
			}
			for _, g := range km.Groups() {
				if !strings.Contains(plain, g.Title) {
					t.Errorf("read-only %v, %dx%d: group %q missing:\n%s", ro, size[0], size[1], g.Title, plain)
				}
				for _, b := range g.Bindings {
					if !strings.Contains(plain, b.Help().Desc) {
						t.Errorf("read-only %v, %dx%d: %q (%s) missing:\n%s", ro, size[0], size[1], b.Help().Desc, b.Help().Key, plain)
					}
				}
			}
		}
	}
}
