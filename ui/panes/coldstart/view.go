package coldstart

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/pane"
)

// emptyText is shown when the logs hold no boot at all.
const emptyText = "no boots in the last 24 h of logs"

// historyChrome is the history's title and column header lines.
const historyChrome = 2

// liveRoom is how many live timers a pane of height lines shows: a quarter
// of it (at least one), so the history stays visible.
func liveRoom(height int) int { return max(1, height/4) }

// laidOut is what relayout derives for the size: the summary and the
// selected boot's legend wrapped to the width, and the history window.
type laidOut struct {
	summary []string
	legend  []string
	live    int // live timer lines
	// Of summary and legend, the lines on screen: when the pane is short
	// they give way, from their ends, so the history keeps a row.
	summaryShown, legendShown int
}

// relayout fits the pane to its size: the summary and legend wrap (their
// ends are the point), the history gets the lines left and keeps the
// cursor on screen. A pane too short for it all keeps the history's title,
// header and one row, then the summary, then the legend.
func (p *Pane) relayout() {
	w, h := p.Size()
	p.lay.summary = p.summaryWrap.WrapAll(p.summaryLines(w), w, 2)
	p.lay.legend = nil
	if len(p.d.history) > 0 {
		p.lay.legend = p.legendWrap.WrapAll([]string{p.legendLine(p.d.history[p.cursor])}, w, 2)
	}
	p.lay.live = min(len(p.d.live), liveRoom(h))
	avail := max(h-p.lay.live, 0)
	p.lay.summaryShown = min(len(p.lay.summary), max(avail-historyChrome-1, 0))
	rest := max(avail-p.lay.summaryShown-historyChrome, 0)
	p.lay.legendShown = min(len(p.lay.legend), max(rest-1, 0))
	p.page = max(rest-p.lay.legendShown, 1)
	p.offset = scroll.Window(p.offset, p.cursor, p.page, len(p.d.history))
}

// Below is the boots past the history's window, which the cursor brings
// into view, and the summary's and the legend's lines cut to keep a
// history row on screen, which only a bigger box shows.
func (p *Pane) Below() (int, bool) {
	if !p.loaded || (len(p.d.history) == 0 && len(p.d.live) == 0) {
		return 0, false
	}
	cut := len(p.lay.summary) - p.lay.summaryShown + len(p.lay.legend) - p.lay.legendShown
	rows := max(len(p.d.history)-p.offset-p.page, 0)
	return cut + rows, cut == 0
}

// Height is everything the pane has at width: the live timers, the
// summary, the whole history and the legend.
func (p *Pane) Height(width int) int {
	legend := 1
	if len(p.d.history) > 0 {
		legend = len(p.legendWrap.WrapAll([]string{p.legendLine(p.d.history[p.cursor])}, width, 2))
	}
	return len(p.d.live) + len(p.summaryWrap.WrapAll(p.summaryLines(width), width, 2)) + historyChrome +
		max(len(p.d.history), 1) + legend
}

// View renders exactly the SetSize width×height cells.
func (p *Pane) View(focused bool, now time.Time) string {
	out := p.view(focused, now)
	if p.Stale() {
		return pane.Dim(p.theme, out)
	}
	return out
}

func (p *Pane) view(focused bool, now time.Time) string {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for logs…"), width, height)
	}
	lines := p.liveLines(width, height, now)
	if len(p.d.history) == 0 && len(lines) == 0 {
		return cell.Block(p.theme.Dim.Render(emptyText), width, height)
	}
	lines = append(lines, p.lay.summary[:p.lay.summaryShown]...)
	rows := min(p.page, height-len(lines)-historyChrome-p.lay.legendShown)
	lines = append(lines, p.historyLines(width, max(rows, 0), focused)...)
	return cell.Block(strings.Join(lines, "\n"), width, height)
}

// liveLines are the running timers, newest boot first, at most a quarter
// of the pane (and at least one line) so the history stays visible.
func (p *Pane) liveLines(width, height int, now time.Time) []string {
	live := p.d.live
	room := liveRoom(height)
	var out []string
	for i, b := range live {
		if i == room-1 && len(live) > room {
			out = append(out, p.theme.Warn.Render(fmt.Sprintf("+%d more booting", len(live)-i)))
			break
		}
		state, kind := "starting", "cold boot"
		switch {
		case b.Resume:
			state, kind = "resuming", "resume"
		case b.AfterCrash:
			kind = "crash restart"
		}
		look := p.theme.State(state)
		line := fmt.Sprintf("%s %s %s · %s", look.Render(), b.Machine,
			p.theme.Warn.Render(words.Duration(b.Elapsed(now), words.Tenths)), currentPhase(b))
		if long := line + " · " + kind; ansi.StringWidth(long) <= width {
			line = long // the kind goes first when narrow: the state's word says it too
		}
		out = append(out, line)
	}
	return out
}

// summaryLines: the spread, the counts, resumes, the dominant phase and
// the boots-per-hour sparkline.
func (p *Pane) summaryLines(width int) []string {
	s := p.d.stats
	cold := "cold boots (24 h): none"
	if s.Count > 0 {
		cold = fmt.Sprintf("cold boots (24 h): %s", cell.Thousands(s.Count))
		if s.Served > 0 {
			cold += fmt.Sprintf(" · p50 %s · p95 %s · max %s", words.Duration(s.P50, words.Tenths), words.Duration(s.P95, words.Tenths), words.Duration(s.Max, words.Tenths))
		} else {
			cold += " · none served yet"
		}
		var extra []string
		if s.Live > 0 {
			extra = append(extra, fmt.Sprintf("%d live", s.Live))
		}
		if s.Abandoned > 0 {
			extra = append(extra, fmt.Sprintf("%d never served", s.Abandoned))
		}
		if len(extra) > 0 {
			cold += " (" + strings.Join(extra, ", ") + ")"
		}
	}
	counts := fmt.Sprintf("cold: %s in 1 h · %s in 24 h (from logs — the event list is too short to count)",
		cell.Thousands(s.PerHour), cell.Thousands(s.PerDay))

	r := s.Resumes
	resumes := "resumes (24 h): none"
	if r.Count > 0 {
		resumes = fmt.Sprintf("resumes (24 h): %s", cell.Thousands(r.Count))
		if r.Served > 0 {
			resumes += fmt.Sprintf(" · p50 %s · max %s", words.Duration(r.P50, words.Tenths), words.Duration(r.Max, words.Tenths))
		}
	}

	dominant := "where the time goes: " + s.DominantSentence()
	if lvl, ok := dominantLevel(s); ok {
		dominant = p.theme.Level(lvl).Render() + " " + s.DominantSentence()
	}
	lines := []string{cold, counts, resumes}
	if n := s.CrashRestarts; n > 0 {
		lines = append(lines, p.theme.Fail.Render(fmt.Sprintf("crash restarts (24 h): %s", cell.Thousands(n)))+
			" · starts that crashed or restarted after a crash, left out of the cold boots above")
	}
	return append(lines, dominant, p.sparkLine(width))
}

// sparkLine is boots per hour over 24 h, oldest left, with its peak.
func (p *Pane) sparkLine(width int) string {
	label := "boots/h "
	peak := 0
	for _, v := range p.d.perHour {
		peak = max(peak, v)
	}
	suffix := fmt.Sprintf(" 24 h → now · peak %d/h", peak)
	sw := min(len(p.d.perHour), max(width-ansi.StringWidth(label)-ansi.StringWidth(suffix), 8))
	return label + p.theme.Pass.Render(frame.Sparkline(p.d.perHour, sw)) + p.theme.Dim.Render(suffix)
}

// columns are the history list's fixed widths; the bar takes what is left.
type columns struct {
	id, begin, kind, total, bar int
}

const (
	gutterW   = 1
	idW       = 14
	beginW    = 8
	kindW     = 6
	totalW    = 8
	minBarW   = 6
	maxBarW   = 80
	columnGap = 1
)

// layoutColumns drops the begin time, then the kind, before the bar.
func layoutColumns(width int) columns {
	c := columns{id: idW, begin: beginW, kind: kindW, total: totalW}
	used := func() int {
		n := gutterW + c.id + c.total + columnGap
		if c.begin > 0 {
			n += c.begin + columnGap
		}
		if c.kind > 0 {
			n += c.kind + columnGap
		}
		return n
	}
	for _, drop := range []*int{&c.begin, &c.kind} {
		if width-used()-columnGap >= minBarW {
			break
		}
		*drop = 0
	}
	if bar := width - used() - columnGap; bar >= minBarW {
		c.bar = min(bar, maxBarW)
	}
	return c
}

// historyLines: a title with the position, column headers, the visible
// window of boots, and the legend of the selected boot.
func (p *Pane) historyLines(width, rows int, focused bool) []string {
	h := p.d.history
	last := min(p.offset+rows, len(h))

	c := layoutColumns(width)
	out := []string{p.theme.Dim.Render(historyTitle(len(h), p.offset, last, rows, width)),
		p.theme.TableHeader.Render(c.row(" ", "machine", "begin", "kind", "total", "phases"))}
	if len(h) == 0 {
		return append(out, p.theme.Dim.Render(" no finished boots yet"))
	}
	for i := p.offset; i < last; i++ {
		out = append(out, p.historyRow(h[i], c, focused && i == p.cursor))
	}
	return append(out, p.lay.legend[:p.lay.legendShown]...)
}

// historyTitle is the longest of its forms that fits the width.
func historyTitle(n, offset, last, rows, width int) string {
	count, window := cell.Thousands(n), ""
	if n > 0 && rows > 0 {
		window = fmt.Sprintf(" · %s–%s", cell.Thousands(offset+1), cell.Thousands(last))
	}
	forms := []string{
		"history · " + count + " boots in 24 h, newest first" + window,
		"history · " + count + " boots, newest first" + window,
		"history (24 h)" + window,
	}
	for _, f := range forms {
		if ansi.StringWidth(f) <= width {
			return f
		}
	}
	return forms[len(forms)-1]
}

func (p *Pane) historyRow(r historyRow, c columns, selected bool) string {
	kind := "cold"
	switch {
	case r.CrashRestart:
		kind = "crash"
	case r.Resume:
		kind = "resume"
	}
	total := words.Duration(r.Total, words.Tenths)
	switch r.Status {
	case bootLive:
		total = "≥" + total // still going: at least this long (an ellipsis would read as cut text)
	case bootAbandoned:
		total = "no serve"
	}
	gutter, id := " ", cell.Fit(r.Machine, c.id, cell.Left)
	if selected {
		gutter, id = "›", p.theme.Selected.Render(id)
	}
	bar := ""
	if c.bar > 0 {
		bar = renderBar(barCells(r.Segments, r.Total, p.d.maxTotal, c.bar), p.styleOf, p.theme.Dim)
	}
	return c.row(gutter, id, r.Begin.Format("15:04:05"), kind, total, bar)
}

// row joins cells at the column widths; hidden columns are skipped.
func (c columns) row(gutter, id, begin, kind, total, bar string) string {
	parts := []string{gutter + cell.Fit(id, c.id, cell.Left)}
	if c.begin > 0 {
		parts = append(parts, cell.Fit(begin, c.begin, cell.Left))
	}
	if c.kind > 0 {
		parts = append(parts, cell.Fit(kind, c.kind, cell.Left))
	}
	parts = append(parts, cell.Fit(total, c.total, cell.Right))
	if c.bar > 0 {
		parts = append(parts, cell.Cut(bar, c.bar))
	}
	return strings.Join(parts, " ")
}

// legendLine names each letter of the selected boot's bar with its time,
// then letters seen only in other boots.
func (p *Pane) legendLine(r historyRow) string {
	var parts []string
	shown := map[*legendEntry]bool{}
	for _, s := range r.Segments {
		d := words.Duration(s.Duration, words.Tenths)
		if s.StillGoing {
			d = "≥" + d // still going: at least this long
		}
		parts = append(parts, p.styleOf(s.Entry).Render(string(s.Entry.Letter))+" "+s.Name+" "+d)
		shown[s.Entry] = true
	}
	for _, e := range p.d.legend {
		if !shown[e] {
			parts = append(parts, p.styleOf(e).Render(string(e.Letter))+" "+e.Name)
		}
	}
	return strings.Join(parts, " · ")
}
