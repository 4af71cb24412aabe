package volumes

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// ID is the volumes pane's ID.
const ID pane.ID = "volumes"

// The columns, by index. A narrow tile hides the id first, then the
// region and the volume's state: the machine, the volume and its size
// stay.
const (
	colMachine = iota
	colState
	colVolume
	colSize
	colVolState
	colRegion
	colID
)

var columns = []table.Column{
	{Title: "machine", Width: 14, Pin: true},
	{Title: "state", Width: 11, Drop: 2},
	{Title: "volume", Width: 8},
	{Title: "size", Width: 6, Align: table.AlignRight},
	{Title: "vol state", Width: 9, Drop: 3},
	{Title: "region", Width: 6, Drop: 4},
	{Title: "id", Width: 20, Flex: 1, Drop: 5}, // as wide as an id: hidden whole, never cut
}

// Pane is the Volumes pane. Build it with New.
type Pane struct {
	pane.Base
	theme  *theme.Theme
	keys   keys.KeyMap
	table  table.Model
	states *table.StateStyles

	loaded bool
	lines  []string // the summary, and why the last fetch failed
	head   []string // lines, wrapped to the width
	shown  int      // of head, the lines on screen (the table keeps its first lines)
}

var (
	_ pane.Pane     = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
)

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	tb := table.New(columns, table.StylesFrom(t))
	tb.SetEmptyText("no volumes")
	return &Pane{theme: t, keys: km, table: tb, states: table.NewStateStyles(t)}
}

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// Title names the pane.
func (p *Pane) Title() string { return "Volumes" }

// SetData builds one row per volume and the summary above them.
func (p *Pane) SetData(a *snapshot.App, _ time.Time) {
	vs := snapshot.Volumes{}
	if a != nil {
		vs = a.Volumes()
	}
	p.loaded = !vs.At.IsZero() || vs.Err != ""
	if !p.loaded {
		return
	}
	rows := make([]table.Row, 0, len(vs.List))
	for _, v := range vs.List {
		rows = append(rows, p.row(a, v))
	}
	p.table.SetRows(rows)
	p.lines = nil
	if !vs.At.IsZero() { // a summary of no list would claim there are no volumes
		p.lines = append(p.lines, summary(a, vs.List))
	}
	if vs.Err != "" {
		p.lines = append(p.lines, p.theme.Warn.Render("could not list the volumes: "+vs.Err))
	}
	p.relayout()
}

func (p *Pane) row(a *snapshot.App, v snapshot.Volume) table.Row {
	c, l := make([]string, len(columns)), make([]*lipgloss.Style, len(columns))
	c[colMachine], c[colState], l[colState] = v.Machine, "–", &p.theme.Dim
	if v.Machine == "" {
		c[colMachine], l[colMachine] = "not attached", &p.theme.Dim
		c[colState] = ""
	} else if m, ok := a.Machine(v.Machine); ok {
		c[colState], l[colState] = p.states.Look(m.State)
	}
	c[colVolume], c[colSize] = v.Name, strconv.Itoa(v.SizeGB)+" GB"
	c[colVolState], c[colRegion], c[colID] = v.State, v.Region, v.ID
	if v.State != "created" {
		l[colVolState] = &p.theme.Warn
	}
	return table.Row{ID: v.ID, Cells: c, Styles: l, Search: table.SearchText(c)}
}

// summary is the pane's first line: how many volumes, how much space, and
// how many machines have none.
func summary(a *snapshot.App, vs []snapshot.Volume) string {
	machines := len(a.Machines)
	if len(vs) == 0 {
		return "no volumes: each machine's root file system starts from the image at every boot"
	}
	total, attached := 0, map[string]bool{}
	for _, v := range vs {
		total += v.SizeGB
		if v.Machine != "" {
			attached[v.Machine] = true
		}
	}
	parts := []string{words.Count(len(vs), "volume", "volumes") + ", " + strconv.Itoa(total) + " GB"}
	if machines > 0 {
		parts = append(parts, "attached to "+strconv.Itoa(len(attached))+" of "+words.Count(machines, "machine", "machines"))
	}
	return strings.Join(parts, " · ")
}

// SetSize is the size View draws at.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.relayout()
}

// SetStale dims the rows: they are the last good fetch's.
func (p *Pane) SetStale(stale bool) {
	p.Base.SetStale(stale)
	p.table.SetDim(stale)
}

// relayout wraps the summary to the width and gives the table the rest;
// with no volumes the summary has the whole pane.
func (p *Pane) relayout() {
	w, h := p.Size()
	p.head = cell.WrapAll(p.lines, w, 2)
	p.shown = min(len(p.head), max(h, 0))
	if p.table.Total() > 0 {
		p.shown = table.HeadRoom(len(p.head), h, p.table.Len())
	}
	p.table.SetHeight(max(h-p.shown, 0))
}

// Below is the summary's lines cut for the table's first lines (a bigger
// box shows them), or the rows the table leaves out.
func (p *Pane) Below() (int, bool) {
	_, h := p.Size()
	unshown := 0
	if p.table.Total() > 0 {
		unshown = p.table.Unshown(h - p.shown)
	}
	if cut := len(p.head) - p.shown; cut > 0 {
		return cut + unshown, false
	}
	return unshown, true
}

// Height is the wrapped summary, then a row per volume with the table's
// header and position line (none without volumes: the summary says so).
func (p *Pane) Height(width int) int {
	head := len(cell.WrapAll(p.lines, width, 2))
	if p.table.Total() == 0 {
		return max(head, 1)
	}
	return head + p.table.Len() + 2
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

// View renders exactly the SetSize width×height cells: the summary, then
// the table.
func (p *Pane) View(focused bool, now time.Time) string {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the volumes list…"), width, height)
	}
	head := cell.Block(strings.Join(p.head[:p.shown], "\n"), width, p.shown)
	if p.Stale() {
		head = pane.Dim(p.theme, head)
	}
	rest := height - p.shown
	switch {
	case p.table.Total() == 0 || rest <= 0:
		return cell.Block(head, width, height)
	case p.shown == 0:
		return p.table.View(width, rest)
	}
	return head + "\n" + p.table.View(width, rest)
}
