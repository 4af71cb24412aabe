package frame

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

// headerSep separates header segments.
const headerSep = " · "

// Header is the one-line top bar, exactly width cells: left segments
// (org/app, DEMO or LIVE, API health) flush left, right segments (calls per
// minute, back-off, updated-ago) flush right, each group joined by " · ".
// Plain segments get the Header style; pre-styled ones (a Badge) are kept.
// When space runs out the right group is kept whole and the left one is cut.
func Header(t *theme.Theme, width int, left, right []string) string {
	if width <= 0 {
		return ""
	}
	sep := t.Dim.Render(headerSep)
	l := joinSegments(t, left, sep)
	r := joinSegments(t, right, sep)
	lw, rw := ansi.StringWidth(l), ansi.StringWidth(r)
	switch {
	case rw == 0:
		return cell.Fit(l, width, cell.Left)
	case rw+1 >= width:
		return cell.Fit(r, width, cell.Right)
	case lw+1+rw > width:
		l = cell.Fit(l, width-rw-1, cell.Left)
		return l + " " + r
	default:
		return l + strings.Repeat(" ", width-lw-rw) + r
	}
}

func joinSegments(t *theme.Theme, segs []string, sep string) string {
	parts := make([]string, 0, len(segs))
	for _, s := range segs {
		if s == "" {
			continue
		}
		if !strings.Contains(s, "\x1b[") {
			s = t.Header.Render(s)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, sep)
}

// ModeBadge is the DEMO / LIVE badge for the header. Demo data is never
// silently mistaken for real data.
func ModeBadge(t *theme.Theme, demo bool) string {
	if demo {
		return t.Badge.Render(" DEMO ")
	}
	return t.Pass.Render("LIVE")
}
