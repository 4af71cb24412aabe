package checklist

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Pane is the pre-deploy checklist pane. Build it with New.
type Pane struct {
	pane.Base
	theme *theme.Theme
	keys  keys.KeyMap
	label lipgloss.Style // "fix" and other labels: bold, readable without colour

	project     *repo.Project
	projectErrs []error
	projectNote string // why the project files are not judged yet, "" once read
	opts        checklist.Options

	app *snapshot.App // the last model, to judge again when the files arrive
	now time.Time

	report checklist.Report // the last run: subject, findings and items
	// What the last run judged, when it judged the model: the app and
	// its evidence (see evaluate).
	judged    bool
	judgedApp string
	evidence  checklist.Evidence
	items     []checklist.Item // report.Items
	machines  machineState

	cursorID string          // the item under the cursor, kept across refreshes
	expanded map[string]bool // item id -> evidence shown

	// The body is drawn in View (its focus styling is View's), so the
	// scroll is an offset kept in range by scroll.Reveal, not a viewport
	// holding lines built ahead.
	offset int  // first body line on screen
	follow bool // keep the cursor's item in view
	page   int  // body lines a page moves, from the size
	total  int  // body lines at the width, from relayout
}

var (
	_ pane.Overlay  = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
)

// ID is the checklist's ID.
const ID pane.ID = "checklist"

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// machineState is what the pane knows about running machines, to say why
// an item that needs one is still waiting.
type machineState int

const (
	machinesNotListed machineState = iota // no listing yet
	machinesNoneStarted
	machinesSomeStarted
)

// New builds the pane for one app's project directory (project may be nil;
// projectErrs are repo.Load's per-file errors) with the thresholds of
// `flywake check`. Until the first SetData it shows the local checks alone.
func New(ctx pane.Context, project *repo.Project, projectErrs []error, opts checklist.Options) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	p := &Pane{
		theme: t, keys: km, label: t.Renderer().NewStyle().Bold(true),
		project: project, projectErrs: projectErrs, opts: opts,
		expanded: map[string]bool{}, follow: true, page: 1,
	}
	p.evaluate()
	return p
}

// Title names the pane.
func (p *Pane) Title() string { return "Pre-deploy checklist" }

// Open shows the checklist as it stands; it needs nothing fetched.
func (p *Pane) Open() tea.Cmd { return nil }

// CanClose: esc always closes the checklist.
func (p *Pane) CanClose() bool { return true }

// SetSize is the size View draws at.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.relayout()
}

// Height is every line of the walkthrough: the items with what is
// expanded, the progress and the summary line.
func (p *Pane) Height(width int) int {
	lines, _ := p.body(width, false)
	return len(lines) + 2
}

// Keys are the walkthrough's: items, evidence, and scrolling.
func (p *Pane) Keys() []key.Binding {
	k := p.keys
	return []key.Binding{
		pane.Pair(k.NextItem, k.PrevItem, "next/prev"),
		pane.Relabel(k.Enter, "", "evidence"),
		pane.Pair(k.PageUp, k.PageDown, "scroll"),
	}
}

// SetData re-evaluates every item from the app's model, as `flywake check`
// does. A nil model keeps the local checks alone.
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	p.app, p.now = a, now
	p.evaluate()
}

func startedState(a *snapshot.App) machineState {
	if a.ListedAt.IsZero() && len(a.Machines) == 0 {
		return machinesNotListed
	}
	for i := range a.Machines {
		if a.Machines[i].State == "started" {
			return machinesSomeStarted
		}
	}
	return machinesNoneStarted
}

// setReport replaces the report, keeping the cursor on the same item id.
func (p *Pane) setReport(r checklist.Report) {
	p.report, p.items = r, r.Items
	items := r.Items
	if p.indexOf(p.cursorID) < 0 {
		p.cursorID = ""
		if len(items) > 0 {
			p.cursorID = items[0].ID
		}
	}
	p.relayout()
}

// Cursor is the id of the item under the cursor ("" when there are none).
func (p *Pane) Cursor() string { return p.cursorID }

// Items are the items as last evaluated, in checklist order.
func (p *Pane) Items() []checklist.Item { return p.items }

// Report is the checklist as last evaluated, as `flywake check` prints it.
func (p *Pane) Report() checklist.Report { return p.report }

func (p *Pane) indexOf(id string) int {
	for i, it := range p.items {
		if it.ID == id {
			return i
		}
	}
	return -1
}

// Update moves between items (n/p, up/down, home/end), expands or
// collapses the current one (enter) and scrolls the body (pgup/pgdn).
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if pm, ok := msg.(ProjectMsg); ok {
		p.onProject(pm)
		return nil
	}
	if step := pane.Wheel(msg); step != 0 {
		p.offset, p.follow = max(p.offset+step, 0), false
		p.relayout()
		return nil
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok || len(p.items) == 0 {
		return nil
	}
	i := max(p.indexOf(p.cursorID), 0)
	switch {
	case key.Matches(km, p.keys.NextItem), key.Matches(km, p.keys.Down):
		p.moveTo(i + 1)
	case key.Matches(km, p.keys.PrevItem), key.Matches(km, p.keys.Up):
		p.moveTo(i - 1)
	case key.Matches(km, p.keys.Home):
		p.moveTo(0)
	case key.Matches(km, p.keys.End):
		p.moveTo(len(p.items) - 1)
	case key.Matches(km, p.keys.Enter):
		p.expanded[p.cursorID] = !p.expanded[p.cursorID]
		p.follow = true
	case key.Matches(km, p.keys.PageDown):
		p.offset += p.page
		p.follow = false
	case key.Matches(km, p.keys.PageUp):
		p.offset = max(p.offset-p.page, 0)
		p.follow = false
	}
	p.relayout()
	return nil
}

func (p *Pane) moveTo(i int) {
	i = min(max(i, 0), len(p.items)-1)
	p.cursorID = p.items[i].ID
	p.follow = true
}
