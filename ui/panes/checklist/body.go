package checklist

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/ui/components/cell"
)

// statusCells is the width of the status look: "? unknown" is the longest.
const statusCells = 9

// span is the body lines [start, end) one item takes.
type span struct{ start, end int }

// body lays out what the items judge, the project's findings, then every
// item: its head row and, when expanded, its evidence, what the deploy
// changes, the running-machine note and the fix, wrapped to width.
func (p *Pane) body(width int, focused bool) ([]string, []span) {
	lines := p.preamble(width)
	spans := make([]span, len(p.items))
	for i, it := range p.items {
		start := len(lines)
		cursor := it.ID == p.cursorID
		open := p.expanded[it.ID]
		lines = append(lines, p.head(i, it, width, cursor, cursor && focused, open))
		if open {
			lines = append(lines, p.detail(it, width)...)
		}
		spans[i] = span{start, len(lines)}
	}
	return lines, spans
}

// preamble is the line saying what the items judge (the project beside
// the deployed release, or the deployed release alone) and the project
// files' findings, each listed once with its line.
func (p *Pane) preamble(width int) []string {
	var out []string
	for _, l := range hanging("  ", p.report.SubjectLine(false), width) {
		out = append(out, p.theme.Dim.Render(l))
	}
	for _, f := range p.report.Findings {
		look, src := p.theme.Level(f.Status), f.Source()
		ls := hanging("  "+look.Glyph+" ", src+"  "+f.Text, width)
		if rest, ok := strings.CutPrefix(ls[0], "  "+look.Glyph+" "+src); ok {
			ls[0] = "  " + look.Style.Render(look.Glyph) + " " + p.theme.Dim.Render(src) + rest
		}
		out = append(out, ls...)
	}
	return out
}

// head is one item's row: cursor, fold mark, number, status look, title,
// what it judges when that is the deployed release, and a dim hint when
// the item waits for a running machine.
func (p *Pane) head(i int, it checklist.Item, width int, cursor, highlight, open bool) string {
	gutter, fold := " ", "▸"
	if cursor {
		gutter = "›"
	}
	if open {
		fold = "▾"
	}
	look := p.theme.Level(it.Status)
	status := look.Render() + strings.Repeat(" ", max(statusCells-ansi.StringWidth(look.Plain()), 0))
	prefix := gutter + fold + " " + strconv.Itoa(i+1) + " " + status + " "
	room := width - ansi.StringWidth(prefix)
	if room <= 0 {
		return cell.Fit(prefix, width, cell.Left)
	}
	title := ansi.Truncate(it.Title, room, cell.Ellipsis)
	rest := room - ansi.StringWidth(title)
	if highlight {
		title = p.theme.Selected.Render(title)
	}
	if l := checklist.JudgesLabel(it); l != "" {
		if tag := " · " + l; ansi.StringWidth(tag) <= rest {
			title += p.theme.Dim.Render(tag)
			rest -= ansi.StringWidth(tag)
		}
	}
	if waiting(it) && !open {
		if hint := "  · waits for a running machine"; ansi.StringWidth(hint) <= rest {
			title += p.theme.Dim.Render(hint)
		}
	}
	return prefix + title
}

// waiting: the item has no answer until a running machine is probed.
func waiting(it checklist.Item) bool {
	return it.NeedsRunningMachine && it.Status == checklist.Unknown
}

// detail is the expanded part of an item, indented under its title.
func (p *Pane) detail(it checklist.Item, width int) []string {
	indent := 6
	if width < 40 {
		indent = 2
	}
	w := width - indent
	if w < 8 {
		indent, w = 0, width
	}
	pad := strings.Repeat(" ", indent)
	var out []string
	add := func(ls ...string) {
		for _, l := range ls {
			out = append(out, pad+l)
		}
	}
	if len(it.Evidence) == 0 {
		add(p.theme.Dim.Render("no evidence gathered"))
	}
	for _, f := range it.Evidence {
		add(p.fact(f, w)...)
	}
	if len(it.Changes) > 0 {
		add(p.label.Render("this deploy changes"))
		for _, c := range it.Changes {
			add(p.fact(checklist.Fact{Text: checklist.ChangeText(c), Source: c.Source}, w)...)
		}
	}
	if it.NeedsRunningMachine {
		note := hanging("? ", waitNote(p.machines, it.Status != checklist.Unknown), w)
		for i := range note {
			note[i] = p.theme.Unknown.Render(note[i])
		}
		add(note...)
	}
	if it.Fix != "" {
		fix := hanging("fix ", it.Fix, w)
		fix[0] = p.label.Render("fix") + strings.TrimPrefix(fix[0], "fix")
		add(fix...)
	}
	return out
}

// fact is one piece of evidence with its source in dim: at the end of the
// last line when it fits there, else on lines of its own.
func (p *Pane) fact(f checklist.Fact, w int) []string {
	lines := hanging("· ", f.Text, w)
	src := f.Source
	if src == "" {
		return lines
	}
	last := len(lines) - 1
	if ansi.StringWidth(lines[last])+2+ansi.StringWidth(src) <= w {
		lines[last] += "  " + p.theme.Dim.Render(src)
		return lines
	}
	for _, l := range hanging("  ", src, w) {
		lines = append(lines, p.theme.Dim.Render(l))
	}
	return lines
}

// hanging wraps text to w cells with prefix on the first line and as many
// spaces on the others. Styling is applied by callers line by line, so no
// escape sequence ever spans a line break.
func hanging(prefix, text string, w int) []string {
	pw := ansi.StringWidth(prefix)
	tw := max(w-pw, 1)
	lines := wrapWords(text, tw)
	indent := strings.Repeat(" ", pw)
	for i, l := range lines {
		l = strings.TrimRight(l, " ")
		if i == 0 {
			lines[i] = prefix + l
		} else {
			lines[i] = indent + l
		}
	}
	return lines
}

// wrapWords wraps plain text at spaces only: a hyphen inside a command
// such as `--workers-max-rss` is no place to break a line someone may
// copy. A word wider than w is cut hard.
func wrapWords(text string, w int) []string {
	var lines []string
	line, lineW := "", 0
	for _, word := range strings.Fields(text) {
		ww := ansi.StringWidth(word)
		if ww > w {
			if lineW > 0 {
				lines = append(lines, line)
			}
			chunks := strings.Split(ansi.Hardwrap(word, w, false), "\n")
			lines = append(lines, chunks[:len(chunks)-1]...)
			word = chunks[len(chunks)-1]
			line, lineW = word, ansi.StringWidth(word)
			continue
		}
		switch {
		case lineW == 0:
			line, lineW = word, ww
		case lineW+1+ww <= w:
			line, lineW = line+" "+word, lineW+1+ww
		default:
			lines = append(lines, line)
			line, lineW = word, ww
		}
	}
	return append(lines, line)
}

// waitNote says why an item waits for a running machine; partial when the
// item already has an answer that a probe would complete.
func waitNote(m machineState, partial bool) string {
	subject := "needs a running machine"
	if partial {
		subject = "part of this item needs a running machine"
	}
	switch m {
	case machinesSomeStarted:
		return subject + " — one is started; the item updates by itself when its probe answers."
	case machinesNotListed:
		return subject + " — no machine listing yet; flywake never wakes one to look. Start one (or run the wake test) and the item updates by itself."
	}
	return subject + " — none is started; flywake never wakes one to look. Start one (or run the wake test) and the item updates by itself."
}
