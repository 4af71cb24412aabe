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

	typing bool
	input  textinput.Model
	why    string // the jump that opened the view ("boot of …")
	jumped bool   // a ShowLogs set the filter: Open keeps it
	now    time.Time
}

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

// Title names the overlay, and the jump that opened it.
func (p *Pane) Title() string {
	if p.why != "" {
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
	p.follow = true
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
	if page > 0 { // not sized yet: the first SetSize places the window
		p.offset = scroll.Window(p.offset, p.cursor, page, n)
	}
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
	out := []key.Binding{pane.Relabel(k.LogFollow, "", follow), pane.Relabel(k.Filter, "", "regex"),
		k.LogMachine, k.LogRegion, k.LogProvider, k.LogLevel}
	if !p.filter.Empty() {
		out = append(out, k.LogClear)
	}
	return append(out, pane.Arrows(&k, "scroll"))
}

// Update handles the view's keys, the regex input and the scans' replies.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case pane.ShowLogs:
		p.why, p.jumped, p.follow = msg.Why, true, msg.To.IsZero()
		return p.setFilter(Filter{Machine: msg.Machine, Provider: msg.Provider, ProxyErrors: msg.ProxyErrors, From: msg.From, To: msg.To})
	case scanMsg:
		return p.onScan(msg)
	case tea.KeyMsg:
		if p.typing {
			return p.updateInput(msg)
		}
		return p.updateKey(msg)
	}
	return nil
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
		p.follow = !p.follow
		p.settle()
		return nil
	case key.Matches(km, k.LogClear):
		p.why, p.follow = "", true
		return p.setFilter(Filter{})
	case key.Matches(km, k.LogMachine):
		f.Machine = toggle(f.Machine, cur.Machine, haveCur)
		return p.setFilter(f)
	case key.Matches(km, k.LogRegion):
		f.Region = toggle(f.Region, cur.Region, haveCur)
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
		p.cursor = next
		// Moving off the newest line pauses; end (or moving onto it) follows.
		p.follow = next >= n-1
		p.settle()
	}
	return nil
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
	for i := p.offset; i < min(p.offset+page, n) && len(body) < page; i++ {
		text := p.render(p.line(i), w)
		if i == p.cursor {
			text = t.Selected.Render(cell.Fit(ansi.Strip(text), w, cell.Left))
		}
		body = append(body, text)
	}
	for len(body) < page {
		body = append(body, "")
	}
	out = append(out, body...)
	out = append(out, t.Dim.Render(p.position()))
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
		parts = append(parts, "time "+clock(f.From)+"–"+clock(f.To))
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

func clock(at time.Time) string {
	if at.IsZero() {
		return "…"
	}
	return at.UTC().Format("15:04:05")
}

// position is "lines 1–40 of 3,210 · 150,000 held".
func (p *Pane) position() string {
	n, page := p.shown(), p.page()
	s := "no lines"
	if n > 0 {
		s = fmt.Sprintf("lines %s–%s of %s", words.Thousands(p.offset+1), words.Thousands(min(p.offset+page, n)), words.Thousands(n))
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
	if !p.follow && n > 0 && p.cursor < n-1 {
		s += fmt.Sprintf(" · %s newer (space follows)", words.Thousands(n-1-p.cursor))
	}
	return s
}

// render draws one line as flyctl prints it: time, provider[machine],
// region, [level], message. The text is the model's, already inert.
func (p *Pane) render(l *diagnose.LogLine, w int) string {
	t := p.theme
	narrow := w < 120 // room for the message first: seconds, no [info]
	head := l.Time.UTC().Format("15:04:05.000")
	if narrow {
		head = l.Time.UTC().Format("15:04:05")
	}
	if !sameDay(l.Time, p.now) {
		head = l.Time.UTC().Format("01-02 15:04:05")
	}
	src := l.Provider
	if l.Machine != "" {
		src += "[" + l.Machine + "]"
	}
	level := ""
	if l.Level != "" && !(narrow && levelRank(l.Level) == 0) {
		style := t.Dim
		switch levelRank(l.Level) {
		case 1:
			style = t.Warn
		case 2:
			style = t.Fail
		}
		level = " " + style.Render("["+l.Level+"]")
	}
	region := ""
	if l.Region != "" {
		region = " " + l.Region
	}
	return cell.Fit(t.Dim.Render(head+" "+src+region)+level+" "+l.Message, w, cell.Left)
}

func sameDay(a, b time.Time) bool {
	if b.IsZero() {
		return true
	}
	ay, am, ad := a.UTC().Date()
	by, bm, bd := b.UTC().Date()
	return ay == by && am == bm && ad == bd
}
