package checklist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
)

const edgeOriginFix = "Stop reading app logs for these: the requests died in front of the app. Look at the proxy: cold starts longer than its patience (cold start), machines stopped or suspended while requests queue (sleep and wake), no hard limit (concurrency). Compare fly_edge_http_responses_count with fly_app_http_responses_count again after each fix."

const edgeUnclaimedFix = "The app worked through requests whose clients had already given up: a queue in front of the workers. Let the proxy hold the excess instead (a hard limit, and a cap on in-flight requests per worker; see concurrency and backlog)."

// edgeOriginRule: the edge's responses against the app's, both ways — what
// the edge counted that the app never answered (lost in front of it), and
// what the app answered that reached no client (a backlog).
func edgeOriginRule(e Evidence) Item {
	b := newItem(IDEdgeOrigin)
	eo := e.EdgeOrigin
	if eo == nil || (eo.Hour == nil && eo.Day == nil) {
		b.judge(Unknown, "", "edge and app metrics not read (fly_edge_http_responses_count, fly_app_http_responses_count)")
		return b.done()
	}
	edgeWindow(b, eo.Source, "24 h", eo.Day)
	edgeWindow(b, eo.Source, "the last hour", eo.Hour)
	return b.done()
}

func edgeWindow(b *itemBuilder, source, window string, c *StatusCounts) {
	if c == nil {
		return
	}
	g := diagnose.CompareEdge(c.Edge, c.App)
	for _, v := range g.Verdicts(window) {
		line := v.Line
		if strings.HasSuffix(line, "a backlog") {
			line += ": see concurrency and backlog"
		}
		b.judge(v.Level, source, "%s", line)
	}
	if g.Agree() {
		return
	}
	detail := fmt.Sprintf("edge %s · app %s in %s", countf(g.Edge), countf(g.App), window)
	if gaps := classGaps(diagnose.LostByClass(c.Edge, c.App)); gaps != "" {
		detail += "; edge minus app by status: " + gaps
	}
	if gaps := classGaps(diagnose.LostByClass(c.App, c.Edge)); gaps != "" {
		detail += "; app minus edge by status: " + gaps
	}
	b.note(source, "%s", detail)
	if g.Lost >= 0.5 {
		b.fix(edgeOriginFix)
	}
	if g.Unclaimed >= 0.5 {
		b.fix(edgeUnclaimedFix)
	}
}

// classGaps lists a class-by-class gap: "5xx +900".
func classGaps(gap map[string]float64) string {
	classes := make([]string, 0, len(gap))
	for class, n := range gap {
		if n >= 0.5 {
			classes = append(classes, class)
		}
	}
	slices.Sort(classes)
	parts := make([]string, len(classes))
	for i, class := range classes {
		parts[i] = fmt.Sprintf("%s +%s", class, countf(gap[class]))
	}
	return strings.Join(parts, ", ")
}
