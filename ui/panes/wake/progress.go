package wake

import (
	"strings"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/ui/theme"
)

// progressBar draws pr in width cells: answered-ok █, answered-failed ▓
// (a different glyph, so failures show without colour), not yet ░.
func progressBar(t *theme.Theme, pr waketest.Progress, width int) string {
	if width <= 0 {
		return ""
	}
	if pr.Planned <= 0 {
		return t.Dim.Render(strings.Repeat("░", width))
	}
	cells := func(n int) int { return min(max(n, 0), pr.Planned) * width / pr.Planned }
	ok := cells(pr.OK)
	failed := cells(pr.OK+pr.Failed) - ok
	if pr.Failed > 0 && failed == 0 && ok+failed < width {
		failed = 1 // a failure always shows
	}
	rest := max(width-ok-failed, 0)
	return t.Pass.Render(strings.Repeat("█", ok)) + t.Fail.Render(strings.Repeat("▓", failed)) +
		t.Dim.Render(strings.Repeat("░", rest))
}
