package replay

import (
	"strings"
	"testing"
	"time"
)

func TestParseAt(t *testing.T) {
	from := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	to := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		err  string
	}{
		{"", to, ""},
		{"end", to, ""},
		{"start", from, ""},
		{"2026-03-01T12:00:00Z", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), ""},
		{"2026-03-01 12:05", time.Date(2026, 3, 1, 12, 5, 0, 0, time.UTC), ""},
		{"03:12", time.Date(2026, 3, 2, 3, 12, 0, 0, time.UTC), ""},
		{"23:00:30", time.Date(2026, 3, 1, 23, 0, 30, 0, time.UTC), ""}, // later than the end's time of day: the day before
		{"-2h30m", to.Add(-150 * time.Minute), ""},
		{"-1d", time.Time{}, "outside the recording"},
		{"09:45", time.Time{}, "outside the recording"}, // 09:45 on the 1st is before the start
		{"yesterday", time.Time{}, "is not a time"},
		{"-x", time.Time{}, "not a duration"},
	} {
		got, err := ParseAt(c.in, from, to)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseAt(%q) = %v, %v; want an error saying %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || !got.Equal(c.want)):
			t.Errorf("ParseAt(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if _, _, err := ParseRange("04:00..03:00", from, to); err == nil {
		t.Error("a range that ends before it begins was taken")
	}
	if f, l, err := ParseRange("-2h..end", from, to); err != nil || !f.Equal(to.Add(-2*time.Hour)) || !l.Equal(to) {
		t.Errorf("ParseRange(-2h..end) = %v %v %v", f, l, err)
	}
	for in, want := range map[string]time.Duration{"14d": 14 * 24 * time.Hour, "1d12h": 36 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v", in, got, err)
		}
	}
}
