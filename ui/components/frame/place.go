package frame

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/flywake/flywake/ui/components/cell"
)

// Center places block in the middle of a width×height area. The result is
// exactly width×height; a larger block is cut.
func Center(block string, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := strings.Split(block, "\n")
	bw := 0
	for _, l := range lines {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw, width)
	top := max((height-len(lines))/2, 0)
	left := (width - bw) / 2
	pad := strings.Repeat(" ", left)

	out := make([]string, 0, height)
	for i := 0; i < top; i++ {
		out = append(out, "")
	}
	for _, l := range lines {
		if len(out) == height {
			break
		}
		out = append(out, pad+cell.Fit(l, bw, cell.Left))
	}
	return cell.Block(strings.Join(out, "\n"), width, height)
}
