package app

import (
	"strconv"
	"strings"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/theme"
)

// headerLine: org/app, DEMO or LIVE, API health on the left; calls per
// minute, back-off and updated-ago (or the stale notice) on the right.
func (m Model) headerLine() string {
	t := m.theme
	name := m.cfg.App
	if name == "" {
		name = "all apps" // the overview, before an app is chosen
	}
	if m.app.Org != "" {
		name = m.app.Org + "/" + name
	}
	left := []string{name, frame.ModeBadge(t, m.cfg.Demo)}
	var right []string
	wall := m.wall()

	if m.cfg.Source != nil && m.cfg.Source.Client != nil {
		st := m.cfg.Source.Client.Stats()
		if m.fail.err != nil {
			left = append(left, t.Fail.Render("API "+theme.GlyphFail))
		} else {
			left = append(left, t.Pass.Render("API "+theme.GlyphPass))
		}
		for _, name := range m.failingFeeds() {
			left = append(left, t.Warn.Render(name+" "+theme.GlyphFail))
		}
		if st.LastError != "" {
			left = append(left, t.Dim.Render("last error: "+oneLine(st.LastError)))
		}
		right = append(right, strconv.Itoa(st.CallsLastMinute)+" calls/min")
		if st.BackoffUntil.After(wall) {
			right = append(right, t.Warn.Render("back-off "+cell.DurationUp(st.BackoffUntil.Sub(wall))))
		}
	}
	switch {
	case m.cfg.App == "":
	case m.fail.err != nil && !m.app.ListedAt.IsZero():
		right = append(right, t.Warn.Render(frame.Stale(m.now().Sub(m.app.ListedAt), m.fail.retryAt.Sub(wall))))
	case m.fail.err != nil:
		right = append(right, t.Warn.Render("no data yet · retrying in "+cell.DurationUp(m.fail.retryAt.Sub(wall))))
	case m.app.ListedAt.IsZero():
		right = append(right, "loading…")
	default:
		right = append(right, frame.Ago(m.now().Sub(m.app.ListedAt)))
	}
	return frame.Header(t, m.width, left, right)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
