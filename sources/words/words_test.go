package words

import (
	"math"
	"testing"
	"time"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 5707: "5,707", 1234567: "1,234,567",
		-1: "-1", -1000: "-1,000", -123456: "-123,456",
		math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 machines"}, {1, "1 machine"}, {2, "2 machines"}, {5707, "5,707 machines"}} {
		if got := Count(tc.n, "machine", "machines"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct{ from, to, want string }{
		{"", "42", "v42"}, {"42", "42", "v42"}, {"42", "43", "v42→v43"}, {"", "", Missing}, {"42", "", "v42→" + Missing},
	} {
		if got := Moved(tc.from, tc.to); got != tc.want {
			t.Errorf("Moved(%q, %q) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
	if OrMissing("") != Missing || OrMissing("x") != "x" {
		t.Error("OrMissing")
	}
}

func TestDuration(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		d    time.Duration
		p    Precision
		want string
	}{
		{-time.Second, Whole, "0s"}, {0, Whole, "0s"}, {999 * ms, Whole, "0s"}, {42 * time.Second, Whole, "42s"},
		{3*time.Minute + 5*time.Second, Whole, "3m05s"}, {2*time.Hour + 3*time.Minute + 59*time.Second, Whole, "2h03m"},
		{24*time.Hour + 12*time.Minute + time.Second, Whole, "1d00h"}, {76 * time.Hour, Whole, "3d04h"},
		{59*time.Second + 999*ms, Whole, "59s"}, // an age rounds down

		{-time.Second, Tenths, "0ms"}, {0, Tenths, "0ms"}, {284 * ms, Tenths, "284ms"}, {999*ms + 999*time.Microsecond, Tenths, "999ms"},
		{time.Second, Tenths, "1.0s"}, {28*time.Second + 449*ms, Tenths, "28.4s"}, {28*time.Second + 450*ms, Tenths, "28.5s"}, {30*time.Second + 40*ms, Tenths, "30.0s"},
		{59*time.Second + 940*ms, Tenths, "59.9s"}, {59*time.Second + 950*ms, Tenths, "1m00s"}, // never "60.0s"
		{128 * time.Second, Tenths, "2m08s"}, {2*time.Minute + 7*time.Second + 600*ms, Tenths, "2m08s"}, // to the nearest second
		{2*time.Hour + 3*time.Minute, Tenths, "2h03m"},
	}
	for _, c := range cases {
		if got := Duration(c.d, c.p); got != c.want {
			t.Errorf("Duration(%v, %d) = %q, want %q", c.d, c.p, got, c.want)
		}
	}
}

func TestClockSaysTheDateWhenNotToday(t *testing.T) {
	now := time.Date(2026, 11, 30, 7, 44, 0, 0, time.UTC)
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{now.Add(-time.Hour), "06:44:00"},
		{time.Date(2026, 11, 29, 21, 39, 21, 0, time.UTC), "Nov 29 21:39:21"},
		{time.Date(2025, 11, 30, 7, 0, 0, 0, time.UTC), "2025-11-30 07:00:00"},
		{time.Date(2026, 11, 30, 2, 0, 0, 0, time.FixedZone("x", -8*3600)), "10:00:00"}, // the same UTC day
		{time.Time{}, Missing},
	} {
		if got := Clock(c.t, now); got != c.want {
			t.Errorf("Clock(%v) = %q, want %q", c.t, got, c.want)
		}
	}
}

func TestAnd(t *testing.T) {
	for want, ws := range map[string][]string{"": nil, "a": {"a"}, "a and b": {"a", "b"}, "a, b and c": {"a", "b", "c"}} {
		if got := And(ws); got != want {
			t.Errorf("And(%q) = %q, want %q", ws, got, want)
		}
	}
}

func TestArticle(t *testing.T) {
	for word, want := range map[string]string{"integer": "an", "string": "a", "array": "an", "": "a"} {
		if got := Article(word); got != want {
			t.Errorf("Article(%q) = %q, want %q", word, got, want)
		}
	}
}
