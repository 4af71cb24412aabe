package frame

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
)

// TooSmall is the calm screen shown instead of a broken layout: one
// centred, word-wrapped message filling exactly width×height.
func TooSmall(width, height, minW, minH int) string {
	msg := fmt.Sprintf("flywake needs at least %d×%d — this terminal is %d×%d. Enlarge it, or press q to quit.",
		minW, minH, width, height)
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := cell.Wrap(msg, width, 0)
	// Centre each line on its own, as prose is centred.
	for i, l := range lines {
		l = strings.TrimSpace(l)
		lines[i] = l
		lw := ansi.StringWidth(l)
		if lw < width {
			lines[i] = strings.Repeat(" ", (width-lw)/2) + l
		}
	}
	top := max((height-len(lines))/2, 0)
	return cell.Block(strings.Repeat("\n", top)+strings.Join(lines, "\n"), width, height)
}

// Stale is the notice shown over the last good data when refreshes fail:
// "stale · 42s · retrying in 8s". age is how old the data is; retryIn is
// the time to the next attempt (0 or less: "retrying now").
func Stale(age, retryIn time.Duration) string {
	retry := "retrying now"
	if retryIn > 0 {
		retry = "retrying in " + cell.DurationUp(retryIn)
	}
	return "stale · " + words.Duration(age, words.Whole) + " · " + retry
}

// Ago is "updated 3s ago" for the header.
func Ago(d time.Duration) string {
	return "updated " + words.Duration(d, words.Whole) + " ago"
}
