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
	hint  string   // the action keys, "" under --readonly
	raw   []string // detailLines, one per fact
	lines []string // raw wrapped to the width: nothing is cut
	width int
	body  scroll.View // scrolls lines
}

func newDetail(id, actions string) *detail {
	d := &detail{id: id, hint: actions}
	d.setSize(0, 12)
	return d
}

func (d *detail) refresh(a *snapshot.App, th *theme.Theme, now timeNow) {
	d.raw = detailLines(a, d.id, th, now)
	d.rewrap()
}

func (d *detail) handleKey(km tea.KeyMsg, k keys.KeyMap) { d.body.HandleKey(km, k) }

// setSize fits the lines to width and the scrolling to a view of height
// lines: a title line and a position line around the page.
func (d *detail) setSize(width, height int) {
	d.width = width
	d.body.SetSize(width, max(height-2, 1))
	d.rewrap()
}

// rewrap wraps every line to the width, so an identity line or a reminder
// longer than the pane reads whole on two lines rather than cut.
func (d *detail) rewrap() {
	d.lines = wrapDetail(d.raw, d.width)
	d.body.SetLines(d.lines)
}

// wrapDetail is lines wrapped to width (0: as they are), continuations
// indented by two.
func wrapDetail(lines []string, width int) []string {
	if width <= 0 {
		return lines
	}
	return cell.WrapAll(lines, width, 2)
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
