package bytecode

import (
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Pane is the Bytecode pane. Build it with New.
type Pane struct {
	pane.Base
	theme *theme.Theme
	keys  keys.KeyMap

	loaded bool
	built  snapshot.Mark  // what lines were derived from
	height pane.WidthMemo // Height, for lines
	lines  []line         // derived in SetData
	screen []string       // lines wrapped to the width
	view   scroll.View    // scrolls screen
}

var (
	_ pane.Pane     = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
)

// ID is the bytecode pane's ID.
const ID pane.ID = "bytecode"

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	return &Pane{theme: t, keys: km}
}

// Title names the pane.
func (p *Pane) Title() string { return "Bytecode" }

// SetData derives the verdict and one section per image digest.
func (p *Pane) SetData(a *snapshot.App, _ time.Time) {
	loaded := a != nil && !a.ListedAt.IsZero() // the images are the listed machines'
	if loaded && p.loaded && a.Mark() == p.built {
		return // the same machines and probes: the same lines
	}
	var lines []line
	if loaded {
		lines = buildLines(p.theme, a)
	}
	same := loaded == p.loaded && slices.Equal(lines, p.lines)
	p.loaded, p.built = loaded, a.Mark()
	if same {
		return // the same lines (a machine renamed, say): the same screen
	}
	p.lines = lines
	p.height.Forget()
	p.relayout()
}

// SetSize is the size View draws at. The root sizes every pane after
// every message; the lines depend only on the data and the width.
func (p *Pane) SetSize(width, height int) {
	if w, h := p.Size(); max(width, 0) == w && max(height, 0) == h {
		return
	}
	p.Base.SetSize(width, height)
	p.relayout()
}

// relayout wraps the lines to the width and keeps the scroll in range.
func (p *Pane) relayout() {
	w, h := p.Size()
	p.screen = layoutLines(p.lines, w)
	p.view.SetSize(w, h)
	p.view.SetLines(p.screen)
}

// Height is every line, wrapped to width.
func (p *Pane) Height(width int) int {
	return p.height.Get(width, func(w int) int { return max(len(layoutLines(p.lines, w)), 1) })
}

// Keys: scrolling, when the sections are taller than the pane.
func (p *Pane) Keys() []key.Binding {
	if _, h := p.Size(); len(p.screen) <= h {
		return nil
	}
	return []key.Binding{pane.Arrows(&p.keys, "scroll")}
}

// buildLines is the head verdict (the image most machines run), then each image.
func buildLines(t *theme.Theme, a *snapshot.App) []line {
	imgs := images(a)
	if len(imgs) == 0 {
		return []line{{text: t.Dim.Render("no machines: no image to probe")}}
	}
	v := a.BytecodeVerdict()
	_, main, probed := a.BytecodeFor()
	notPython := probed && main.Err == "" && main.Value.NotPython
	head := lookFor(t, v, notPython).Render() + " " + v.Line
	if notPython {
		head = lookFor(t, v, true).Render() + " not a Python image: no bytecode to cache"
	}
	out := []line{{text: head, wrap: true}}
	for _, img := range imgs {
		out = append(out, line{})
		out = append(out, imageLines(t, img, len(imgs) > 1)...)
	}
	return out
}

// Update scrolls when the sections are taller than the pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyMsg); ok {
		p.view.HandleKey(km, p.keys)
	}
	p.view.ScrollBy(pane.Wheel(msg))
	return nil
}

// Below is the lines past the bottom of the pane; the scroll keys bring
// them.
func (p *Pane) Below() (int, bool) { return p.view.Below(), true }

// View renders exactly the SetSize width×height cells.
func (p *Pane) View(focused bool, now time.Time) string {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the machine list…"), width, height)
	}
	out := p.view.View()
	if p.Stale() {
		return pane.Dim(p.theme, out)
	}
	return out
}
