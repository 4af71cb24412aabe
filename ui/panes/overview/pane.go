// Package overview is the org overview: every app the token sees, one row
// each, worst first — machines by state, crash loops, cold boots a day and
// their p95, the share of requests lost between the edge and the app over
// the last hour and day, the socket backlog — so the engineer paged at 3 a.m.
// sees which app is on fire before opening one. enter opens the app; esc
// (from the app's dashboard) comes back. It reads the root's org model
// (snapshot.Org), handed with SetOrgData; the org feeds fill it.
package overview

import (
	"fmt"
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
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// ID is the overview's pane ID.
const ID pane.ID = "overview"

// Pane is the org overview overlay. Build it with New.
type Pane struct {
	pane.Base
	theme    *theme.Theme
	keys     keys.KeyMap
	patience time.Duration
	cadence  Cadence
	table    table.Model

	// What SetOrgData read of the org model.
	org                 string
	open                string // the app the dashboard shows ("": none)
	listed              bool
	appsErr, metricsErr string

	read    []snapshot.OrgRow // as the org model gave them, worst first
	rows    []snapshot.OrgRow // in the order shown
	sort    sorting           // o/O: by a column, or worst first
	filter  textinput.Model   // focused while / is typed
	moved   bool              // the user moved the cursor: it follows its app, else the worst row
	now     time.Time         // of the last SetOrgData, to reorder the rows at
	summary string            // the line above the table
	wrapped []string
	legend  pane.WrapMemo // the legend's lines, wrapped
}

var _ pane.Overlay = (*Pane)(nil)

// The columns, by index: the crash, boots and why cells are widened to
// their longest in SetData.
const (
	colApp = iota
	colMachines
	colCrash
	colBoots
	colP95
	colLost1h
	colLost24h
	colBacklog
	colListed
	colWhy
)

var columns = []table.Column{
	colApp:      {Title: "APP", Width: 14}, // widened to the longest name in SetData
	colMachines: {Title: "MACHINES", Width: 13},
	colCrash:    {Title: "CRASH", Width: 11},
	colBoots:    {Title: "BOOTS/DAY", Width: 11, Align: table.AlignRight, Drop: 5},
	colP95:      {Title: "P95", Width: 7, Align: table.AlignRight, Drop: 3},
	// Narrow, the last hour's loss goes before the backlog: at 80 columns a
	// drowning app must still show the cell that fails it.
	colLost1h:  {Title: "LOST 1H", Width: 8, Align: table.AlignRight, Drop: 4},
	colLost24h: {Title: "LOST 24H", Width: 8, Align: table.AlignRight},
	colBacklog: {Title: "BACKLOG", Width: 9, Drop: 2},
	colListed:  {Title: "LISTED", Width: 8, Align: table.AlignRight, Drop: 6},
	// WHY names each failing (or warning) app's findings in words; it is
	// the last numbered column to go.
	colWhy: {Title: "WHY", Width: 24, Flex: 1, Drop: 1},
}

// maxCell caps how wide a column grows to fit its longest cell.
const maxCell = 40

// Cadence is how often the org feeds read each background app, for the
// legend: its listing, its boot logs, and its sockets (SocketSample
// running machines each time).
type Cadence struct {
	List, Boots, Sockets time.Duration
	SocketSample         int
}

// New builds the overview; patience grades the cold starts as the
// checklist does (the proxy's patience).
func New(ctx pane.Context, patience time.Duration, cadence Cadence) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	tb := table.New(columns, table.StylesFrom(t))
	tb.SetEmptyText("listing the org's apps…")
	tb.SaySideways(true) // ←/→ scroll it
	tb.SetSort(worstFirst.col, false)
	return &Pane{theme: t, keys: km, patience: patience, cadence: cadence, table: tb, sort: worstFirst, filter: t.NewInput("/")}
}

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// Title names the overlay.
func (p *Pane) Title() string {
	if p.org == "" {
		return "Apps"
	}
	return "Apps of " + p.org
}

// Open keeps the cursor where it was; nothing to fetch (the root runs the
// org feeds).
func (p *Pane) Open() tea.Cmd { return nil }

// CanClose: esc goes back to the open app; with none open there is nothing
// to go back to, and while a filter is on esc clears it first.
func (p *Pane) CanClose() bool {
	return p.open != "" && p.table.Filter() == "" && !p.filtering()
}

// Capturing: the filter is being typed.
func (p *Pane) Capturing() bool { return p.filtering() }

func (p *Pane) filtering() bool { return p.filter.Focused() }

// SetData: the open app's row is read off the org model (SetOrgData),
// which the root hands whenever the app changed too.
func (p *Pane) SetData(*snapshot.App, time.Time) {}

var _ pane.OrgPane = (*Pane)(nil)

// SetOrgData derives the rows from the org model; the pane keeps what it
// derived, never the model.
func (p *Pane) SetOrgData(org *snapshot.Org, now time.Time) {
	if org == nil {
		return
	}
	p.org, p.open, p.listed, p.appsErr, p.metricsErr = org.Name, org.Open(), org.Listed(), org.AppsErr, org.MetricsErr
	p.read, p.now = org.Rows(now, p.patience), now
	p.derive()
}

// derive orders the rows read last and builds the table of them.
func (p *Pane) derive() {
	now := p.now
	p.rows = order(p.read, p.sort)
	out := make([]table.Row, 0, len(p.rows))
	cols := append([]table.Column(nil), columns...)
	for _, r := range p.rows {
		cells := p.cells(r, now)
		out = append(out, table.Row{ID: r.App, Cells: cells})
		cols[colApp].Width = max(cols[colApp].Width, min(ansi.StringWidth(r.App)+2, maxCell)) // "▸ " on the open one
		for _, c := range []int{colCrash, colBoots} {
			cols[c].Width = max(cols[c].Width, min(ansi.StringWidth(cells[c]), maxCell))
		}
		cols[colWhy].Max = max(cols[colWhy].Max, cols[colWhy].Width, min(ansi.StringWidth(cells[colWhy]), 2*maxCell))
	}
	p.table.SetColumns(cols)
	p.table.SetRows(out)
	if !p.moved { // back from an app: on its row; else the worst one
		if p.open != "" && p.table.Select(p.open) {
			p.moved = true
		} else {
			p.table.Top()
		}
	}
	if p.appsErr != "" && !p.listed {
		p.table.SetEmptyText("could not list the org's apps: " + p.appsErr)
	} else if p.listed {
		p.table.SetEmptyText("the token sees no apps in " + p.org)
	}
	p.summary = p.summarize(now)
	p.relayout()
}

// SetSize recomputes the wrapping and the table's page.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.relayout()
}

// SetStale dims the table (the root's listing of the open app failed).
func (p *Pane) SetStale(stale bool) {
	p.Base.SetStale(stale)
	p.table.SetDim(stale)
}

func (p *Pane) relayout() {
	w, h := p.Size()
	p.filter.Width = max(w-2, 1)
	p.wrapped = p.wrap(p.legendLines(w), w)
	if len(p.wrapped) > max(h-4, 0) {
		p.wrapped = p.wrapped[:max(h-4, 0)]
	}
	p.table.SetHeight(p.tableHeight())
}

// tableHeight is what the summary, the filter line and the legend leave.
func (p *Pane) tableHeight() int {
	_, h := p.Size()
	return max(h-p.topLines()-len(p.wrapped), 0)
}

// topLines: the summary, and the filter while it is typed.
func (p *Pane) topLines() int {
	if p.filtering() {
		return 2
	}
	return 1
}

// Height: the summary, the table (header, rows, position) and the legend.
func (p *Pane) Height(width int) int {
	return p.topLines() + max(p.table.Len(), 1) + 2 + len(p.wrap(p.legendLines(width), width))
}

// Keys act on the selected app, its filter and the table's order.
func (p *Pane) Keys() []key.Binding {
	k := p.keys
	if p.filtering() {
		return []key.Binding{pane.Hint("enter", "keep filter"), pane.Relabel(k.Back, "", "clear filter"), pane.Arrows(&k, "move")}
	}
	var out []key.Binding
	if p.table.Len() > 0 {
		out = append(out, pane.Relabel(k.Enter, "", "open app"), pane.Arrows(&k, "move"))
	}
	out = append(out, k.Filter)
	if p.table.Filter() != "" {
		out = append(out, pane.Relabel(k.Back, "", "clear filter"))
	}
	out = append(out, pane.Pair(k.SortNext, k.SortReverse, "sort"))
	if w, _ := p.Size(); w > 0 {
		if left, right := p.table.ColumnsOff(w); left+right > 0 {
			out = append(out, pane.Pair(k.Left, k.Right, "columns"))
		}
	}
	return out
}

// Update moves the cursor, filters, sorts and scrolls the columns; enter
// asks the root to open the selected app.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		if step := pane.Wheel(msg); step != 0 {
			p.table.Move(step)
			p.moved = true
		}
		return nil
	}
	k := p.keys
	if p.filtering() {
		return p.updateFilter(km)
	}
	w, _ := p.Size()
	switch {
	case key.Matches(km, k.Enter):
		if r, ok := p.table.Selected(); ok {
			app := r.ID
			return func() tea.Msg { return pane.OpenApp{App: app} }
		}
	case key.Matches(km, k.Filter):
		cmd := p.filter.Focus()
		p.relayout()
		return cmd
	case key.Matches(km, k.Back) && p.table.Filter() != "":
		p.setFilter("")
	case key.Matches(km, k.SortNext):
		p.setSort(p.nextSort())
	case key.Matches(km, k.SortReverse):
		s := p.sort
		if s.col < 0 {
			s.col = colApp
		}
		s.desc = !s.desc
		p.setSort(s)
	case key.Matches(km, k.Left):
		p.table.SetScroll(p.table.Scroll() - 1)
		p.relayout() // the legend explains the columns on screen
	case key.Matches(km, k.Right):
		if _, right := p.table.ColumnsOff(w); right > 0 {
			p.table.SetScroll(p.table.Scroll() + 1)
			p.relayout()
		}
	default:
		if p.table.HandleKey(km, k) {
			p.moved = true
		}
	}
	return nil
}

// updateFilter types into the filter: esc clears it, enter keeps it, the
// arrows move the cursor (k and j are typed).
func (p *Pane) updateFilter(km tea.KeyMsg) tea.Cmd {
	k := p.keys
	switch {
	case key.Matches(km, k.Back):
		p.setFilter("")
		p.filter.Blur()
		p.relayout()
		return nil
	case key.Matches(km, k.Enter):
		p.filter.Blur()
		p.relayout()
		return nil
	case km.Type != tea.KeyRunes && (key.Matches(km, k.Up) || key.Matches(km, k.Down)):
		p.table.HandleKey(km, k)
		p.moved = true
		return nil
	}
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(km)
	p.table.SetFilter(p.filter.Value())
	return cmd
}

func (p *Pane) setFilter(q string) {
	p.filter.SetValue(q)
	p.table.SetFilter(q)
}

// nextSort is the order after this one: the next column ascending, and
// after the last column worst first again.
func (p *Pane) nextSort() sorting {
	if c := p.sort.col + 1; c < len(columns) {
		return sorting{col: c}
	}
	return worstFirst
}

// setSort reorders the rows; the cursor stays on its app.
func (p *Pane) setSort(s sorting) {
	p.sort = s
	p.table.SetSort(s.col, s.desc)
	p.moved = true
	if !p.now.IsZero() {
		p.derive()
	}
}

// Sorting names the order of the rows: the column's title and whether it
// is descending; "" when they are worst first.
func (p *Pane) Sorting() (string, bool) {
	if p.sort.col < 0 {
		return "", false
	}
	return columns[p.sort.col].Title, p.sort.desc
}

// Selected is the app under the cursor.
func (p *Pane) Selected() (string, bool) {
	r, ok := p.table.Selected()
	return r.ID, ok
}

// View draws the summary, the table and the legend at the SetSize size.
func (p *Pane) View(bool, time.Time) string {
	w, h := p.Size()
	if w <= 0 || h <= 0 {
		return ""
	}
	head := cell.Fit(p.summary, w, cell.Left)
	legend := strings.Join(p.wrapped, "\n")
	if p.Stale() {
		head = pane.Dim(p.theme, head)
		legend = pane.Dim(p.theme, cell.Block(legend, w, len(p.wrapped)))
	}
	out := head
	if p.filtering() {
		out += "\n" + cell.Fit(p.filter.View(), w, cell.Left)
	}
	if th := p.tableHeight(); th > 0 {
		out += "\n" + p.table.View(w, th)
	}
	if len(p.wrapped) > 0 {
		out += "\n" + p.theme.Dim.Render(legend)
	}
	return cell.Block(out, w, h)
}

// cells are one row's cells, styled: each known cell in its level's
// style, an unknown one as "?" (the legend says why), one still loading as "…".
func (p *Pane) cells(r snapshot.OrgRow, now time.Time) []string {
	t := p.theme
	name := r.App
	if r.Open {
		name = "▸ " + name
	}
	unknown := t.Unknown.Render("?")
	loading := t.Dim.Render("…")
	machines, crash := loading, loading
	if r.ListErr != "" && !r.Listed {
		machines, crash = t.Fail.Render("✗ list failed"), unknown
	}
	if r.Listed {
		var parts []string
		for _, sc := range r.States {
			look := t.State(sc.State)
			parts = append(parts, look.Style.Render(fmt.Sprintf("%s%d", look.Glyph, sc.N)))
		}
		machines = strings.Join(parts, " ")
		if len(parts) == 0 {
			machines = t.Dim.Render("none")
		}
		if r.ListErr != "" {
			machines = t.Warn.Render("!") + " " + machines
		}
		crash = p.crashCell(r)
	}
	boots, p95 := loading, loading
	switch {
	case r.BootsKnown:
		parts := []string{words.Thousands(r.Boots24h)}
		if r.CrashRestarts24h > 0 { // apart: a start that crashed times the crash, not a wake
			parts = append(parts, t.Fail.Render(words.Thousands(r.CrashRestarts24h)+" crashed"))
		}
		if r.Booting > 0 {
			parts = append(parts, t.Warn.Render(fmt.Sprintf("%d booting", r.Booting)))
		}
		boots = strings.Join(parts, " · ")
		p95 = t.Dim.Render("–")
		if r.ColdLevel != diagnose.NA {
			p95 = t.Level(r.ColdLevel).Style.Render(words.Duration(r.P95, words.Tenths))
		}
	case r.BootsErr != "":
		boots, p95 = unknown, unknown
	}
	lost1, lost24 := loading, loading
	switch {
	case r.LossKnown:
		lost1, lost24 = p.lossCell(r.Lost1h, r.Edge1h, r.Loss1h), p.lossCell(r.Lost24h, r.Edge24h, r.Loss24h)
	case r.LossErr != "":
		lost1, lost24 = unknown, unknown
	}
	backlog := loading
	switch {
	case r.BacklogKnown && r.Backlog == diagnose.NA:
		backlog = t.Dim.Render("n/a")
	case r.BacklogKnown:
		look := t.Level(r.Backlog)
		backlog = look.Style.Render(fmt.Sprintf("%s %d CW", look.Glyph, r.CloseWait))
	case r.Listed && r.Running == 0:
		backlog = t.Dim.Render("–") // nothing running: no sockets to read
	case r.BacklogErr != "":
		backlog = unknown
	}
	listed := loading
	if r.Listed {
		listed = t.Dim.Render(words.Duration(now.Sub(r.ListedAt), words.Whole))
		if r.Open {
			listed = t.Dim.Render("live")
		}
	}
	return []string{name, machines, crash, boots, p95, lost1, lost24, backlog, listed, p.whyCell(r)}
}

func (p *Pane) crashCell(r snapshot.OrgRow) string {
	t := p.theme
	switch {
	case r.Looping > 0 || r.GaveUp > 0:
		return t.Fail.Render("✗ " + crashWords(r))
	case r.Unread > 0: // what the listing held unread could hide a crash loop
		return t.Unknown.Render(fmt.Sprintf("? %d unread", r.Unread))
	case r.Watching > 0:
		return t.Warn.Render(fmt.Sprintf("! %d crashed", r.Watching))
	}
	return t.Pass.Render("✓")
}

// crashWords are the current release's crashing machines by what they do:
// "1 looping · 1 gave up".
func crashWords(r snapshot.OrgRow) string {
	var parts []string
	if r.Looping > 0 {
		parts = append(parts, fmt.Sprintf("%d looping", r.Looping))
	}
	if r.GaveUp > 0 {
		parts = append(parts, fmt.Sprintf("%d gave up", r.GaveUp))
	}
	return strings.Join(parts, " · ")
}

// whyCell names what fails the row, in words: the first finding in the
// cells' order of importance (crash loop, lost requests, cold boots,
// backlog) and how many more; a row that only warns names its warning; a
// passing row says nothing. The judgements are the row's own levels.
func (p *Pane) whyCell(r snapshot.OrgRow) string {
	var fails, warns []string
	add := func(l diagnose.Level, s string) {
		switch l {
		case diagnose.Fail:
			fails = append(fails, s)
		case diagnose.Warn:
			warns = append(warns, s)
		}
	}
	switch {
	case r.ListErr != "" && !r.Listed:
		add(diagnose.Fail, "machines not listed: "+r.ListErr)
	case r.ListErr != "":
		add(diagnose.Warn, "last listing failed: "+r.ListErr)
	}
	if r.Listed {
		if r.Looping > 0 || r.GaveUp > 0 {
			add(r.Crash, "release crash-looping")
		} else if r.Watching > 0 {
			add(r.Crash, words.Count(r.Watching, "machine crashed", "machines crashed")+" since the deploy")
		}
	}
	if r.LossKnown {
		lvl, window, lost, edge := r.Loss24h, "24 h", r.Lost24h, r.Edge24h
		if diagnose.WorstFirst(r.Loss1h, lvl) < 0 {
			lvl, window, lost, edge = r.Loss1h, "last hour", r.Lost1h, r.Edge1h
		}
		if edge >= 0.5 {
			add(lvl, diagnose.Percent(lost/edge)+" requests lost, "+window)
		}
	}
	if r.BootsKnown && r.ColdLevel != diagnose.NA {
		add(r.ColdLevel, "slow boots: p95 "+words.Duration(r.P95, words.Tenths))
	}
	if r.BacklogKnown {
		add(r.Backlog, cell.Thousands(r.CloseWait)+" CLOSE_WAIT sockets")
	}
	// The worst first, whole; the others are counted (their cells show them).
	say := func(found []string) string {
		if len(found) == 1 {
			return found[0]
		}
		return found[0] + fmt.Sprintf(" · +%d more", len(found)-1)
	}
	switch {
	case len(fails) > 0:
		return p.theme.Fail.Render(say(fails))
	case len(warns) > 0:
		return p.theme.Warn.Render(say(warns))
	}
	return ""
}

func (p *Pane) lossCell(lost, edge float64, lvl diagnose.Level) string {
	if edge < 0.5 {
		return p.theme.Dim.Render("no req")
	}
	return p.theme.Level(lvl).Style.Render(diagnose.Percent(lost / edge))
}

// summarize is the line above the table: how many apps and machines, how
// many rows fail or warn, and how far the first round has got.
func (p *Pane) summarize(now time.Time) string {
	t := p.theme
	if !p.listed {
		if p.appsErr != "" {
			return t.Fail.Render("✗ apps: " + p.appsErr)
		}
		return t.Dim.Render("listing the apps of " + p.org + "…")
	}
	machines, listed, failing, warning, boots := 0, 0, 0, 0, 0
	for _, r := range p.rows {
		machines += r.Machines
		if r.Listed {
			listed++
		}
		if r.BootsKnown {
			boots++
		}
		switch r.Level {
		case diagnose.Fail:
			failing++
		case diagnose.Warn:
			warning++
		}
	}
	n := len(p.rows)
	parts := []string{words.Count(n, "app", "apps"), words.Count(machines, "machine", "machines")}
	if failing > 0 {
		parts = append(parts, t.Fail.Render(fmt.Sprintf("✗ %d failing", failing)))
	}
	if warning > 0 {
		parts = append(parts, t.Warn.Render(fmt.Sprintf("! %d warning", warning)))
	}
	if listed < n {
		parts = append(parts, t.Dim.Render(fmt.Sprintf("listed %d/%d…", listed, n)))
	}
	if boots < n {
		parts = append(parts, t.Dim.Render(fmt.Sprintf("boots read %d/%d", boots, n)))
	}
	if p.metricsErr != "" {
		parts = append(parts, t.Warn.Render("metrics ✗"))
	}
	return strings.Join(parts, " · ")
}

// legendLines say what each cell reads and what it does not know yet, for
// the columns a width-wide pane shows: a column off screen is not explained.
func (p *Pane) legendLines(width int) []string {
	every := func(d time.Duration) string { return words.Duration(d, words.Whole) }
	shown := p.table.Shown(width)
	var clauses []string
	var boots []string
	for _, c := range []int{colBoots, colP95} {
		if shown[c] {
			boots = append(boots, columns[c].Title)
		}
	}
	if len(boots) > 0 {
		clauses = append(clauses, strings.Join(boots, ", ")+": cold boots until serving, from each app's logs, read one app at a time (every "+
			every(p.cadence.Boots)+" per app; N crashed: starts that crashed or restarted after a crash, left out of both)")
	}
	if shown[colLost1h] || shown[colLost24h] {
		clauses = append(clauses, "LOST: edge minus app responses, one query for the org each minute")
	}
	if shown[colBacklog] {
		clauses = append(clauses, "BACKLOG: CLOSE_WAIT sockets, the most on one machine (all the open app's; "+
			fmt.Sprintf("%d of each other app's every %s", p.cadence.SocketSample, every(p.cadence.Sockets))+"; – none running)")
	}
	lines := []string{
		p.sortWords() + " · background apps listed every " + every(p.cadence.List) +
			", the open app (▸) at its own pace · … not read yet · ? could not be read",
	}
	if len(clauses) > 0 {
		lines = append(lines, strings.Join(clauses, " · "))
	}
	if p.metricsErr != "" {
		lines = append(lines, "metrics: "+p.metricsErr)
	}
	return lines
}

// sortWords say how the rows are ordered and how to change it.
func (p *Pane) sortWords() string {
	o, O := keys.Short(p.keys.SortNext), keys.Short(p.keys.SortReverse)
	if title, desc := p.Sorting(); title != "" {
		mark := table.SortAsc
		if desc {
			mark = table.SortDesc
		}
		return "sorted by " + title + mark + " (" + o + " next column, " + O + " reverse)"
	}
	return "sorted worst first (" + o + " sorts by a column)"
}

// wrap wraps each line to width (continuations indented by two).
func (p *Pane) wrap(lines []string, width int) []string {
	if width < 20 {
		return lines
	}
	return p.legend.WrapAll(lines, width, 2)
}
