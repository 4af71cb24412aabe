package swap

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

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
	theme *theme.Theme
	keys  keys.KeyMap
	table table.Model

	loaded  bool
	verdict diagnose.Verdict
	cost    string
}

var _ pane.Pane = (*Pane)(nil)

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t := ctx.Theme
	if t == nil {
		t = theme.New(false)
	}
	km := keys.Default()
	if ctx.Keys != nil {
		km = *ctx.Keys
	}
	tb := table.New(columns, table.StylesFrom(t))
	tb.SetEmptyText("no machines")
	return &Pane{theme: t, keys: km, table: tb}
}

// Title names the pane.
func (p *Pane) Title() string { return "Swap" }

// SetData derives the verdict, the cost line and one row per machine.
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	p.loaded = a != nil
	if a == nil {
		return
	}
	p.verdict = a.Swap()
	p.cost = costLine(a)
	p.table.SetRows(buildRows(p.theme, a, now))
}

// Update moves the table cursor.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyMsg); ok {
		p.table.HandleKey(km, p.keys)
	}
	return nil
}

// Animating is false: nothing here changes with time alone.
func (p *Pane) Animating() bool { return false }

// Capturing is always false: the pane takes no text input.
func (p *Pane) Capturing() bool { return false }

// View renders exactly width×height cells: the verdict, the cost, the table.
func (p *Pane) View(width, height int, focused bool, now time.Time) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the machine list…"), width, height)
	}
	head := []string{
		p.theme.Level(p.verdict.Level).Render() + " " + cell.Sanitize(p.verdict.Line),
		p.cost,
	}
	// Wrap the two sentences when that still leaves the table half the pane:
	// their ends ("it only blocks suspend") are the point.
	if wrapped := wrapLines(head, width); len(wrapped) <= height/2 {
		head = wrapped
	}
	rest := height - len(head)
	if rest <= 0 {
		return cell.Block(strings.Join(head, "\n"), width, height)
	}
	p.table.SetHeight(rest)
	return cell.Block(strings.Join(head, "\n"), width, len(head)) + "\n" + p.table.View(width, rest)
}

// wrapLines wraps each line to width, continuation lines indented by two.
func wrapLines(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		if ansi.StringWidth(l) <= width || width < 20 {
			out = append(out, l)
			continue
		}
		parts := strings.Split(ansi.Wrap(l, width, " "), "\n")
		out = append(out, parts[0])
		rest := strings.Join(parts[1:], " ")
		for _, p := range strings.Split(ansi.Wrap(rest, width-2, " "), "\n") {
			out = append(out, "  "+p)
		}
	}
	return out
}
