package replay

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseAt reads an instant of a recording that spans from..to, as --at
// and --export take it (times are UTC):
//
//	2026-03-01T03:12:00Z   RFC 3339
//	2026-03-01 03:12       a date and a time of day (seconds optional)
//	03:12                  a time of day: its last occurrence in the recording
//	-2h30m                 that long before the recording's end
//	start, end             the recording's first and last instant
//
// An instant outside from..to is refused, saying what the span is.
func ParseAt(s string, from, to time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	span := fmt.Sprintf("the recording runs from %s to %s", stamp(from), stamp(to))
	var t time.Time
	switch {
	case s == "" || s == "end":
		return to, nil
	case s == "start":
		return from, nil
	case strings.HasPrefix(s, "-"):
		d, err := ParseDuration(s[1:])
		if err != nil {
			return time.Time{}, fmt.Errorf("%q: %v", s, err)
		}
		t = to.Add(-d)
	default:
		var ok bool
		if t, ok = parseClock(s, to); !ok {
			return time.Time{}, fmt.Errorf("%q is not a time: write 2026-03-01T03:12:00Z, 2026-03-01 03:12, 03:12 or -2h (%s)", s, span)
		}
	}
	if t.Before(from) || t.After(to) {
		return time.Time{}, fmt.Errorf("%s is outside the recording: %s", stamp(t), span)
	}
	return t, nil
}

func parseClock(s string, to time.Time) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC(), true
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		c, err := time.ParseInLocation(layout, s, time.UTC)
		if err != nil {
			continue
		}
		end := to.UTC()
		t := time.Date(end.Year(), end.Month(), end.Day(), c.Hour(), c.Minute(), c.Second(), 0, time.UTC)
		if t.After(end) {
			t = t.AddDate(0, 0, -1)
		}
		return t, true
	}
	return time.Time{}, false
}

// ParseRange reads FROM..TO (each as ParseAt takes it).
func ParseRange(s string, from, to time.Time) (time.Time, time.Time, error) {
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		return time.Time{}, time.Time{}, fmt.Errorf("%q is not a range: write FROM..TO, such as 03:00..04:30 or -2h..end", s)
	}
	f, err := ParseAt(a, from, to)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	t, err := ParseAt(b, from, to)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if !t.After(f) {
		return time.Time{}, time.Time{}, fmt.Errorf("%q ends before it begins", s)
	}
	return f, t, nil
}

// ParseDuration is time.ParseDuration with days ("14d", "1d12h").
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var days time.Duration
	if i := strings.Index(s, "d"); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a duration: write 14d, 36h or 90m", s)
		}
		days, s = time.Duration(n)*24*time.Hour, s[i+1:]
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration: write 14d, 36h or 90m", s)
	}
	return days + d, nil
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
