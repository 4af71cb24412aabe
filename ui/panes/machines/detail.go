package machines

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// detail is the drill-down into one machine: a scrollable list of lines,
// rebuilt whenever data arrives so it stays live.
type detail struct {
	id    string
	hint  string // the action keys, "" under --readonly
	lines []string
	body  scroll.View // scrolls lines; view cuts them to the width
}

func newDetail(id, actions string) *detail {
	d := &detail{id: id, hint: actions}
	d.setPage(12)
	return d
}

func (d *detail) refresh(a *snapshot.App, th *theme.Theme, now timeNow) {
	d.lines = detailLines(a, d.id, th, now)
	d.body.SetLines(d.lines)
}

func (d *detail) handleKey(km tea.KeyMsg, k keys.KeyMap) { d.body.HandleKey(km, k) }

// setPage fits the scrolling to a view of height lines: a title line and
// a position line around the page. (Width 0: view fits the lines.)
func (d *detail) setPage(height int) { d.body.SetSize(0, max(height-2, 1)) }

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
	body := d.body.Window()
	from := d.body.Offset()
	pos := th.Dim.Render(cell.Fit(positionText(from, from+len(body), len(d.lines)), width, cell.Right))
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

// scroll moves by n lines (the mouse wheel).
func (d *detail) scroll(n int) { d.body.ScrollBy(n) }
