// Package logs is the app-wide logs view: the lines the model holds (the
// logs feed pages them in; snapshot.App.Logs), live, following the newest
// or paused, filtered by machine, region, provider, level, a time window and
// a `/` regular expression. Other panes jump here with pane.ShowLogs (a
// machine's drill-down, a boot in the cold-start history, the Traffic pane's
// lost requests).
//
// It never copies the lines: it keeps the model's slice and, while a filter
// is set, the indexes of the lines that pass (at most snapshot.MaxLogLines
// ints, 1.2 MB). A filter change scans in a command, off Update, and a
// newer keystroke cancels the scan it overtakes; lines that arrive later are
// matched as they come.
package logs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// ID is the logs view's pane ID.
const ID pane.ID = "logs"

// Pane is the logs overlay. Build it with New.
type Pane struct {
	pane.Base
	theme *theme.Theme
	keys  keys.KeyMap

	lines []diagnose.LogLine // the model's, never written

	filter Filter
	comp   compiled
	reErr  error
	// Indexes count from the first line this pane saw: lines[0] is base.
	// While a filter is set, match holds the indexes below scanned that
	// pass; a scan in flight (gen) will fill the rest.
	base     int
	match    []int
	scanned  int
	gen      int
	scanning bool
	cancel   context.CancelFunc

	// A cursor and a window (scroll.Window), not a bubbles/viewport: a
	// viewport holds its content as lines of its own, and this view must
	// not copy up to snapshot.MaxLogLines lines on every change.
	cursor int  // index into the shown lines
	follow bool // the cursor stays on the newest line
	offset int  // first shown line on screen

	// pausedAt is where the lines stood (an absolute index, one past the
	// newest held) when the view last paused: what came since is new.
	pausedAt int

	// How lines are drawn: wrapped to the width, or cut and scrolled
	// sideways by shift cells (wrap off); with their times or without.
	wrap    bool
	noTimes bool
	shift   int
	note    string // why the last key did nothing here, until the next key
	typing  bool
	input   textinput.Model
	why     string // the jump that opened the view ("boot of …")
	jump    Filter // the filter that jump set: the title names it while it holds
	jumped  bool   // a ShowLogs set the filter: Open keeps it
	now     time.Time
}

// shiftStep is how far ← and → move the messages sideways.
const shiftStep = 20

var _ pane.Overlay = (*Pane)(nil)

// scanMsg is a filter scan's result over lines[from:to].
type scanMsg struct {
	gen   int
	from  int   // absolute: where it began (the pane's scanned then)
	to    int   // the lines it matched end here (absolute)
	match []int // absolute indexes
	ok    bool
}

// New builds the view.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	in := t.NewInput("/")
	in.Placeholder = "regular expression (case-insensitive)"
	in.CharLimit = 200
	return &Pane{theme: t, keys: km, follow: true, input: in}
}

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// Title names the overlay, and the jump that opened it while its filter
// holds (after M shows every machine, the title no longer names one).
func (p *Pane) Title() string {
	if p.why != "" && p.filter == p.jump {
		return "Logs · " + p.why
	}
	return "Logs"
}

// Open shows every line, following, unless a jump just set the filter.
func (p *Pane) Open() tea.Cmd {
	if p.jumped {
		p.jumped = false
		return nil
	}
	p.why = ""
	p.setFollow(true)
	if !p.filter.Empty() {
		return p.setFilter(Filter{})
	}
	p.settle()
	return nil
}

// CanClose: esc closes unless it is ending the regex input.
func (p *Pane) CanClose() bool { return !p.typing }

// Capturing while the regex is typed.
func (p *Pane) Capturing() bool { return p.typing }

// SetData takes the model's lines and matches the new ones. The model
// appends, and now and then drops its oldest tenth (it keeps
// snapshot.MaxLogLines); indexes here count from the first line seen, so a
// drop only shifts them. New lines are matched here: one fetch brings at
// most watch.MaxLogPages pages (BenchmarkCatchUp measures the worst case).
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	p.now = now
	if a == nil {
		return
	}
	lines := a.Logs()
	if d, ok := dropped(p.lines, lines); ok {
		p.base += d
		if p.filter.Empty() {
			p.cursor -= d
			p.offset -= d
		}
		if !p.filter.Empty() {
			cut, _ := slices.BinarySearch(p.match, p.base)
			p.match = p.match[cut:]
			p.cursor, p.offset = p.cursor-cut, p.offset-cut
		}
	} else {
		p.base, p.match, p.scanned = 0, nil, 0 // another app's lines, or lost track
	}
	p.lines = lines
	p.scanned = max(p.scanned, p.base)
	if !p.filter.Empty() && !p.scanning {
		p.catchUp()
	}
	p.settle()
}

// dropped is how many lines the model dropped from the front between old
// and lines (0 when it only appended); false when lines does not continue old.
func dropped(old, lines []diagnose.LogLine) (int, bool) {
	switch {
	case len(old) == 0:
		return 0, true
	case len(lines) == 0:
		return 0, false
	case &lines[0] == &old[0]:
		return 0, true
	}
	first := lines[0]
	j, _ := slices.BinarySearchFunc(old, first.Time, func(l diagnose.LogLine, t time.Time) int { return l.Time.Compare(t) })
	for ; j < len(old) && old[j].Time.Equal(first.Time); j++ {
		if old[j] == first {
			return j, true
		}
	}
	return 0, false
}

// catchUpMax bounds the lines matched inside Update (SetData, a scan's
// reply): a logs page is at most 1,000 lines; only the first fetch of a
// day brings more, and those are matched a slice per refresh, or in a
// command when a scan's reply finds them.
const catchUpMax = 2_000

// catchUp matches up to catchUpMax of the lines that arrived after the
// last scan; behind() says how many are left.
func (p *Pane) catchUp() {
	from := p.scanned - p.base
	to := min(len(p.lines), from+catchUpMax)
	m, _ := scan(context.Background(), p.lines, from, to, p.comp)
	for _, i := range m {
		p.match = append(p.match, i+p.base)
	}
	p.scanned = p.base + to
}

// behind is how many held lines the filter has not matched yet.
func (p *Pane) behind() int {
	if p.filter.Empty() {
		return 0
	}
	return p.base + len(p.lines) - p.scanned
}

// scanCmd matches the lines from scanned on against the filter, in a
// command: a newer filter cancels it, and its reply is dropped.
func (p *Pane) scanCmd() tea.Cmd {
	if p.cancel != nil {
		p.cancel()
	}
	p.gen++
	p.scanning = true
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	gen, lines, comp, base, from := p.gen, p.lines, p.comp, p.base, p.scanned-p.base
	return func() tea.Msg {
		m, ok := scan(ctx, lines, from, len(lines), comp)
		for i := range m {
			m[i] += base
		}
		return scanMsg{gen: gen, from: base + from, to: base + len(lines), match: m, ok: ok}
	}
}

// setFilter changes the filter and starts matching.
func (p *Pane) setFilter(f Filter) tea.Cmd {
	p.filter = f
	p.comp, p.reErr = compile(f)
	p.cursor, p.offset = 0, 0
	if f.Empty() {
		if p.cancel != nil {
			p.cancel()
		}
		p.scanning, p.match, p.scanned = false, nil, 0
		p.gen++
		p.settle()
		return nil
	}
	p.match, p.scanned = nil, p.base
	cmd := p.scanCmd()
	p.settle()
	return cmd
}

// shown is how many lines pass the filter (so far, while scanning).
func (p *Pane) shown() int {
	if p.filter.Empty() {
		return len(p.lines)
	}
	return len(p.match)
}

// line is the i-th shown line.
func (p *Pane) line(i int) *diagnose.LogLine {
	if p.filter.Empty() {
		return &p.lines[i]
	}
	return &p.lines[p.match[i]-p.base]
}

// page is the body's height: the size less the filter bar and the position
// line (and the input while typing).
func (p *Pane) page() int {
	_, h := p.Size()
	h -= 2
	if p.typing {
		h--
	}
	return max(h, 0)
}

// settle clamps the cursor (to the newest line while following) and keeps
// it on screen.
func (p *Pane) settle() {
	n, page := p.shown(), p.page()
	if p.follow {
		p.cursor = n - 1
	}
	p.cursor = min(max(p.cursor, 0), max(n-1, 0))
	switch {
	case page <= 0: // not sized yet: the first SetSize places the window
	case p.wrap:
		p.offset = p.wrapWindow(page, n)
	default:
		p.offset = scroll.Window(p.offset, p.cursor, page, n)
	}
}

// wrapWindow is the first line on screen when lines wrap: the cursor's
// line in view, as near the old offset as it can be, and no blank rows
// after the last line.
func (p *Pane) wrapWindow(page, n int) int {
	if n == 0 {
		return 0
	}
	w, _ := p.Size()
	rows := func(i int) int { return len(p.rows(p.line(i), w)) }
	off := min(max(p.offset, 0), p.cursor)
	used := 0
	for i := off; i <= p.cursor; i++ {
		used += rows(i)
	}
	for used > page && off < p.cursor {
		used -= rows(off)
		off++
	}
	// Fill the page from the end when the last lines leave rows blank.
	for i := p.cursor + 1; i < n && used < page; i++ {
		used += rows(i)
	}
	for off > 0 && used+rows(off-1) <= page {
		off--
		used += rows(off)
	}
	return off
}

// setFollow follows the newest line, or pauses, noting where the lines
// stood so the lines that arrive after are counted as new.
func (p *Pane) setFollow(on bool) {
	if p.follow && !on {
		p.pausedAt = p.base + len(p.lines)
	}
	p.follow = on
}

// arrived is how many shown lines came in since the view paused.
func (p *Pane) arrived() int {
	if p.follow {
		return 0
	}
	if p.filter.Empty() {
		return max(p.base+len(p.lines)-max(p.pausedAt, p.base), 0)
	}
	i, _ := slices.BinarySearch(p.match, p.pausedAt)
	return len(p.match) - i
}

// SetSize keeps the cursor on screen at the new size.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.input.Width = max(width-3, 1)
	p.settle()
}

// Height: as much as it is given (a logs view has no natural height).
func (p *Pane) Height(int) int { return max(p.shown(), 1) + 2 }

// Keys that act now.
func (p *Pane) Keys() []key.Binding {
	k := p.keys
	if p.typing {
		return []key.Binding{pane.Relabel(k.Enter, "", "keep"), pane.Relabel(k.Back, "", "cancel")}
	}
	follow := "pause"
	if !p.follow {
		follow = "follow"
	}
	wrap := "wrap"
	if p.wrap {
		wrap = "cut lines"
	}
	times := "no times"
	if p.noTimes {
		times = "times"
	}
	out := []key.Binding{pane.Relabel(k.LogFollow, "", follow), pane.Relabel(k.Filter, "", "regex"),
		k.LogMachine, k.LogRegion, k.LogProvider, k.LogLevel}
	if !p.filter.Empty() {
		out = append(out, k.LogClear)
	}
	out = append(out, pane.Relabel(k.LogWrap, "", wrap), pane.Relabel(k.LogTime, "", times))
	if p.shown() > 0 {
		out = append(out, pane.Relabel(k.Copy, "", "copy line"))
	}
	out = append(out, pane.Arrows(&k, "scroll"))
	if !p.wrap {
		out = append(out, keys.Pair(k.Left, k.Right, "sideways"))
	}
	return out
}

// Update handles the view's keys, the regex input and the scans' replies.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case pane.ShowLogs:
		p.why, p.jumped = msg.Why, true
		p.setFollow(msg.To.IsZero())
		p.jump = Filter{Machine: msg.Machine, Provider: msg.Provider, ProxyErrors: msg.ProxyErrors, From: msg.From, To: msg.To}
		return p.setFilter(p.jump)
	case scanMsg:
		return p.onScan(msg)
	case tea.KeyMsg:
		if p.typing {
			return p.updateInput(msg)
		}
		p.note = ""
		return p.updateKey(msg)
	case tea.MouseMsg:
		if step := pane.Wheel(msg); step != 0 && p.shown() > 0 {
			p.moveTo(p.cursor + step)
		}
	}
	return nil
}

// moveTo puts the cursor on line i (clamped); moving off the newest line
// pauses, moving onto it follows.
func (p *Pane) moveTo(i int) {
	n := p.shown()
	p.cursor = min(max(i, 0), max(n-1, 0))
	p.setFollow(p.cursor >= n-1)
	p.settle()
}

func (p *Pane) onScan(msg scanMsg) tea.Cmd {
	if msg.gen != p.gen || !msg.ok || msg.from != p.scanned {
		return nil // overtaken by a newer filter
	}
	p.scanning = false
	cut, _ := slices.BinarySearch(msg.match, p.base) // lines dropped while it ran
	p.match = append(p.match, msg.match[cut:]...)
	p.scanned = max(msg.to, p.base)
	defer p.settle()
	if p.behind() > catchUpMax {
		return p.scanCmd() // many arrived while it ran: the tail in a command too
	}
	p.catchUp()
	return nil
}

func (p *Pane) updateInput(km tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(km, p.keys.Enter):
		p.typing = false
		p.input.Blur()
		p.settle()
		return nil
	case key.Matches(km, p.keys.Back):
		p.typing = false
		p.input.Blur()
		f := p.filter
		f.Regex = ""
		return p.setFilter(f)
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(km)
	if v := p.input.Value(); v != p.filter.Regex {
		f := p.filter
		f.Regex = v
		return tea.Batch(cmd, p.setFilter(f))
	}
	return cmd
}

func (p *Pane) updateKey(km tea.KeyMsg) tea.Cmd {
	k := p.keys
	f := p.filter
	cur, haveCur := p.current()
	switch {
	case key.Matches(km, k.Filter):
		p.typing = true
		p.input.SetValue(f.Regex)
		p.input.CursorEnd()
		p.settle()
		return p.input.Focus()
	case key.Matches(km, k.LogFollow):
		p.setFollow(!p.follow)
		p.settle()
		return nil
	case key.Matches(km, k.LogClear):
		if p.filter.Empty() && p.follow && p.why == "" {
			p.note = "no filter to clear: every line is shown"
			return nil
		}
		p.why = ""
		p.setFollow(true)
		return p.setFilter(Filter{})
	case key.Matches(km, k.LogWrap):
		p.wrap, p.shift = !p.wrap, 0
		p.settle()
		return nil
	case key.Matches(km, k.LogTime):
		p.noTimes = !p.noTimes
		p.settle()
		return nil
	case key.Matches(km, k.Copy):
		if !haveCur {
			p.note = "no line to copy"
			return nil
		}
		c := pane.CopyText{Text: ansi.Strip(p.plain(&cur)), What: "log line"}
		return func() tea.Msg { return c }
	case key.Matches(km, k.Left), key.Matches(km, k.Right):
		p.sideways(key.Matches(km, k.Right))
		return nil
	case key.Matches(km, k.LogMachine):
		if f.Machine = toggle(f.Machine, cur.Machine, haveCur); f == p.filter {
			p.note = nothingToPick(haveCur, "machine")
			return nil
		}
		return p.setFilter(f)
	case key.Matches(km, k.LogRegion):
		if f.Region = toggle(f.Region, cur.Region, haveCur); f == p.filter {
			p.note = nothingToPick(haveCur, "region")
			return nil
		}
		return p.setFilter(f)
	case key.Matches(km, k.LogProvider):
		f.Provider = nextOf(providers, f.Provider)
		return p.setFilter(f)
	case key.Matches(km, k.LogLevel):
		f.MinLevel = (f.MinLevel + 1) % len(levelNames)
		return p.setFilter(f)
	}
	n := p.shown()
	if next, ok := k.Scroll(km, p.cursor, p.page(), n-1); ok {
		// Moving off the newest line pauses; end (or moving onto it) follows.
		p.moveTo(next)
	}
	return nil
}

// sideways scrolls the messages right (or back left) by shiftStep cells,
// as far as the longest message on screen needs; with wrapping on there
// is nothing off to the side, and the note says so.
func (p *Pane) sideways(right bool) {
	if p.wrap {
		p.note = "lines wrap: nothing is off to the side (" + p.keys.LogWrap.Help().Key + " cuts them again)"
		return
	}
	if !right {
		if p.shift == 0 {
			p.note = "at the start of the lines"
		}
		p.shift = max(p.shift-shiftStep, 0)
		return
	}
	w, _ := p.Size()
	widest := 0
	for i := p.offset; i < min(p.offset+p.page(), p.shown()); i++ {
		l := p.line(i)
		widest = max(widest, ansi.StringWidth(p.head(l, w, false))+1+ansi.StringWidth(l.Message))
	}
	if p.shift+w >= widest {
		p.note = "the lines on screen end here"
		return
	}
	p.shift += shiftStep
}

// current is the line under the cursor.
func (p *Pane) current() (diagnose.LogLine, bool) {
	if p.cursor < 0 || p.cursor >= p.shown() {
		return diagnose.LogLine{}, false
	}
	return *p.line(p.cursor), true
}

// toggle sets a filter field to the cursor line's value, or clears it.
func toggle(cur, value string, have bool) string {
	if cur != "" || !have {
		return ""
	}
	return value
}

// nothingToPick is why M or R left the filter as it was: no line under
// the cursor, or one that names no machine (the proxy's) or region.
func nothingToPick(haveCur bool, what string) string {
	if !haveCur {
		return "no line under the cursor to take a " + what + " from"
	}
	return "the line under the cursor names no " + what
}

var providers = []string{"", "app", "runner", "proxy", "health"}

func nextOf(list []string, cur string) string {
	i := slices.Index(list, cur)
	return list[(i+1)%len(list)]
}

// View draws the filter bar, the lines and the position.
func (p *Pane) View(bool, time.Time) string {
	w, h := p.Size()
	if w <= 0 || h <= 0 {
		return ""
	}
	t := p.theme
	out := []string{cell.Fit(p.filterBar(), w, cell.Left)}
	if p.typing {
		out = append(out, cell.Fit(p.input.View(), w, cell.Left))
	}
	page, n := p.page(), p.shown()
	body := make([]string, 0, page)
	switch {
	case len(p.lines) == 0:
		body = append(body, t.Dim.Render("no log lines read yet: the logs feed pages them in"))
	case n == 0 && p.scanning:
		body = append(body, t.Dim.Render("filtering…"))
	case n == 0:
		body = append(body, t.Dim.Render(fmt.Sprintf("no line of the %s held passes the filter", words.Count(len(p.lines), "line", "lines"))))
	}
	last := p.offset
	for i := p.offset; i < n && len(body) < page; i++ {
		rows := p.rows(p.line(i), w)
		for _, text := range rows[:min(len(rows), page-len(body))] {
			if i == p.cursor {
				text = t.Selected.Render(cell.Fit(ansi.Strip(text), w, cell.Left))
			}
			body = append(body, text)
		}
		last = i + 1
	}
	for len(body) < page {
		body = append(body, "")
	}
	out = append(out, body...)
	out = append(out, t.Dim.Render(p.position(last)))
	block := cell.Block(strings.Join(out, "\n"), w, h)
	if p.Stale() {
		return pane.Dim(t, block)
	}
	return block
}

// filterBar names every filter set, and whether the view follows.
func (p *Pane) filterBar() string {
	t, f := p.theme, p.filter
	var parts []string
	if p.follow {
		parts = append(parts, t.Pass.Render("● following"))
	} else {
		parts = append(parts, t.Warn.Render("‖ paused"))
	}
	if f.Machine != "" {
		parts = append(parts, "machine "+f.Machine)
	}
	if f.Region != "" {
		parts = append(parts, "region "+f.Region)
	}
	if f.Provider != "" {
		parts = append(parts, "provider "+f.Provider)
	}
	if f.ProxyErrors {
		parts = append(parts, "the proxy's error lines")
	}
	if f.MinLevel > 0 {
		parts = append(parts, "level "+levelNames[f.MinLevel])
	}
	if !f.From.IsZero() || !f.To.IsZero() {
		parts = append(parts, "time "+p.clock(f.From)+"–"+p.clock(f.To))
	}
	if f.Regex != "" {
		re := "/" + f.Regex
		if p.reErr != nil {
			re += t.Warn.Render(" (not a regexp: matched as text)")
		}
		parts = append(parts, re)
	}
	if len(parts) == 1 {
		parts = append(parts, t.Dim.Render("all lines"))
	}
	return strings.Join(parts, " · ")
}

// clock is a time filter's end, with its date when it is not today's
// ("Nov 29 20:02:24"): the window of yesterday's boot reads as yesterday.
func (p *Pane) clock(at time.Time) string {
	if at.IsZero() {
		return "…"
	}
	return words.Clock(at, p.now)
}

// position is "lines 1–40 of 3,210 · 150,000 held"; last is one past the
// last line on screen.
func (p *Pane) position(last int) string {
	n := p.shown()
	s := "no lines"
	if n > 0 {
		s = fmt.Sprintf("lines %s–%s of %s", words.Thousands(p.offset+1), words.Thousands(min(last, n)), words.Thousands(n))
	}
	if !p.filter.Empty() {
		s += " · " + words.Thousands(len(p.lines)) + " held"
	}
	if n := p.behind(); p.scanning || n > 0 {
		s += " · filtering…"
		if n > 0 && !p.scanning {
			s += " (" + words.Thousands(n) + " to go)"
		}
	}
	if a := p.arrived(); a > 0 {
		s += fmt.Sprintf(" · %s since you paused (%s follows)", words.Count(a, "new line", "new lines"), p.keys.LogFollow.Help().Key)
	}
	if p.shift > 0 {
		s += fmt.Sprintf(" · from cell %d of the messages (%s back)", p.shift+1, p.keys.Left.Help().Key)
	}
	if p.note != "" {
		s = p.note + " · " + s
	}
	return s
}

// head is what comes before a line's message, as flyctl prints it: time
// (unless times are off), provider[machine], region, [level]; styled
// unless plain.
func (p *Pane) head(l *diagnose.LogLine, w int, plain bool) string {
	t := p.theme
	narrow := w < 120 // room for the message first: seconds, no [info]
	var parts []string
	if !p.noTimes {
		switch {
		case !sameDay(l.Time, p.now):
			parts = append(parts, words.Clock(l.Time, p.now))
		case narrow:
			parts = append(parts, l.Time.UTC().Format("15:04:05"))
		default:
			parts = append(parts, l.Time.UTC().Format("15:04:05.000"))
		}
	}
	src := l.Provider
	if l.Machine != "" {
		src += "[" + l.Machine + "]"
	}
	parts = append(parts, src)
	if l.Region != "" {
		parts = append(parts, l.Region)
	}
	head := strings.Join(parts, " ")
	if !plain {
		head = t.Dim.Render(head)
	}
	if l.Level != "" && !(narrow && levelRank(l.Level) == 0) {
		style := t.Dim
		switch levelRank(l.Level) {
		case 1:
			style = t.Warn
		case 2:
			style = t.Fail
		}
		level := "[" + l.Level + "]"
		if !plain {
			level = style.Render(level)
		}
		head += " " + level
	}
	return head
}

// plain is a line as text, for the clipboard: its time always, and every
// part of it, unstyled.
func (p *Pane) plain(l *diagnose.LogLine) string {
	src := l.Provider
	if l.Machine != "" {
		src += "[" + l.Machine + "]"
	}
	parts := []string{l.Time.UTC().Format(time.RFC3339Nano), src}
	if l.Region != "" {
		parts = append(parts, l.Region)
	}
	if l.Level != "" {
		parts = append(parts, "["+l.Level+"]")
	}
	return strings.Join(append(parts, l.Message), " ")
}

// rows draws one line in the rows it takes at width w: wrapped (the
// message continues indented under it), or one row cut at the width, its
// message scrolled sideways by shift cells. The text is the model's,
// already inert.
func (p *Pane) rows(l *diagnose.LogLine, w int) []string {
	head := p.head(l, w, false)
	if p.wrap {
		return cell.Wrap(head+" "+l.Message, w, 2)
	}
	msg := l.Message
	if p.shift > 0 {
		msg = cell.Ellipsis + ansi.Cut(msg, p.shift, ansi.StringWidth(msg))
	}
	return []string{cell.Fit(head+" "+msg, w, cell.Left)}
}

func sameDay(a, b time.Time) bool {
	if b.IsZero() {
		return true
	}
	ay, am, ad := a.UTC().Date()
	by, bm, bd := b.UTC().Date()
	return ay == by && am == bm && ad == bd
}
