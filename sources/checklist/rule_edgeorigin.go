package checklist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
)

const edgeOriginFix = "Stop reading app logs for these: the requests died in front of the app. Look at the proxy: cold starts longer than its patience (cold start), machines stopped or suspended while requests queue (sleep and wake), no hard limit (concurrency). Compare fly_edge_http_responses_count with fly_app_http_responses_count again after each fix."

// edgeOriginRule: responses the edge counted that the app never answered.
func edgeOriginRule(e Evidence) Item {
	b := newItem(IDEdgeOrigin)
	eo := e.EdgeOrigin
	if eo == nil || (eo.Hour == nil && eo.Day == nil) {
		b.judge(Unknown, "", "edge and app metrics not read (fly_edge_http_responses_count, fly_app_http_responses_count)")
		return b.done()
	}
	edgeWindow(b, eo.Source, "24 h", eo.Day)
	edgeWindow(b, eo.Source, "the last hour", eo.Hour)
	b.fix(edgeOriginFix)
	return b.done()
}

func edgeWindow(b *itemBuilder, source, window string, c *StatusCounts) {
	if c == nil {
		return
	}
	total := diagnose.StatusCounts(c.Edge).Total()
	lost := diagnose.LostByClass(c.Edge, c.App)
	died := 0.0
	var gaps []string
	classes := make([]string, 0, len(lost))
	for class := range lost {
		classes = append(classes, class)
	}
	slices.Sort(classes)
	for _, class := range classes {
		if gap := lost[class]; gap >= 0.5 {
			died += gap
			gaps = append(gaps, fmt.Sprintf("%s +%s", class, countf(gap)))
		}
	}
	if total < 0.5 {
		b.judge(Unknown, source, "the edge counted no requests in %s", window)
		return
	}
	share := died / total
	detail := ""
	if len(gaps) > 0 {
		detail = " (edge minus app by status: " + strings.Join(gaps, ", ") + ")"
	}
	// The thresholds are the Traffic pane's.
	switch diagnose.LossLevel(died, total) {
	case diagnose.Fail:
		b.judge(Fail, source, "edge saw %s requests in %s that the app never answered (%s of %s)%s", countf(died), window, percent(share), countf(total), detail)
	case diagnose.Warn:
		b.judge(Warn, source, "edge saw %s requests in %s that the app never answered (%s of %s)%s", countf(died), window, percent(share), countf(total), detail)
	default:
		b.judge(Pass, source, "edge and app agree in %s: %s requests, %s lost in between", window, countf(total), countf(died))
	}
}
