package traffic

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

// maxErrorCodes bounds the proxy error codes listed (commonest first).
const maxErrorCodes = 5

// maxBusyHours bounds the busy hours described that are not scans.
const maxBusyHours = 2

// screen is every line the pane shows at width, styled, none wider than
// width: sentences wrap (their ends are the point), the chart is cut to the
// hours that fit.
func screen(t *theme.Theme, s snapshot.TrafficSummary, width int) []string {
	out, _ := screenLines(t, s, width)
	return out
}

// screenLines is screen and how many of its lines reach the chart's boots
// row (0 without a chart): the lost and boots rows are the pane's point,
// and the layout keeps them on screen (Needs).
func screenLines(t *theme.Theme, s snapshot.TrafficSummary, width int) (out []string, keep int) {
	add := func(style lipgloss.Style, lead, text string) {
		out = append(out, wrap(style, lead, text, width)...)
	}

	level, verdicts := lossVerdict(s)
	look := t.Level(level)
	add(look.Style, look.Render()+" ", verdicts[0].Line)
	for _, more := range verdicts[1:] {
		add(t.Level(more.Level).Style, "  ", more.Line)
	}
	if s.Known {
		window := func(name string, lost, edge float64, g diagnose.EdgeGap) string {
			line := fmt.Sprintf("%s: %s of %s lost", name, words.Thousands(round(lost)), words.Thousands(round(edge)))
			if g.Unclaimed >= 0.5 {
				line += fmt.Sprintf(", %s answered too late", words.Thousands(round(g.Unclaimed)))
			}
			return line
		}
		add(t.Dim, "  ", window("last hour", s.Lost1h, s.Edge1h, s.Gap1h)+" · "+window("24 h", s.Lost24h, s.Edge24h, s.Gap24h))
	}
	if line := s.Boots.Sentence("24 h"); line != "" && s.Lost24h >= 0.5 {
		add(t.Warn, "  ", "cause: "+line)
	}
	if s.TrafficErr != "" {
		add(t.Unknown, "  ", "per-minute series not read: "+s.TrafficErr)
	}

	if c, boots := chart(t, s, width); len(c) > 0 {
		out = append(out, "")
		keep = len(out) + boots + 1
		out = append(out, c...)
		add(t.Dim, "", legend(s, width))
	}

	var noise []string
	for _, sc := range s.Scans {
		noise = append(noise, sc.Sentence())
	}
	for _, bh := range described(s.Busy) {
		noise = append(noise, bh.Sentence())
	}
	if len(noise) > 0 {
		out = append(out, "")
		for i, line := range noise {
			mark := "S "
			if i >= len(s.Scans) {
				mark = "▲ "
			}
			add(t.Text, t.Warn.Render(mark), line)
		}
	}

	if len(s.Errors) > 0 {
		out = append(out, "")
		add(t.Text, "", "proxy errors in the logs, 24 h (lines by code):")
		for i, pe := range s.Errors {
			if i == maxErrorCodes {
				add(t.Dim, "  ", fmt.Sprintf("and %s more", words.Count(len(s.Errors)-i, "code", "codes")))
				break
			}
			add(t.Text, "  "+t.Fail.Render(fmt.Sprintf("%s ×%s", pe.Code, words.Thousands(pe.Lines)))+" ", pe.Meaning)
		}
	}
	return out, keep
}

// lossVerdict is the head line and the lines under it: the day's gap in
// words with the numbers, each direction apart (diagnose.EdgeGap); answers
// no client received point at the backlog they come from.
func lossVerdict(s snapshot.TrafficSummary) (diagnose.Level, []diagnose.Verdict) {
	switch {
	case s.MetricsErr != "":
		return diagnose.Unknown, []diagnose.Verdict{{Level: diagnose.Unknown, Line: "edge and app counters not read: " + s.MetricsErr}}
	case !s.Known:
		return diagnose.Unknown, []diagnose.Verdict{{Level: diagnose.Unknown, Line: "reading fly_edge_http_responses_count and fly_app_http_responses_count…"}}
	}
	g := s.Gap24h
	verdicts := g.Verdicts("24 h")
	if g.Unclaimed >= 0.5 {
		verdicts[len(verdicts)-1].Line += ": see the Backlog pane"
	}
	return g.Level(), verdicts
}

// legend says how to read the chart at width, for the rows it drew, and the
// span it covers: "24 h since 09:30 UTC" (the sentences' window), or since
// the oldest hour that fits.
func legend(s snapshot.TrafficSummary, width int) string {
	from, span := chartSpan(s, chartHours(width, len(s.Hours)))
	parts := []string{fmt.Sprintf("%s since %s UTC, per hour: the edge's bar, then the app's, one scale per row", span, from.UTC().Format("15:04")),
		"lost = edge − app", "boots = cold boots begun"}
	for _, h := range s.Hours {
		if h.Boots >= 100 {
			parts[2] += " (++ = 100 or more)"
			break
		}
	}
	if len(s.Scans) > 0 {
		parts = append(parts, "S = a scanner")
	}
	if len(described(s.Busy)) > 0 {
		parts = append(parts, fmt.Sprintf("▲ = a busiest hour, ≥ %.0f× the median", diagnose.BusyFactor))
	}
	return strings.Join(parts, " · ")
}

// wrap breaks text to width after a lead (a glyph, an indent) with
// cell.Wrap, styling each line; continuation lines are indented by two
// more than the lead's first cells. Narrow widths get the text cut instead.
func wrap(style lipgloss.Style, lead, text string, width int) []string {
	leadW := ansi.StringWidth(lead)
	if width < 20 || leadW+ansi.StringWidth(text) <= width {
		return []string{lead + style.Render(text)}
	}
	indent := strings.Repeat(" ", min(leadW, 2)+2)
	out := cell.Wrap(text, width-max(leadW, len(indent)), 0)
	for i, l := range out {
		if i == 0 {
			out[i] = lead + style.Render(l)
		} else {
			out[i] = indent + style.Render(l)
		}
	}
	return out
}

func round(f float64) int { return int(f + 0.5) }
