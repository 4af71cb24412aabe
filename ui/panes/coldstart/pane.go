package coldstart

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Pane is the Cold starts pane. Build it with New.
type Pane struct {
	pane.Base
	theme  *theme.Theme
	keys   keys.KeyMap
	phases []lipgloss.Style // per legend index, built once

	loaded bool
	d      derived

	// A selected boot and a window (scroll.Window): bubbles/viewport
	// scrolls text and has no cursor to select a row with.
	cursor int // index into d.history
	offset int // first history row on screen
	page   int // history rows on screen, from the size
	lay    laidOut
	// The summary's and the legend's lines, wrapped (the root measures
	// and lays the panes out after every message).
	summaryWrap, legendWrap pane.WrapMemo
}

// ID is the cold starts pane's ID.
const ID pane.ID = "coldstart"

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

var (
	_ pane.Pane     = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
)

// phaseColours tell phases apart; release work always draws in Warn.
var phaseColours = []string{"6", "4", "5", "2", "12", "14", "13", "10"}

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	p := &Pane{theme: t, keys: km, page: 1}
	for _, c := range phaseColours {
		s := t.Renderer().NewStyle()
		if !t.NoColor {
			s = s.Foreground(lipgloss.Color(c))
		}
		p.phases = append(p.phases, s)
	}
	return p
}

// Title names the pane.
func (p *Pane) Title() string { return "Cold starts" }

// SetData derives live timers, stats and the boot history from the model.
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	p.loaded = a != nil && a.LogsRead // boots come from logs: none read yet is not "no boots"
	p.d = derive(a, now)
	p.cursor = min(max(p.cursor, 0), max(len(p.d.history)-1, 0))
	p.relayout()
}

// SetSize is the size View draws at.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.relayout()
}

// Keys: the history's cursor moves when there is a history.
func (p *Pane) Keys() []key.Binding {
	if len(p.d.history) == 0 {
		return nil
	}
	logs := pane.Relabel(p.keys.Logs, "", "boot's logs")
	if len(p.d.history) < 2 {
		return []key.Binding{logs}
	}
	return []key.Binding{pane.Arrows(&p.keys, "select boot"), pane.Pair(p.keys.PageUp, p.keys.PageDown, "page"), logs}
}

// bootSlack widens a boot's window in the logs view: the proxy's "Starting
// machine" comes just before the runner's first line.
const bootSlack = 2 * time.Second

// Update scrolls the history with the navigation keys; l opens the logs
// view on the selected boot's machine and time.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if step := pane.Wheel(msg); step != 0 && len(p.d.history) > 0 {
		p.cursor = min(max(p.cursor+step, 0), len(p.d.history)-1)
		p.relayout()
		return nil
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if key.Matches(km, p.keys.Logs) && p.cursor < len(p.d.history) {
		b := p.d.history[p.cursor]
		show := pane.ShowLogs{Machine: b.Machine, From: b.Begin.Add(-bootSlack),
			To: b.Begin.Add(b.Total + bootSlack), Why: "boot of " + b.Machine + " at " + b.Begin.UTC().Format("15:04:05")}
		if b.Status == bootLive {
			show.To = time.Time{} // still booting: follow it
		}
		return func() tea.Msg { return show }
	}
	p.cursor, _ = p.keys.Scroll(km, p.cursor, p.page, len(p.d.history)-1)
	p.relayout()
	return nil
}

// styleOf is the style of one phase in the bar and legend.
func (p *Pane) styleOf(e *legendEntry) lipgloss.Style {
	if e.ReleaseWork {
		return p.theme.Warn
	}
	return p.phases[e.Index%len(p.phases)]
}
