package words

import (
	"strconv"
	"time"
)

// Precision says how finely Duration spells a duration.
type Precision int

const (
	// Whole is whole seconds, rounded down: an age, an interval, a
	// countdown. "0s", "42s", "3m05s", "2h03m", "3d04h".
	Whole Precision = iota
	// Tenths is a measured time, or a limit one is held to (a boot, a
	// wake, a phase, a timeout): milliseconds under a second, tenths of a
	// second under a minute (the tenth always shown, so a live timer keeps
	// its width), then as Whole, to the nearest second. "284ms", "28.4s",
	// "30.0s", "2m08s".
	Tenths
)

// Duration is how every pane, report and command spells a duration, at
// precision p; negative durations read as zero. One p95 reads the same on
// every surface.
func Duration(d time.Duration, p Precision) string {
	d = max(d, 0)
	if p == Tenths {
		if d < time.Second {
			return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
		}
		if r := d.Round(100 * time.Millisecond); r < time.Minute {
			return strconv.FormatFloat(r.Seconds(), 'f', 1, 64) + "s"
		}
		d = d.Round(time.Second)
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

func two(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// Datable reports whether t is a time flywake writes as a date: set, and
// within the years an RFC 3339 timestamp holds (0001 to 9999). Platform
// event times are int64 milliseconds, which reach the year 292,278,994 and
// as far before 1970: such a time is as unknown as a missing one, never a
// date (encoding/json cannot even write it).
func Datable(t time.Time) bool {
	if t.IsZero() {
		return false
	}
	// By its seconds, not its year: a listing asks this of every event
	// of every machine, and working out a year is dearer.
	s := t.Unix()
	return s >= firstDatable && s < pastDatable
}

// The seconds of the first instant of year 1 and of year 10000, UTC.
var (
	firstDatable = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	pastDatable  = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// Clock is t's time of day in UTC ("21:39:21") when it falls on now's UTC
// day, and with its date otherwise ("Nov 29 21:39:21"; "2025-11-29 21:39:21"
// in another year), so a time from yesterday never reads as today's.
func Clock(t, now time.Time) string {
	t, now = t.UTC(), now.UTC()
	switch {
	case !Datable(t):
		return Missing
	case t.YearDay() == now.YearDay() && t.Year() == now.Year():
		return t.Format("15:04:05")
	case t.Year() == now.Year():
		return t.Format("Jan 02 15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}
