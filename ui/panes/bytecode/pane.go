package bytecode

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Pane is the Bytecode pane. Build it with New.
type Pane struct {
	theme *theme.Theme
	keys  keys.KeyMap

	loaded bool
	lines  []line // derived in SetData; View only wraps and cuts a window
	offset int    // first screen line shown
	page   int    // screen lines at the last View
	total  int    // screen lines (after wrapping) at the last View
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
	return &Pane{theme: t, keys: km, page: 1}
}

// Title names the pane.
func (p *Pane) Title() string { return "Bytecode" }

// SetData derives the verdict and one section per image digest.
func (p *Pane) SetData(a *snapshot.App, _ time.Time) {
	p.loaded = a != nil
	if a == nil {
		p.lines = nil
		return
	}
	p.lines = buildLines(p.theme, a)
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
	head := lookFor(t, v, notPython).Render() + " " + cell.Sanitize(v.Line)
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
		p.offset, _ = p.keys.Scroll(km, p.offset, p.page, max(p.total-p.page, 0))
	}
	return nil
}

func (p *Pane) clamp(offset, page int) int {
	return min(max(offset, 0), max(p.total-page, 0))
}

// Animating is false: nothing here changes with time alone.
func (p *Pane) Animating() bool { return false }

// Capturing is always false: the pane takes no text input.
func (p *Pane) Capturing() bool { return false }

// View renders exactly width×height cells.
func (p *Pane) View(width, height int, focused bool, now time.Time) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the machine list…"), width, height)
	}
	screen := layoutLines(p.lines, width)
	p.page, p.total = height, len(screen)
	p.offset = p.clamp(p.offset, height)
	end := min(p.offset+height, len(screen))
	return cell.Block(strings.Join(screen[p.offset:end], "\n"), width, height)
}
