package cell

import (
	"strconv"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// Thousands formats n with comma separators: 1000 → "1,000" (words.Thousands,
// under the name the panes use).
func Thousands(n int) string { return words.Thousands(n) }

// Duration formats d compactly for status lines, rounded down to a whole
// second: "0s", "42s", "3m05s", "2h03m", "3d04h". Negative durations read "0s".
func Duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return strconv.FormatInt(s/60, 10) + "m" + two(s%60) + "s"
	case s < 86400:
		return strconv.FormatInt(s/3600, 10) + "h" + two(s/60%60) + "m"
	default:
		return strconv.FormatInt(s/86400, 10) + "d" + two(s/3600%24) + "h"
	}
}

// DurationUp is Duration rounded up to the next whole second, for countdowns:
// 400ms left reads "1s", not "0s".
func DurationUp(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return Duration((d + time.Second - 1).Truncate(time.Second))
}

func two(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}
