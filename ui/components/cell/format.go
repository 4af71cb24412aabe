package cell

import (
	"time"

	"github.com/flywake/flywake/sources/words"
)

// Thousands formats n with comma separators: 1000 → "1,000" (words.Thousands,
// under the name the panes use).
func Thousands(n int) string { return words.Thousands(n) }

// Duration formats d compactly for status lines (words.Duration): "0s",
// "42s", "3m05s", "2h03m", "3d04h".
func Duration(d time.Duration) string { return words.Duration(d) }

// DurationUp is Duration rounded up to the next whole second, for countdowns:
// 400ms left reads "1s", not "0s".
func DurationUp(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return Duration((d + time.Second - 1).Truncate(time.Second))
}
