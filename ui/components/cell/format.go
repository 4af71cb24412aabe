package cell

import (
	"time"

	"github.com/flywake/flywake/sources/words"
)

// Thousands formats n with comma separators: 1000 → "1,000" (words.Thousands,
// under the name the panes use).
func Thousands(n int) string { return words.Thousands(n) }

// DurationUp is a countdown, words.Duration rounded up to the next whole
// second: 400ms left reads "1s", not "0s".
func DurationUp(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return words.Duration((d + time.Second - 1).Truncate(time.Second), words.Whole)
}
