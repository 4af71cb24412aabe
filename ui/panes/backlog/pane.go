package backlog

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// ID is the backlog pane's ID.
const ID pane.ID = "backlog"

// Pane is the Backlog pane. Build it with New.
type Pane struct {
	pane.Base
	theme  *theme.Theme
	keys   keys.KeyMap
	table  table.Model
	states *table.StateStyles

	loaded  bool
	app     *snapshot.App
	verdict diagnose.Verdict
	limits  string // the limits every machine shares, "" when they differ
	own     bool   // the rows carry their own limits
	rows    rowCache
	built   snapshot.Mark  // what the rows and lines were derived from
	headN   pane.WidthMemo // how many lines headLines makes (Height)
	head    []string       // the verdict, the limits and the legend, wrapped to the width
	wrapped bool           // head is the loaded pane's, wrapped at the width from verdict and limits
	shown   int            // of head, the lines on screen (the table keeps its first lines)
}

var (
	_ pane.Pane     = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
)

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	tb := table.New(sharedColumns, table.StylesFrom(t))
	tb.SetEmptyText("no machines")
	return &Pane{theme: t, keys: km, table: tb, states: table.NewStateStyles(t)}
}

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// Title names the pane.
func (p *Pane) Title() string { return "Backlog" }

// SetData derives the verdict and one row per machine.
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	if a != p.app {
		p.rows = rowCache{} // another app's rows
	}
	p.loaded, p.app = a != nil, a
	if a == nil {
		p.headN.Forget()
		p.wrapped = false
		return
	}
	if a.Mark() == p.built {
		return // the same machines and sockets: the same rows and lines
	}
	p.built = a.Mark()
	ms := p.rows.machines(a)
	verdict := diagnose.BacklogVerdict(ms)
	c, shared := sharedLimits(ms)
	limits := ""
	p.own = !shared
	if shared {
		hard := c.HardLimit()
		if c.Hard <= 0 {
			hard = p.theme.Warn.Render(hard)
		}
		limits = fmt.Sprintf("concurrency of every machine: %s · soft limit %d · hard limit %s", c.Kind(), c.SoftLimit(), hard)
		if !c.Configured {
			limits += " (Fly's defaults: no concurrency block)"
		}
		p.table.SetColumns(sharedColumns)
	} else {
		p.table.SetColumns(ownColumns)
	}
	p.table.SetRows(p.rows.build(p.theme, p.states, p.own))
	p.rows.release()
	if p.wrapped && verdict == p.verdict && limits == p.limits {
		// The same verdict and limits (a machine renamed, say): the same
		// head, wrapped already; only the table's room may differ.
		p.fit()
		return
	}
	p.verdict, p.limits = verdict, limits
	p.headN.Forget() // the verdict and the limits are the head
	p.relayout()
}

// SetSize is the size View draws at.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.relayout()
}

// SetStale dims the pane: the sockets are the last good probe's.
func (p *Pane) SetStale(stale bool) {
	p.Base.SetStale(stale)
	p.table.SetDim(stale)
}

func (p *Pane) relayout() {
	w, _ := p.Size()
	p.head, p.wrapped = p.headLines(w), p.loaded
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

// headLines are the verdict, in its level's colour, and what CLOSE_WAIT
// means, wrapped to width.
func (p *Pane) headLines(width int) []string {
	if !p.loaded {
		return nil
	}
	look := p.theme.Level(p.verdict.Level)
	lines := wrap(look.Style, look.Render()+" ", p.verdict.Line, width)
	if p.limits != "" {
		lines = append(lines, wrap(p.theme.Text, "", p.limits, width)...)
	}
	legend := fmt.Sprintf("CLOSE_WAIT: the client gave up and closed; the server has not reached its request yet. "+
		"%d on a machine warns; %d with no hard limit fails.", diagnose.CloseWaitWarn, diagnose.CloseWaitFail)
	return append(lines, wrap(p.theme.Dim, "", legend, width)...)
}

// Height is the wrapped head, then a row per machine with the table's
// header and position line.
func (p *Pane) Height(width int) int {
	head := p.headN.Get(width, func(w int) int { return len(p.headLines(w)) })
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
// legend, the table.
func (p *Pane) View(focused bool, now time.Time) string {
	w, h := p.Size()
	if w <= 0 || h <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the machine list…"), w, h)
	}
	head := cell.Block(strings.Join(p.head[:p.shown], "\n"), w, p.shown)
	if p.Stale() {
		head = pane.Dim(p.theme, head)
	}
	rest := h - p.shown
	if p.shown == 0 {
		return p.table.ViewLive(w, rest, p.rows.ages(now, p.own))
	}
	if rest <= 0 {
		return head
	}
	return head + "\n" + p.table.ViewLive(w, rest, p.rows.ages(now, p.own))
}

// wrap breaks text to width after a lead (a glyph, an indent) with
// cell.Wrap, styling each line; continuation lines are indented by two
// more than the lead's first cells. Narrow widths get the text cut instead.
func wrap(style lipgloss.Style, lead, text string, width int) []string {
	leadW := ansi.StringWidth(lead)
	if width < 20 || leadW+ansi.StringWidth(text) <= width {
		return []string{lead + style.Render(text)}
	}
	indent := strings.Repeat(" ", min(leadW, 2)+2)
	out := cell.Wrap(text, width-max(leadW, len(indent)), 0)
	for i, l := range out {
		if i == 0 {
			out[i] = lead + style.Render(l)
		} else {
			out[i] = indent + style.Render(l)
		}
	}
	return out
}
