package words

import (
	"math"
	"testing"
	"time"
)

// A platform time is a date only within the years RFC 3339 can write; the
// ends of int64 milliseconds, and no time at all, are unknown.
func TestDatable(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		t    time.Time
		want bool
		show string // Clock(t, now)
	}{
		{now.Add(-time.Minute), true, "11:59:00"},
		{time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), true, "9999-12-31 23:59:59"},
		{time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC), true, "0001-01-01 00:00:01"},
		{time.Time{}, false, Missing},
		{time.UnixMilli(math.MaxInt64), false, Missing},
		{time.UnixMilli(math.MinInt64), false, Missing},
		{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), false, Missing},
		{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond), true, "9999-12-31 23:59:59"},
		{time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), true, "0001-01-01 00:00:00"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond), false, Missing},
		{time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("", -3600)), false, Missing}, // 10000-01-01 in UTC
	} {
		if got := Datable(tc.t); got != tc.want {
			t.Errorf("Datable(%v) = %v, want %v", tc.t, got, tc.want)
		}
		if got := Clock(tc.t, now); got != tc.show {
			t.Errorf("Clock(%v) = %q, want %q", tc.t, got, tc.show)
		}
	}
}
