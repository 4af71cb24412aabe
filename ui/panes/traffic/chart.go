package traffic

import (
	"fmt"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/theme"
)

// The hourly chart: one column group per clock hour of the 24 h the
// sentences speak of (25 of them, the oldest cut where the 24 h begin), the
// newest on the right, every row on the same time axis. When every hour
// fits, each row's total for the 24 h stands beside it: the counters' own
// figures, the same as the sentences'; narrower, the oldest hours go and the
// legend says since when the chart runs.
//
//	UTC   09 10 11 12 13 …        totals over 24 h
//	2xx   ▁▁ ▃▃ ▁▁ ▃▃ ▃▃          edge 9,000 · app 9,000
//	5xx         █  ▅              edge 600 · app 0
//	lost        ▃  █              600 lost
//	boots  ·  9     12            21 cold boots
//	noise          S
//
// A class row pairs two bars per hour — the edge's, then the app's — on one
// scale, so an hour where the app answered less shows as a left bar without
// its right twin. frame.Sparkline scales each series to its own peak, which
// would hide exactly that, hence the bars here.

// hourCells is the width of one hour: the edge bar, the app bar, a gap.
const hourCells = 3

// totalsCells is room for "edge 999,999 · app 999,999" beside a row.
const totalsCells = 28

// bootCount is a 2-cell count: "·" for none, "++" for 100 or more.
func bootCount(n int) string {
	switch {
	case n <= 0:
		return "·"
	case n >= 100:
		return "++"
	}
	return fmt.Sprint(n)
}

// labelCells is the row label's width ("boots ").
const labelCells = 6

var bars = []rune(" ▁▂▃▄▅▆▇█")

// bar is v on a scale to peak, one cell: blank for 0, at least ▁ for any v>0.
func bar(v, peak float64) rune {
	if v <= 0 || peak <= 0 {
		return ' '
	}
	level := int(v/peak*8 + 0.5)
	return bars[min(max(level, 1), 8)]
}

// chartHours is how many hours fit in width (at most the held ones).
func chartHours(width, held int) int {
	return min(held, max((width-labelCells)/hourCells, 0))
}

// chartSpan is where the chart of n hours begins and how long it runs to
// s.At in words: "24 h" when it holds the whole day, else "23 h 30 m".
func chartSpan(s snapshot.TrafficSummary, n int) (time.Time, string) {
	from := s.Since
	if n < len(s.Hours) {
		from = s.Hours[len(s.Hours)-n].Start
	}
	d := s.At.Sub(from).Truncate(time.Minute)
	if d%time.Hour == 0 {
		return from, fmt.Sprintf("%d h", d/time.Hour)
	}
	return from, fmt.Sprintf("%d h %d m", d/time.Hour, d%time.Hour/time.Minute)
}

// chart draws the hours that fit in width, and says which of its rows is
// the boots row; nil when not one hour fits.
func chart(t *theme.Theme, s snapshot.TrafficSummary, width int) (out []string, bootsRow int) {
	n := chartHours(width, len(s.Hours))
	if n == 0 || !anyData(s.Hours) {
		return nil, 0
	}
	hours := s.Hours[len(s.Hours)-n:]
	// Beside each row, its total over the 24 h, when every hour and the
	// totals fit: a total over fewer hours would be a second figure for
	// the same fact. Requests come from the 24 h counters (the sentences'
	// figures), so they are shown only once those are read.
	totals := n == len(s.Hours) && width >= labelCells+n*hourCells+totalsCells
	counted := totals && s.Known
	label := func(l string) string { return fmt.Sprintf("%-*s", labelCells, l) }

	axis := label("UTC")
	for _, h := range hours {
		axis += fmt.Sprintf("%-*s", hourCells, h.Start.UTC().Format("15"))
	}
	if totals {
		_, span := chartSpan(s, n)
		axis += "totals over " + span
	}
	out = append(out, t.Dim.Render(strings.TrimRight(axis, " ")))

	for _, class := range diagnose.StatusClasses {
		peak := 0.0
		for _, h := range hours {
			peak = max(peak, h.Edge[class], h.App[class])
		}
		if peak <= 0 {
			continue
		}
		style := t.Text
		if class == "5xx" {
			style = t.Fail
		}
		var b strings.Builder
		for _, h := range hours {
			b.WriteRune(bar(h.Edge[class], peak))
			b.WriteRune(bar(h.App[class], peak))
			b.WriteByte(' ')
		}
		row := label(class) + style.Render(b.String())
		if counted {
			row += t.Dim.Render(fmt.Sprintf("edge %s · app %s",
				words.Thousands(round(s.Edge24hByClass[class])), words.Thousands(round(s.App24hByClass[class]))))
		}
		out = append(out, strings.TrimRight(row, " "))
	}

	peak := 0.0
	for _, h := range hours {
		peak = max(peak, h.Lost)
	}
	if peak > 0 {
		var b strings.Builder
		for _, h := range hours {
			b.WriteRune(bar(h.Lost, peak))
			b.WriteString("  ")
		}
		row := label("lost") + t.Fail.Render(b.String())
		if counted {
			row += t.Dim.Render(words.Thousands(round(s.Lost24h)) + " lost")
		}
		out = append(out, strings.TrimRight(row, " "))
	}

	var boots strings.Builder
	total := 0
	for _, h := range hours {
		boots.WriteString(fmt.Sprintf("%2s ", bootCount(h.Boots)))
		total += h.Boots
	}
	style := t.Dim
	if total > 0 {
		style = t.Warn
	}
	row := label("boots") + style.Render(boots.String())
	if totals {
		row += t.Dim.Render(words.Count(total, "cold boot", "cold boots"))
	}
	bootsRow = len(out)
	out = append(out, strings.TrimRight(row, " "))

	if marks, ok := noiseMarks(s, hours); ok {
		out = append(out, label("noise")+t.Warn.Render(strings.TrimRight(marks, " ")))
	}
	return out, bootsRow
}

// noiseMarks puts S under the hours a scan touched and ▲ under the busy
// hours the pane describes; ok is false when there is nothing to mark.
func noiseMarks(s snapshot.TrafficSummary, hours []diagnose.TrafficHour) (string, bool) {
	var b strings.Builder
	marked := false
	for _, h := range hours {
		mark := " "
		end := h.Start.Add(time.Hour)
		for _, bh := range described(s.Busy) {
			if bh.Start.Equal(h.Start) {
				mark = "▲"
			}
		}
		for _, sc := range s.Scans {
			if sc.From.Before(end) && !sc.To.Before(h.Start) {
				mark = "S"
			}
		}
		marked = marked || mark != " "
		b.WriteString(mark + strings.Repeat(" ", hourCells-1))
	}
	return b.String(), marked
}

// described are the busy hours the pane names: the busiest ones that are
// not scans, at most maxBusyHours.
func described(busy []diagnose.BusyHour) []diagnose.BusyHour {
	var out []diagnose.BusyHour
	for _, bh := range busy {
		if !bh.Scan && len(out) < maxBusyHours {
			out = append(out, bh)
		}
	}
	return out
}

func anyData(hours []diagnose.TrafficHour) bool {
	for _, h := range hours {
		if h.Minutes > 0 {
			return true
		}
	}
	return false
}
