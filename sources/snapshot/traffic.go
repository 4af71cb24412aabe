package snapshot

import (
	"slices"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
)

// TrafficReply is one fetch of the per-minute edge and app counters
// (sources/watch Traffic).
type TrafficReply struct {
	At   time.Time // platform time of the fetch
	Hour time.Time // the clock hour under way then
	// History is the day before Hour, per minute; nil when not fetched
	// this time (the model's is still current).
	History []diagnose.TrafficMinute
	// Current is Hour's minutes so far; nil when not fetched.
	Current []diagnose.TrafficMinute
	Err     string
}

// Traffic is what the model holds of the two counters.
type Traffic struct {
	Minutes      []diagnose.TrafficMinute // oldest first, at most a day and an hour
	HistoryUntil time.Time                // the hour the fetched history reaches (zero: none yet)
	At           time.Time                // the last good fetch
	Err          string                   // the last fetch failed: Minutes are the last good ones
}

// ApplyTraffic records a fetch. A failed fetch keeps the last good minutes
// and says why; history from before the current hour replaces the old day,
// the current hour's minutes replace what the model had of that hour.
func (a *App) ApplyTraffic(r TrafficReply) {
	t := &a.Traffic
	if r.Err != "" {
		t.Err = sanitize.Line(r.Err)
		return
	}
	t.Err, t.At = "", r.At
	keep := t.Minutes[:0:0]
	if r.History != nil {
		keep = append(keep, r.History...)
		t.HistoryUntil = r.Hour
	} else {
		for _, m := range t.Minutes {
			if m.Start.Before(r.Hour) && !m.Start.Before(r.Hour.Add(-diagnoseDay)) {
				keep = append(keep, m)
			}
		}
	}
	if r.Current != nil {
		for _, m := range r.Current {
			if !m.Start.Before(r.Hour) {
				keep = append(keep, m)
			}
		}
	}
	slices.SortStableFunc(keep, func(x, y diagnose.TrafficMinute) int { return x.Start.Compare(y.Start) })
	t.Minutes = keep
}

const diagnoseDay = 24 * time.Hour

// maxAccessLines bounds the access lines kept for the noise check: a day of
// the demo's busiest app holds ~15,000.
const maxAccessLines = 100_000

// noteLogs keeps, from new log lines, what the Traffic pane reads: the app's
// access lines (client, host, path, status) and the proxy's error lines.
// Called by ApplyLogs with the lines it appended.
func (a *App) noteLogs(lines []diagnose.LogLine) {
	for _, l := range lines {
		switch l.Provider {
		case "app":
			if al, ok := diagnose.ParseAccessLine(l.Time, l.Message); ok {
				al.Client, al.Host = sanitize.Line(al.Client), sanitize.Line(al.Host)
				a.access = append(a.access, al)
			}
		case "proxy":
			if diagnose.ProxyErrorCode(l.Message) != "" {
				a.proxyErrs = append(a.proxyErrs, l)
			}
		}
	}
	if len(a.access) > maxAccessLines {
		a.access = append(a.access[:0:0], a.access[len(a.access)-maxAccessLines*9/10:]...)
	}
	if len(a.proxyErrs) > maxAccessLines {
		a.proxyErrs = append(a.proxyErrs[:0:0], a.proxyErrs[len(a.proxyErrs)-maxAccessLines*9/10:]...)
	}
}

// TrafficSummary is everything the Traffic pane says, derived once per
// change of its inputs.
type TrafficSummary struct {
	// Every figure but the last hour's is over the 24 h [Since, At).
	At, Since time.Time
	// Hours are the clock hours of the 24 h: 25, the oldest cut at Since,
	// the newest under way, so they add up to the day's figures.
	Hours []diagnose.TrafficHour

	// The loss, from the instant queries (the checklist's item 5 figures).
	Known            bool // the edge/origin counters were read
	Lost1h, Edge1h   float64
	Lost24h, Edge24h float64
	// Both directions of the same windows (EdgeOrigin.Gaps).
	Gap1h, Gap24h diagnose.EdgeGap
	// The 24 h counts by status class, for the chart's totals: the same
	// figures as Lost24h and Edge24h, split.
	Edge24hByClass, App24hByClass map[string]float64

	Boots  diagnose.BootLoss // the day's lost requests against its cold boots
	Scans  []diagnose.Scan
	Busy   []diagnose.BusyHour
	Errors []diagnose.ProxyErrors // the proxy's error lines of the day, by code

	TrafficErr string // the per-minute fetch failed (Hours are the last good)
	MetricsErr string // the instant queries failed
}

type trafficKey struct {
	at, logsUntil, metricsAt time.Time
	boots, minute            int64
}

// TrafficSummary derives the pane's facts at now; the result is reused until
// the traffic, the logs, the boots or the minute change.
func (a *App) TrafficSummary(now time.Time) TrafficSummary {
	key := trafficKey{at: a.Traffic.At, logsUntil: a.LogsUntil, boots: int64(len(a.Boots)), minute: now.Unix() / 60}
	if a.Metrics != nil {
		key.metricsAt = a.Metrics.At
	}
	if a.trafficCache != nil && a.trafficKey == key && a.Traffic.Err == a.trafficCache.TrafficErr {
		return *a.trafficCache
	}
	since := now.Add(-diagnoseDay)
	s := TrafficSummary{At: now, Since: since, TrafficErr: a.Traffic.Err}
	s.Hours = diagnose.TrafficHours(a.Traffic.Minutes, a.Boots, since, now)
	if eo := a.Metrics; eo != nil {
		if eo.Err != "" {
			s.MetricsErr = sanitize.Line(eo.Err)
		} else {
			s.Known = true
			s.Lost1h, s.Edge1h = Died(eo.Edge1h, eo.App1h)
			s.Lost24h, s.Edge24h = Died(eo.Edge24h, eo.App24h)
			s.Gap1h, s.Gap24h = eo.Gaps()
			s.Edge24hByClass = diagnose.StatusCounts(eo.Edge24h).ByClass()
			s.App24hByClass = diagnose.StatusCounts(eo.App24h).ByClass()
		}
	}
	if len(a.Traffic.Minutes) > 0 {
		s.Boots = diagnose.CorrelateBoots(a.Traffic.Minutes, a.Boots, since, now)
	}
	from, _ := slices.BinarySearchFunc(a.access, since, func(l diagnose.AccessLine, t time.Time) int { return l.Time.Compare(t) })
	day := a.access[from:]
	s.Scans = diagnose.FindScans(day)
	s.Busy = diagnose.BusyHours(s.Hours, day, s.Scans)
	s.Errors = diagnose.CountProxyErrors(a.proxyErrs, since, now)
	a.trafficCache, a.trafficKey = &s, key
	return s
}
