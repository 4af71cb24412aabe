package cell

import (
	"strconv"
	"time"
)

// Thousands formats n with comma separators: 1000 → "1,000".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	if len(s) <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	out = append(out, s[:head]...)
	for i := head; i < len(s); i += 3 {
		out = append(out, ',')
		out = append(out, s[i:i+3]...)
	}
	return string(out)
}

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
