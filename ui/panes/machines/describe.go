package machines

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// DescribeRequest asks the root for the whole of one machine as the API
// answers GET machine. The model holds plain fields only, so the describe
// view fetches on demand; the root runs the call (with a deadline) and
// answers with Described. Req tells a reply from an older request's.
type DescribeRequest struct {
	MachineID string
	Req       int
}

// Described answers a DescribeRequest: the machine's JSON lines, already
// inert (sources/fly.DescribeMachine), or why there are none.
type Described struct {
	MachineID string
	Req       int
	Lines     []string
	Err       error
}

// describe is the describe view of one machine: its whole JSON, scrollable
// (scroll.View) and searchable (/ types, n/p move between matches).
type describe struct {
	id      string
	req     int
	loading bool
	err     string
	raw     []string // the answer's lines, unwrapped

	width   int
	body    scroll.View
	lines   []string // raw wrapped to the width, as body holds them
	search  textinput.Model
	query   string         // the search in force
	match   *regexp.Regexp // query, any case; nil without one
	matches []int          // the first wrapped line of each raw line that holds the query
	current int            // index into matches
}

// searching: the search is being typed.
func (d *describe) searching() bool { return d.search.Focused() }

func newDescribe(id string, req int, th *theme.Theme) *describe {
	in := th.NewInput("search: ")
	return &describe{id: id, req: req, loading: true, search: in}
}

// answer takes the reply, if it is the one this view waits for.
func (d *describe) answer(msg Described, th *theme.Theme) {
	if msg.MachineID != d.id || msg.Req != d.req {
		return
	}
	d.loading = false
	if msg.Err != nil {
		d.err = msg.Err.Error() // one line and redacted by the root (describeCmd)
		d.raw = nil
	} else {
		d.raw = msg.Lines
	}
	d.rewrap(th)
}

// setSize fits the view to width×height: a title line, the viewport, and
// the search line while it is typed (or a position line).
func (d *describe) setSize(width, height int, th *theme.Theme) {
	d.search.Width = max(width-len(d.search.Prompt)-1, 1)
	if width != d.width {
		d.width = width
		d.rewrap(th)
	}
	d.body.SetSize(width, max(height-2, 1))
}

// rewrap marks the search's matches and wraps the answer to the width
// (continuing under each line's own indentation); it runs on a new answer,
// width or search, never in View. A line is searched whole, before it is
// wrapped, so a match across a break is still found.
func (d *describe) rewrap(th *theme.Theme) {
	d.lines = make([]string, 0, len(d.lines)) // body keeps the lines it was given
	d.matches = d.matches[:0]
	for _, l := range d.raw {
		if d.match != nil && d.match.MatchString(l) {
			d.matches = append(d.matches, len(d.lines))
			l = d.match.ReplaceAllStringFunc(l, func(s string) string { return th.Badge.Render(s) })
		}
		d.lines = append(d.lines, cell.Wrap(l, max(d.width, 1), 2)...)
	}
	d.current = min(d.current, max(len(d.matches)-1, 0))
	d.body.SetLines(d.lines)
}

// handleKey scrolls, searches and moves between matches; it reports whether
// the key was its own.
func (d *describe) handleKey(km tea.KeyMsg, k keys.KeyMap, th *theme.Theme) (tea.Cmd, bool) {
	if d.searching() {
		switch {
		case key.Matches(km, k.Enter):
			d.search.Blur()
			d.find(th)
			return nil, true
		case key.Matches(km, k.Back):
			d.search.Blur()
			d.search.SetValue(d.query)
			return nil, true
		}
		var cmd tea.Cmd
		d.search, cmd = d.search.Update(km)
		return cmd, true
	}
	switch {
	case key.Matches(km, k.Filter):
		return d.search.Focus(), true
	case key.Matches(km, k.NextItem):
		d.jump(1)
	case key.Matches(km, k.PrevItem):
		d.jump(-1)
	default:
		return nil, d.body.HandleKey(km, k)
	}
	return nil, true
}

// find applies the typed search and shows its first match at or below the
// top line.
func (d *describe) find(th *theme.Theme) {
	d.query, d.match = strings.TrimSpace(d.search.Value()), nil
	if d.query != "" {
		// Matched in the line itself: positions found in a lower-cased copy
		// are wrong where lower-casing changes a character's byte length.
		d.match = regexp.MustCompile("(?i)" + regexp.QuoteMeta(d.query))
	}
	top := d.body.Offset()
	d.current = 0
	d.rewrap(th)
	for i, l := range d.matches {
		if l >= top {
			d.current = i
			break
		}
	}
	d.show()
}

// jump moves to the next (+1) or previous (-1) match, round the end.
func (d *describe) jump(dir int) {
	if len(d.matches) == 0 {
		return
	}
	d.current = (d.current + dir + len(d.matches)) % len(d.matches)
	d.show()
}

// show scrolls the current match into view, a few lines from the top.
func (d *describe) show() {
	if len(d.matches) == 0 {
		return
	}
	d.body.ScrollTo(d.matches[d.current] - min(3, d.body.Height()/3))
}

// scroll moves by n lines (the mouse wheel).
func (d *describe) scroll(n int) { d.body.ScrollBy(n) }

// view draws the title, the JSON and the search or position line.
func (d *describe) view(th *theme.Theme, k keys.KeyMap, width, height int) string {
	title := th.TableHeader.Render("describe "+d.id) + th.Dim.Render("  GET machine · "+k.Back.Help().Key+" back · "+
		k.Filter.Help().Key+" search · "+keys.Short(k.NextItem)+"/"+keys.Short(k.PrevItem)+" match")
	if height <= 2 {
		return cell.Block(title, width, height)
	}
	var body string
	switch {
	case d.loading:
		body = th.Dim.Render("asking the API for machine " + d.id + "…")
	case d.err != "":
		body = th.Warn.Render(ansi.Wrap("could not describe "+d.id+": "+d.err, width, " ")) + "\n" +
			th.Dim.Render("press "+k.Describe.Help().Key+" to ask again, "+k.Back.Help().Key+" to go back")
	default:
		body = d.body.View()
	}
	var last string
	switch {
	case d.searching():
		last = d.search.View()
	default:
		last = th.Dim.Render(cell.Fit(d.position(), width, cell.Right))
	}
	out := title + "\n" + cell.Block(body, width, height-2) + "\n" + last
	return cell.Block(out, width, height)
}

// position is "lines 1–20 of 180", with the search and its match.
func (d *describe) position() string {
	from := d.body.Offset()
	s := positionText(from, from+len(d.body.Window()), len(d.lines))
	if d.query != "" {
		m := "no match"
		if len(d.matches) > 0 {
			m = "match " + strconv.Itoa(d.current+1) + " of " + strconv.Itoa(len(d.matches))
		}
		s = "/" + d.query + " · " + m + " · " + s
	}
	return s
}
