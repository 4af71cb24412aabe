package wake

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// resultLines are the finished (or aborted) test: the side-by-side table,
// optionally beside the previous saved result, then what the reader must
// know (notes, warnings, where machines were left) and where it was saved.
func (p *Pane) resultLines(width int) []string {
	t := p.theme
	r := p.report
	if r == nil {
		lines := []string{t.Fail.Render(theme.GlyphFail + " the wake test could not run")}
		if p.runErr != nil {
			lines = append(lines, wrap(p.errLine(p.runErr), width)...)
		}
		return lines
	}
	head := p.bold.Render("Wake test of "+r.App) + t.Dim.Render(fmt.Sprintf(" · %s · release %s · %s%s",
		r.Mode, words.Release(r.Release), r.URL, r.Path))
	lines := wrap(head, width)
	if !r.Representative {
		lines = append(lines, t.Fail.Render("NOT REPRESENTATIVE: every request was pinned with fly-force-instance-id"))
	}
	lines = append(lines, p.comparisonLines(r, "", width)...)
	if p.compare && p.previous != nil {
		lines = append(lines, p.comparisonLines(p.previous, "before: ", width)...)
	}
	switch {
	case r.Aborted:
		why := keys.Short(p.keys.Back) + " pressed: everything gathered until then is below"
		if p.runErr != nil && p.runErr.Error() != waketest.ErrAborted.Error() { // e.g. the total time limit
			why = p.errLine(p.runErr)
		}
		lines = append(lines, wrap(t.Fail.Render("ABORTED: ")+why, width)...)
	case p.runErr != nil:
		lines = append(lines, wrap(t.Fail.Render(theme.GlyphFail+" the test failed: ")+p.errLine(p.runErr), width)...)
	}
	lines = append(lines, "")

	runs, header := r.Runs, []string(nil)
	if p.compare && p.previous != nil {
		runs = append(append([]waketest.Run{}, p.previous.Runs...), r.Runs...)
		header, _ = waketest.Table(runs)
		for i := 1; i < len(header); i++ {
			when := "now "
			if i <= len(p.previous.Runs) {
				when = "before "
			}
			header[i] = when + header[i]
		}
	}
	lines = append(lines, p.tableLines(runs, header, width)...)
	lines = append(lines, "")
	if p.compare && p.previous != nil {
		pv := p.previous
		lines = append(lines, wrap(t.Dim.Render(fmt.Sprintf("before = the saved test of %s (release %s, %s%s)",
			pv.SavedWhen(), words.Release(pv.Release), pv.URL, pv.Path)), width)...)
	}

	lines = append(lines, p.machineLines(r, width)...)
	for _, run := range r.Runs {
		for _, n := range run.Notes {
			lines = append(lines, indentNote(p, fmt.Sprintf("note (%s): %s", run.Mode, n), width)...)
		}
		for _, id := range run.WokenUnserved {
			lines = append(lines, indentNote(p, fmt.Sprintf("note (%s): %s woke but served none of our requests "+
				"(other traffic woke it, or it was still booting when ours gave up)", run.Mode, id), width)...)
		}
	}
	for _, w := range r.Warnings {
		ws := indentWrap("warning: "+w, width, 2)
		ws[0] = t.Warn.Render("!") + ws[0][1:]
		lines = append(lines, ws...)
	}
	if r.Aborted {
		lines = append(lines, p.leftLines(r)...)
	}
	return append(lines, p.savedLine(width)...)
}

// comparisonLines say, above the table, why its figures cannot be read
// against each other (waketest.Report.Comparison); none when they can.
func (p *Pane) comparisonLines(r *waketest.Report, prefix string, width int) []string {
	ok, because, fix := r.Comparison()
	if ok {
		return nil
	}
	var lines []string
	for _, why := range because {
		lines = append(lines, wrap(p.theme.Fail.Render("NOT COMPARABLE: ")+prefix+why, width)...)
	}
	if fix != "" {
		lines = append(lines, wrap(p.theme.Warn.Render("to compare them: ")+fix, width)...)
	}
	return lines
}

func indentNote(p *Pane, s string, width int) []string {
	ws := indentWrap(s, width, 2)
	ws[0] = p.theme.Dim.Render("·") + ws[0][1:]
	return ws
}

// machineLines are each run's per-machine wake: what sleep reached, how
// it woke, when it reached started and when it first served us.
func (p *Pane) machineLines(r *waketest.Report, width int) []string {
	t := p.theme
	var lines []string
	for _, run := range r.Runs {
		if len(run.Machines) == 0 {
			continue
		}
		lines = append(lines, t.TableHeader.Render("MACHINES")+t.Dim.Render(" "+string(run.Mode)+" run, since the first request"))
		idW := 0
		for _, m := range run.Machines {
			idW = max(idW, ansi.StringWidth(m.ID))
		}
		for _, m := range run.Machines {
			ws := indentWrap(p.machineText(m), width, idW+2)
			ws[0] = cell.Fit(m.ID, idW, cell.Left) + ws[0][idW:]
			lines = append(lines, ws...)
		}
		lines = append(lines, "")
	}
	return lines
}

// machineText is one machine of a run: "○ stopped → cold boot, started
// 4.2 s → serving 26.1 s (12 of ours)".
func (p *Pane) machineText(m waketest.MachineRun) string {
	t := p.theme
	sep := t.Dim.Render(" → ")
	var parts []string
	switch {
	case !m.Target:
		parts = append(parts, t.Dim.Render("kept running"))
	case m.Slept != "":
		s := t.State(m.Slept).Render()
		if m.FellBackToStop {
			s += t.Fail.Render(" (suspend refused)")
		}
		parts = append(parts, s)
	case m.SleepError != "":
		parts = append(parts, t.Fail.Render("did not sleep: "+m.SleepError))
	default:
		parts = append(parts, t.Dim.Render("not put to sleep"))
	}
	if m.StartedMS >= 0 {
		wake := "started"
		if m.Wake != "" {
			wake = m.Wake + ", started"
		}
		parts = append(parts, t.State("started").Style.Render(wake+" "+waketest.FormatMS(m.StartedMS)))
	}
	switch {
	case m.ServingMS >= 0:
		parts = append(parts, t.Pass.Render(fmt.Sprintf("serving %s (%d of ours)", waketest.FormatMS(m.ServingMS), m.Served)))
	case m.Served > 0:
		parts = append(parts, t.Pass.Render(fmt.Sprintf("served %d of ours", m.Served)))
	}
	return strings.Join(parts, sep)
}

// leftLines say what state each target was left in after an abort.
func (p *Pane) leftLines(r *waketest.Report) []string {
	t := p.theme
	lines := []string{t.Fail.Render("machines were left as last seen:")}
	for i := len(r.Runs) - 1; i >= 0; i-- {
		if len(r.Runs[i].Machines) == 0 {
			continue
		}
		for _, m := range r.Runs[i].Machines {
			if m.Target {
				lines = append(lines, "  "+m.ID+"  "+t.State(m.After).Render())
			}
		}
		break
	}
	return lines
}

func (p *Pane) savedLine(width int) []string {
	t := p.theme
	switch {
	case p.saving:
		return []string{t.Dim.Render("saving…")}
	case p.saveErr != nil:
		return wrap(t.Fail.Render(theme.GlyphFail+" could not save the result: ")+p.errLine(p.saveErr), width)
	case p.savedPath != "":
		// The path is the environment's (the state directory), not the model's.
		return wrap(t.Dim.Render("saved ")+sanitize.Line(p.savedPath), width)
	}
	return nil
}

// maxColW keeps a run's column readable on wide screens.
const maxColW = 44

// tableLines lay waketest.Table out: a label column, then one wrapped
// column per run. header replaces the table's own when not nil.
func (p *Pane) tableLines(runs []waketest.Run, header []string, width int) []string {
	t := p.theme
	h, rows := waketest.Table(runs)
	if header == nil {
		header = h
	}
	labelW := 0
	for _, r := range rows {
		labelW = max(labelW, ansi.StringWidth(r.Label))
	}
	n := max(len(runs), 1)
	colW := min(max((width-labelW-2*n)/n, 8), maxColW)
	var lines []string
	emit := func(label string, cells []string, head bool) {
		wrapped := make([][]string, len(cells))
		tall := 1
		for i, c := range cells {
			wrapped[i] = wrap(c, colW)
			tall = max(tall, len(wrapped[i]))
		}
		for j := 0; j < tall; j++ {
			l := ""
			if j == 0 {
				l = label
			}
			line := cell.Fit(t.Dim.Render(l), labelW, cell.Left)
			for i := range cells {
				c := at(wrapped[i], j)
				if head {
					c = t.TableHeader.Render(c)
				}
				line += "  " + cell.Fit(c, colW, cell.Left)
			}
			lines = append(lines, strings.TrimRight(line, " "))
		}
	}
	emit("", header[1:], true)
	for _, r := range rows {
		emit(r.Label, r.Cells, false)
	}
	return lines
}
