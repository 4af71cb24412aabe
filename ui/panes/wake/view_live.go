package wake

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/theme"
)

// sideBySide is the width from which the histogram and the timeline sit
// next to each other instead of one above the other.
const sideBySide = 100

// shortID is how many cells of a machine id the timeline keeps when space
// is short.
const shortID = 8

// maxBarW keeps the progress bar readable on wide screens.
const maxBarW = 60

// liveLines draws the run in progress in at most height lines: phase,
// runs already over, progress, statuses, latency histogram, wake timeline.
func (p *Pane) liveLines(width, height int) []string {
	t := p.theme
	l := p.live
	if l == nil || height <= 0 {
		return nil
	}
	phase := l.phase
	if phase == "" {
		phase = "starting"
	}
	if p.stage == StageAborting {
		phase = "aborting: nothing more is sent; reading where each machine was left…"
	}
	head := p.bold.Render(fmt.Sprintf("%s run", l.mode))
	if l.runs > 1 {
		head += t.Dim.Render(fmt.Sprintf(" (%d of %d)", l.runIndex, l.runs))
	}
	head += " · " + phase
	clock := ""
	if l.firing {
		clock = t.Dim.Render("+" + waketest.FormatMS(l.clockMS))
	}
	lines := []string{rightAlign(head, clock, width)}
	for _, f := range l.finished {
		lines = append(lines, t.Dim.Render(theme.GlyphPass+" "+f))
	}

	pr := l.progress
	text := fmt.Sprintf(" %s/%s answered · %s ok · %s failed", cell.Thousands(pr.OK+pr.Failed), cell.Thousands(pr.Planned), cell.Thousands(pr.OK), cell.Thousands(pr.Failed))
	if cut := pr.Done - pr.OK - pr.Failed; cut > 0 { // in flight when aborted: no outcome
		text += " · " + cell.Thousands(cut) + " cut off"
	}
	lines = append(lines, progressBar(t, pr, min(max(width-ansi.StringWidth(text), 10), maxBarW))+text)
	lines = append(lines, p.statusLine(l.statuses))
	lines = append(lines, "")

	rest := max(height-len(lines), 0)
	if width >= sideBySide {
		histW := min(44, width/3)
		left := p.histogramLines(l, histW, rest)
		right := p.timelineLines(l, width-histW-3, rest)
		for i := 0; i < rest; i++ {
			lines = append(lines, cell.Fit(at(left, i), histW, cell.Left)+"   "+at(right, i))
		}
		return lines
	}
	histH := min(len(latencyBuckets)+1, rest)
	lines = append(lines, p.histogramLines(l, width, histH)...)
	return append(lines, p.timelineLines(l, width, rest-histH)...)
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// rightAlign puts right at the end of a width-wide line after left.
func rightAlign(left, right string, width int) string {
	rw := ansi.StringWidth(right)
	if rw == 0 {
		return left
	}
	return cell.Fit(left, max(width-rw-1, 0), cell.Left) + " " + right
}

// statusLine is "statuses  200×20  502×3", 2xx in the pass style.
func (p *Pane) statusLine(m map[string]int) string {
	t := p.theme
	s := t.Dim.Render("statuses ")
	if len(m) == 0 {
		return s + t.Dim.Render(" none yet")
	}
	for _, c := range sortedStatuses(m) {
		style := t.Fail
		if okStatus(c.key) {
			style = t.Pass
		}
		s += " " + style.Render(c.key+"×"+cell.Thousands(c.n))
	}
	return s
}

// histogramLines are a title and the latency bars, at most height lines.
func (p *Pane) histogramLines(l *live, width, height int) []string {
	if height <= 0 {
		return nil
	}
	title := p.theme.TableHeader.Render("LATENCY") + p.theme.Dim.Render(" platform time")
	if height == 1 {
		return []string{title}
	}
	bs := make([]frame.Bucket, len(latencyBuckets))
	for i, b := range latencyBuckets {
		bs[i] = frame.Bucket{Label: b.label, Count: l.latency[i]}
	}
	return append([]string{title}, strings.Split(frame.Histogram(bs, width, height-1), "\n")...)
}

// timelineLines are a title and one line per target, at most height lines.
func (p *Pane) timelineLines(l *live, width, height int) []string {
	if height <= 0 {
		return nil
	}
	t := p.theme
	lines := []string{t.TableHeader.Render("WAKE TIMELINE") + t.Dim.Render(" since the first request")}
	idW := 0
	for _, tr := range l.tracks {
		idW = max(idW, ansi.StringWidth(tr.id))
	}
	// Whole ids when the chains fit beside them; else a short prefix
	// (unique enough to tell the app's machines apart) so the words stay.
	for _, tr := range l.tracks {
		if ansi.StringWidth(p.chain(tr, false)) > width-idW-1 {
			idW = min(idW, shortID)
			break
		}
	}
	shown := l.tracks
	if len(shown) > height-1 {
		shown = shown[:max(height-2, 0)]
	}
	for _, tr := range shown {
		chain := p.chain(tr, false)
		if ansi.StringWidth(chain) > width-idW-1 {
			chain = p.chain(tr, true)
		}
		lines = append(lines, cell.Fit(tr.id, idW, cell.Left)+" "+chain)
	}
	if hidden := len(l.tracks) - len(shown); hidden > 0 && height > 1 {
		lines = append(lines, t.Dim.Render(fmt.Sprintf("… %d more machines", hidden)))
	}
	return lines
}

// chain is one target's state changes: asleep → starting → started →
// serving, with platform times; compact drops the state words.
func (p *Pane) chain(tr *track, compact bool) string {
	t := p.theme
	look := func(state string, ms int64) string {
		lk := t.State(state)
		s := lk.Glyph
		if !compact {
			s += " " + lk.Word
		}
		if ms >= 0 {
			s += " " + waketest.FormatMS(ms)
		}
		return lk.Style.Render(s)
	}
	first := tr.asleep
	if first == "" {
		first = tr.before
	}
	parts := []string{look(first, -1)}
	if tr.refused != "" {
		parts[0] += t.Fail.Render(" (suspend refused)")
	}
	sawStarted := false
	for _, s := range tr.steps {
		ms := s.at
		if s.state == "started" {
			if sawStarted {
				continue
			}
			sawStarted = true
			if tr.started >= 0 {
				ms = tr.started
			}
		}
		parts = append(parts, look(s.state, ms))
	}
	if !sawStarted && tr.started >= 0 {
		parts = append(parts, look("started", tr.started))
	}
	if tr.serving >= 0 {
		s := theme.GlyphPass
		if !compact {
			s += " serving"
		}
		parts = append(parts, t.Pass.Render(s+" "+waketest.FormatMS(tr.serving)))
	}
	return strings.Join(parts, t.Dim.Render(" → "))
}
