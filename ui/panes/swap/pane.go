package swap

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Pane is the Swap pane. Build it with New.
type Pane struct {
	pane.Base
	theme  *theme.Theme
	keys   keys.KeyMap
	table  table.Model
	states *table.StateStyles
	rows   rowCache
	built  snapshot.Mark  // what the rows and lines were derived from
	head1  pane.WidthMemo // how many lines lines wrap to (Height)
	app    *snapshot.App

	loaded bool
	lines  []string // the verdict and the cost line
	head   []string // lines, wrapped to the width when there is room
	shown  int      // of head, the lines on screen (the table keeps its first lines)
}

var (
	_ pane.Pane     = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
)

// ID is the swap pane's ID.
const ID pane.ID = "swap"

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	tb := table.New(columns, table.StylesFrom(t))
	tb.SetEmptyText("no machines")
	return &Pane{theme: t, keys: km, table: tb, states: table.NewStateStyles(t)}
}

// Title names the pane.
func (p *Pane) Title() string { return "Swap" }

// SetData derives the verdict, the cost line and one row per machine.
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	if a != p.app {
		p.rows = rowCache{} // another app's rows
	}
	p.app = a
	// Before the first listing there is nothing to judge: saying "no swap
	// configured" then would be a claim about machines not yet seen.
	p.loaded = a != nil && !a.ListedAt.IsZero()
	if !p.loaded {
		return
	}
	if a.Mark() == p.built {
		return // the same machines and meminfo: the same rows and lines
	}
	p.built = a.Mark()
	rows, facts := buildRows(p.theme, p.states, a, &p.rows)
	v := diagnose.SwapVerdict(facts)
	lines := []string{p.theme.Level(v.Level).Render() + " " + v.Line, costLine(a)}
	p.table.SetRows(rows)
	p.rows.release()
	if slices.Equal(lines, p.lines) {
		// The same sentences (a machine renamed, say): the same head,
		// wrapped already; only the table's room may differ.
		p.fit()
		return
	}
	p.lines = lines
	p.head1.Forget()
	p.relayout()
}

// SetSize is the size View draws at.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.relayout()
}

// SetStale dims the verdict and the rows: they are the last good listing's.
func (p *Pane) SetStale(stale bool) {
	p.Base.SetStale(stale)
	p.table.SetDim(stale)
}

// relayout wraps the head to the width and gives the table the rest. The
// two sentences always wrap, never cut: their ends ("it only blocks
// suspend") are the point.
func (p *Pane) relayout() {
	w, _ := p.Size()
	p.head = cell.WrapAll(p.lines, w, 2)
	p.fit()
}

// fit shares the height between the wrapped head and the table.
func (p *Pane) fit() {
	_, h := p.Size()
	p.shown = table.HeadRoom(len(p.head), h, p.table.Len())
	p.table.SetHeight(h - p.shown)
}

// Below is the head's lines cut for the table's first lines (no key
// scrolls them: a bigger box shows them), or the rows a table too short
// for its position line leaves out.
func (p *Pane) Below() (int, bool) {
	_, h := p.Size()
	if cut := len(p.head) - p.shown; cut > 0 {
		return cut + p.table.Unshown(h-p.shown), false
	}
	return p.table.Unshown(h - p.shown), true
}

// Height is the wrapped head, then a row per machine with the table's
// header and position line.
func (p *Pane) Height(width int) int {
	head := p.head1.Get(width, func(w int) int { return len(cell.WrapAll(p.lines, w, 2)) })
	return head + max(p.table.Len(), 1) + 2
}

// Keys: none beyond moving the cursor, which the help lists.
func (p *Pane) Keys() []key.Binding { return nil }

// Update moves the table cursor.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyMsg); ok {
		p.table.HandleKey(km, p.keys)
	}
	p.table.Move(pane.Wheel(msg))
	return nil
}

// View renders exactly the SetSize width×height cells: the verdict, the
// cost, the table.
func (p *Pane) View(focused bool, now time.Time) string {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the machine list…"), width, height)
	}
	head := cell.Block(strings.Join(p.head[:p.shown], "\n"), width, p.shown)
	if p.Stale() {
		head = pane.Dim(p.theme, head)
	}
	rest := height - p.shown
	if p.shown == 0 {
		return p.table.ViewLive(width, rest, p.rows.ages(now))
	}
	if rest <= 0 {
		return head
	}
	return head + "\n" + p.table.ViewLive(width, rest, p.rows.ages(now))
}
