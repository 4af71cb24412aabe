package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// The edge counts every response a client got (fly_edge_http_responses_count),
// the proxy counts every response a machine produced
// (fly_app_http_responses_count). When the edge counted more, the difference
// died between the two — in front of the app, where its logs never see it:
// errors the origin never heard of are requests that died before arriving.

// StatusCounts are responses by HTTP status ("200", "502").
type StatusCounts map[string]float64

// Total is the sum over every status.
func (c StatusCounts) Total() float64 {
	t := 0.0
	for _, v := range c {
		t += v
	}
	return t
}

// StatusClass folds "200", "304", "502" into "2xx", "3xx", "5xx"; anything
// else is "other".
func StatusClass(status string) string {
	s := strings.TrimSpace(status)
	if len(s) == 3 && s[0] >= '1' && s[0] <= '5' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9' {
		return s[:1] + "xx"
	}
	return "other"
}

// StatusClasses are the classes in the order the panes list them.
var StatusClasses = []string{"2xx", "3xx", "4xx", "5xx", "1xx", "other"}

// ByClass folds counts by status into counts by class.
func (c StatusCounts) ByClass() map[string]float64 {
	out := map[string]float64{}
	for status, n := range c {
		if n > 0 {
			out[StatusClass(status)] += n
		}
	}
	return out
}

// LostByClass is, per status class, how many responses the edge counted
// beyond the app's: the requests that died between them. A class where the
// app counted more is left out (a backlog app answers requests whose
// clients already left, which the edge never counts), so it cannot hide
// another class's loss.
func LostByClass(edge, app StatusCounts) map[string]float64 {
	out := map[string]float64{}
	e, a := edge.ByClass(), app.ByClass()
	for class, n := range e {
		if gap := n - a[class]; gap > 0 {
			out[class] = gap
		}
	}
	return out
}

// Lost is the sum of LostByClass.
func Lost(edge, app StatusCounts) float64 {
	t := 0.0
	for _, n := range LostByClass(edge, app) {
		t += n
	}
	return t
}

// EdgeGap is one window of the edge's counts against the app's, in both
// directions: each has its own cause, and a class where one counted more
// cannot hide another class where the other did.
type EdgeGap struct {
	Edge, App float64 // every response each counted
	// Lost: responses the edge counted beyond the app's, class by class —
	// requests that died in front of the app.
	Lost float64
	// Unclaimed: responses the app counted beyond the edge's, class by
	// class — answers no client received, for clients that had already
	// gone: the backlog's work (CLOSE_WAIT sockets).
	Unclaimed float64
}

// CompareEdge compares one window's counts.
func CompareEdge(edge, app StatusCounts) EdgeGap {
	return EdgeGap{Edge: edge.Total(), App: app.Total(), Lost: Lost(edge, app), Unclaimed: Lost(app, edge)}
}

// Agree reports whether the two counts match in every class (to the
// nearest request).
func (g EdgeGap) Agree() bool { return g.Lost < 0.5 && g.Unclaimed < 0.5 }

// Level grades both directions at the same shares (LossWarn, LossFail):
// the lost against the edge's total, the unclaimed against the app's.
// Unknown when neither counted anything.
func (g EdgeGap) Level() Level {
	if g.Edge < 0.5 && g.App < 0.5 {
		return Unknown
	}
	lvl := Pass
	if g.Edge >= 0.5 {
		lvl = Worse(lvl, LossLevel(g.Lost, g.Edge))
	}
	return Worse(lvl, LossLevel(g.Unclaimed, g.App))
}

// Verdicts say the gap in words with the numbers, one verdict per
// direction that has one, each graded by Level's shares; "agree" only when
// both counts match.
func (g EdgeGap) Verdicts(window string) []Verdict {
	if g.Edge < 0.5 && g.App < 0.5 {
		return []Verdict{{Unknown, "the edge counted no requests in " + window}}
	}
	if g.Agree() {
		return []Verdict{{Pass, fmt.Sprintf("edge and app agree: %s requests in %s, none lost in between", words.Thousands(round(g.Edge)), window)}}
	}
	var out []Verdict
	if line := LossSentence(g.Lost, g.Edge, window); line != "" {
		out = append(out, Verdict{LossLevel(g.Lost, g.Edge), line})
	} else if g.Edge < 0.5 {
		out = append(out, Verdict{Unknown, "the edge counted no requests in " + window})
	}
	if g.Unclaimed >= 0.5 {
		out = append(out, Verdict{LossLevel(g.Unclaimed, g.App), fmt.Sprintf(
			"the app answered %s requests in %s that no client received (%s of its %s): their clients had gone before the answer came back — a backlog",
			words.Thousands(round(g.Unclaimed)), window, Percent(g.Unclaimed/g.App), words.Thousands(round(g.App)))})
	}
	return out
}

func round(f float64) int { return int(f + 0.5) }

// Shares of the edge's responses lost in between at which the loss warns
// and fails (the checklist's item 5 and the Traffic pane).
const (
	LossWarn = 0.001
	LossFail = 0.01
)

// LossLevel grades lost of edgeTotal (Unknown when the edge counted nothing).
func LossLevel(lost, edgeTotal float64) Level {
	switch {
	case edgeTotal < 0.5:
		return Unknown
	case lost/edgeTotal > LossFail:
		return Fail
	case lost/edgeTotal > LossWarn:
		return Warn
	}
	return Pass
}

// TrafficMinute is one minute of both counters: the responses counted in
// [Start, Start+1m).
type TrafficMinute struct {
	Start     time.Time
	Edge, App StatusCounts
}

// Lost is the minute's loss.
func (m TrafficMinute) Lost() float64 { return Lost(m.Edge, m.App) }

// TrafficHour is one clock hour (UTC) of traffic and boots.
type TrafficHour struct {
	Start     time.Time
	Edge, App map[string]float64 // by status class
	EdgeTotal float64
	AppTotal  float64
	// Lost is the sum of each minute's loss, so a minute where the app
	// answered more than the edge cannot hide another minute's loss.
	Lost  float64
	Boots int // cold boots begun in the hour (and in the window)
	// Partial: the window holds only part of the hour — the one under way
	// at now, or the oldest, cut where the window begins.
	Partial bool
	// Minutes is how many minutes of the hour have data.
	Minutes int
}

// TrafficHours lays minutes and boots on the clock hours the window
// [since, now) touches, oldest first: a day's window touches 25, the oldest
// cut at since and the newest under way. Minutes that start outside the
// window and boots not ColdIn it are left out, so the hours add up to the
// window's figures (CorrelateBoots' boots, the 24 h counters' requests).
// Hours without data are present, with zero Minutes.
func TrafficHours(minutes []TrafficMinute, boots []Boot, since, now time.Time) []TrafficHour {
	if !since.Before(now) {
		return nil
	}
	first := since.UTC().Truncate(time.Hour)
	out := make([]TrafficHour, int(now.UTC().Truncate(time.Hour).Sub(first)/time.Hour)+1)
	for i := range out {
		out[i] = TrafficHour{Start: first.Add(time.Duration(i) * time.Hour), Edge: map[string]float64{}, App: map[string]float64{}}
	}
	out[0].Partial = since.After(first)
	out[len(out)-1].Partial = true
	index := func(t time.Time) int { return int(t.Sub(first) / time.Hour) }
	for _, m := range minutes {
		if m.Start.Before(since) || !m.Start.Before(now) {
			continue
		}
		h := &out[index(m.Start)]
		for class, n := range m.Edge.ByClass() {
			h.Edge[class] += n
			h.EdgeTotal += n
		}
		for class, n := range m.App.ByClass() {
			h.App[class] += n
			h.AppTotal += n
		}
		h.Lost += m.Lost()
		h.Minutes++
	}
	for _, b := range boots {
		if b.ColdIn(since, now) {
			out[index(b.Begin)].Boots++
		}
	}
	return out
}

// MedianHour is the median edge total over the hours with data (the lower
// middle for even counts); 0 without any.
func MedianHour(hours []TrafficHour) float64 {
	var totals []float64
	for _, h := range hours {
		if h.Minutes > 0 && !h.Partial {
			totals = append(totals, h.EdgeTotal)
		}
	}
	if len(totals) == 0 {
		return 0
	}
	slices.Sort(totals)
	return totals[(len(totals)-1)/2]
}

// BootLoss relates the lost requests to the cold boots, minute by minute:
// the edge's counters say when a request was answered, the boot timelines
// (from the logs) when a machine was booting. A minute counts as booting when
// any cold boot's (not a crash restart's) window (begin → serving, or → its last line if it never
// served, or → now while it runs) overlaps it.
type BootLoss struct {
	Lost        float64 // requests lost in the minutes with data
	InBoot      float64 // of which in booting minutes
	Minutes     int     // minutes with data
	BootMinutes int     // of which booting
	Boots       int     // cold boots ColdIn the window
	P50         time.Duration
}

// Share is InBoot/Lost, 0 when nothing was lost.
func (b BootLoss) Share() float64 {
	if b.Lost <= 0 {
		return 0
	}
	return b.InBoot / b.Lost
}

// CorrelateBoots computes BootLoss over the minutes that start in [since, now).
func CorrelateBoots(minutes []TrafficMinute, boots []Boot, since, now time.Time) BootLoss {
	var out BootLoss
	type window struct{ from, to time.Time }
	var windows []window
	var served []time.Duration
	for _, b := range boots {
		if b.Resume || b.CrashRestart() || b.Begin.After(now) {
			continue
		}
		end := b.Begin.Add(b.Elapsed(now))
		if end.Before(since) {
			continue
		}
		windows = append(windows, window{b.Begin, end})
		if b.ColdIn(since, now) {
			out.Boots++
			if b.Complete {
				served = append(served, b.Elapsed(now))
			}
		}
	}
	slices.SortFunc(windows, func(a, b window) int { return a.from.Compare(b.from) })
	for _, m := range minutes {
		if m.Start.Before(since) || !m.Start.Before(now) {
			continue
		}
		out.Minutes++
		lost := m.Lost()
		out.Lost += lost
		end := m.Start.Add(time.Minute)
		booting := false
		for _, w := range windows {
			if !w.from.Before(end) {
				break
			}
			if !w.to.Before(m.Start) {
				booting = true
				break
			}
		}
		if booting {
			out.BootMinutes++
			out.InBoot += lost
		}
	}
	out.P50 = Median(served)
	return out
}

// LossSentence is the rule in words with the numbers, "" when nothing died:
// "the edge answered 33,440 requests the app never saw in 24 h (20.7 %): they
// died in front of the app — read the proxy, not the app logs".
func LossSentence(lost, edgeTotal float64, window string) string {
	if lost < 0.5 || edgeTotal <= 0 {
		return ""
	}
	return fmt.Sprintf("the edge answered %s requests the app never saw in %s (%s): they died in front of the app — read the proxy, not the app logs",
		words.Thousands(round(lost)), window, Percent(lost/edgeTotal))
}

// Sentence names the cause beside the symptom, with what the figure
// means: "87 % of the lost requests were answered in a minute a machine was
// booting (90 boots, p50 28.4 s; booting minutes are 9 % of 24 h)". ""
// when there is nothing to relate.
func (b BootLoss) Sentence(window string) string {
	if b.Lost < 0.5 || b.Minutes == 0 {
		return ""
	}
	if b.Boots == 0 && b.BootMinutes == 0 {
		return fmt.Sprintf("no cold boot in %s: the requests died for another reason — read the proxy's errors", window)
	}
	boots := words.Count(b.Boots, "boot", "boots")
	if b.P50 > 0 {
		boots += ", p50 " + words.Duration(b.P50, words.Tenths)
	}
	return fmt.Sprintf("%s of the lost requests were answered in a minute a machine was booting (%s; booting minutes are %s of %s)",
		Percent(b.Share()), boots, Percent(float64(b.BootMinutes)/float64(b.Minutes)), window)
}

// Percent spells a share as the checklist does: "20.7 %".
func Percent(share float64) string { return fmt.Sprintf("%.1f %%", share*100) }
