package traffic

import (
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

// ID is the traffic pane's ID.
const ID pane.ID = "traffic"

// Pane is the Traffic pane. Build it with New.
type Pane struct {
	pane.Base
	theme *theme.Theme
	keys  keys.KeyMap

	loaded  bool
	summary snapshot.TrafficSummary
	lines   []string    // screen(summary) at the current width
	keep    int         // lines of them through the chart's boots row
	view    scroll.View // scrolls lines
	at      time.Time   // the platform time of the data, for the logs jump
	// Height and Needs, for summary.
	height, needs pane.WidthMemo
}

var (
	_ pane.Pane     = (*Pane)(nil)
	_ pane.Overflow = (*Pane)(nil)
	_ pane.Priority = (*Pane)(nil)
)

// New builds the pane with the shared theme and keys.
func New(ctx pane.Context) *Pane {
	t, km := ctx.Themed(), ctx.KeyMap()
	return &Pane{theme: t, keys: km}
}

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// Title names the pane.
func (p *Pane) Title() string { return "Traffic" }

// SetData derives the summary (snapshot caches it between changes).
func (p *Pane) SetData(a *snapshot.App, now time.Time) {
	was := p.loaded
	p.loaded = a != nil
	p.at = now
	if a != nil {
		s := a.TrafficSummary(now)
		if was && sameSummary(s, p.summary) {
			return // the summary the lines were drawn from: the same lines
		}
		p.summary = s
	}
	p.height.Forget()
	p.needs.Forget()
	p.relayout()
}

// sameSummary reports whether x and y are the one summary the app keeps
// between changes (snapshot caches it): each summary worked out afresh
// has hours of its own (false: perhaps not the same).
func sameSummary(x, y snapshot.TrafficSummary) bool {
	return len(x.Hours) > 0 && len(x.Hours) == len(y.Hours) && &x.Hours[0] == &y.Hours[0] && x.At.Equal(y.At)
}

// SetSize is the size View draws at. The root sizes every pane after
// every message; the lines depend only on the data and the width.
func (p *Pane) SetSize(width, height int) {
	if w, h := p.Size(); w == width && h == height {
		return
	}
	p.Base.SetSize(width, height)
	p.relayout()
}

func (p *Pane) relayout() {
	w, h := p.Size()
	p.lines, p.keep = nil, 0
	if p.loaded {
		p.lines, p.keep = screenLines(p.theme, p.summary, w)
	}
	p.view.SetSize(w, h)
	p.view.SetLines(p.lines)
}

// Height is every line at width.
func (p *Pane) Height(width int) int {
	if !p.loaded {
		return 1
	}
	return p.height.Get(width, func(w int) int { return max(len(screen(p.theme, p.summary, w)), 1) })
}

// Needs is the lines through the chart's boots row: the layout keeps them
// on screen before the other panes' wants.
func (p *Pane) Needs(width int) int {
	if !p.loaded {
		return 1
	}
	return p.needs.Get(width, func(w int) int {
		_, keep := screenLines(p.theme, p.summary, w)
		return keep
	})
}

// Below is the lines past the bottom of the pane; the scroll keys bring
// them.
func (p *Pane) Below() (int, bool) { return p.view.Below(), true }

// Keys: scrolling, when the lines are taller than the pane.
func (p *Pane) Keys() []key.Binding {
	logs := pane.Relabel(p.keys.Logs, "", "lost requests' proxy lines")
	if _, h := p.Size(); len(p.lines) <= h {
		return []key.Binding{logs}
	}
	return []key.Binding{pane.Arrows(&p.keys, "scroll"), logs}
}

// Update scrolls; l opens the logs view on the proxy's error lines of the
// day (the requests that died between the edge and the app).
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyMsg); ok {
		if key.Matches(km, p.keys.Logs) {
			show := pane.ShowLogs{ProxyErrors: true, From: p.at.Add(-24 * time.Hour), Why: "requests lost at the edge"}
			return func() tea.Msg { return show }
		}
		p.view.HandleKey(km, p.keys)
	}
	p.view.ScrollBy(pane.Wheel(msg))
	return nil
}

// View renders exactly the SetSize width×height cells.
func (p *Pane) View(focused bool, now time.Time) string {
	w, h := p.Size()
	if w <= 0 || h <= 0 {
		return ""
	}
	if !p.loaded {
		return cell.Block(p.theme.Dim.Render("waiting for the app's data…"), w, h)
	}
	out := p.view.View()
	if p.Stale() {
		return pane.Dim(p.theme, out)
	}
	return out
}
