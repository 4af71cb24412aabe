package app

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

// The crash banner spans the screen under the header while machines of
// the current release crash-loop: first a line naming the machines, then
// what that means. It wraps, never cuts: at 80 columns both lines are whole.

// bannerText is the banner's lines at width, none without a crash.
func bannerText(c snapshot.CrashLoops, width int) []string {
	if !c.Any() || width < 2 {
		return nil
	}
	room := width - 1 // the banner's left margin
	lines := []string{machinesLine(c, room)}
	return append(lines, cell.Wrap(c.Explanation(), room, 2)...)
}

// machinesLine names the crashing machines, by kind, as many as fit:
// "✗ release v7: a, b crash-looping · c gave up restarting", with "+N more"
// standing for the rest when they do not.
func machinesLine(c snapshot.CrashLoops, room int) string {
	line := func(shown int) string {
		var parts []string
		left := shown
		for _, g := range []struct {
			ids  []string
			what string
		}{{c.Looping, "crash-looping"}, {c.GaveUp, "gave up restarting"}} {
			if len(g.ids) == 0 {
				continue
			}
			k := min(len(g.ids), max(left, 1))
			left -= k
			ids := strings.Join(g.ids[:k], ", ")
			if k < len(g.ids) {
				ids += " +" + strconv.Itoa(len(g.ids)-k) + " more"
			}
			parts = append(parts, ids+" "+g.what)
		}
		return theme.GlyphFailed + " " + c.ReleaseName() + ": " + strings.Join(parts, " · ")
	}
	for shown := len(c.Looping) + len(c.GaveUp); shown > 1; shown-- {
		if l := line(shown); ansi.StringWidth(l) <= room {
			return l
		}
	}
	return line(1)
}

// bannerLines draws the banner across the screen.
func (m *Model) bannerLines() []string {
	text := bannerText(m.crash, m.width)
	for i, l := range text {
		text[i] = m.theme.Banner.Render(cell.Fit(" "+l, m.width, cell.Left))
	}
	return text
}
