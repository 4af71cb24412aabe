package machines

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// detail is the drill-down into one machine: a scrollable list of lines,
// rebuilt whenever data arrives so it stays live.
type detail struct {
	id     string
	hint   string // the action keys, "" under --readonly
	lines  []string
	offset int
	page   int
}

func newDetail(id, actions string) *detail { return &detail{id: id, hint: actions, page: 10} }

func (d *detail) refresh(a *snapshot.App, th *theme.Theme, now timeNow) {
	d.lines = detailLines(a, d.id, th, now)
	d.clamp()
}

func (d *detail) handleKey(km tea.KeyMsg, k keys.KeyMap) {
	switch {
	case key.Matches(km, k.Up):
		d.offset--
	case key.Matches(km, k.Down):
		d.offset++
	case key.Matches(km, k.PageUp):
		d.offset -= d.page
	case key.Matches(km, k.PageDown):
		d.offset += d.page
	case key.Matches(km, k.Home):
		d.offset = 0
	case key.Matches(km, k.End):
		d.offset = len(d.lines)
	}
	d.clamp()
}

// setPage fits the scrolling to a view of height lines: a title line and
// a position line around the page.
func (d *detail) setPage(height int) {
	d.page = max(height-2, 1)
	d.clamp()
}

func (d *detail) clamp() {
	d.offset = min(max(d.offset, 0), max(len(d.lines)-d.page, 0))
}

// view draws a title line, the visible window of lines and a position line.
func (d *detail) view(th *theme.Theme, width, height int) string {
	keysHint := "  esc back · ↑/↓ scroll"
	if d.hint != "" {
		keysHint += " · " + d.hint
	}
	title := th.TableHeader.Render("machine "+d.id) + th.Dim.Render(keysHint)
	if height <= 2 {
		return cell.Block(title, width, height)
	}
	end := min(d.offset+d.page, len(d.lines))
	body := d.lines[d.offset:end]
	pos := th.Dim.Render(cell.Fit(positionText(d.offset, end, len(d.lines)), width, cell.Right))
	out := make([]string, 0, height)
	out = append(out, title)
	out = append(out, body...)
	for len(out) < height-1 {
		out = append(out, "")
	}
	out = append(out, pos)
	return cell.Block(strings.Join(out, "\n"), width, height)
}

func positionText(from, to, n int) string {
	if n == 0 {
		return "empty "
	}
	return "lines " + cell.Thousands(from+1) + "–" + cell.Thousands(to) + " of " + cell.Thousands(n) + " "
}
