package machines

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/ui/components/table"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/uitest"
)

// formattedOf is the row the pane formatted for machine id.
func formattedOf(t *testing.T, p *Model, id string) *formatted {
	t.Helper()
	for i := range p.rows.entries {
		if e := &p.rows.entries[i]; e.m.ID == id {
			return e.format()
		}
	}
	t.Fatalf("no row of %s", id)
	return nil
}

func order(p *Model) []string {
	var ids []string
	p.table.Top()
	for i := 0; i < p.table.Len(); i++ {
		r, _ := p.table.Selected()
		ids = append(ids, r.ID)
		p.table.Move(1)
	}
	return ids
}

func withName(name string) func(*fly.Machine) { return func(m *fly.Machine) { m.Name = name } }

// o sorts by the next shown column (ALERT, empty here, is skipped), O
// reverses, and after the last column the rows are as listed again; the
// order holds across a refresh and no row is rebuilt for a new order.
func TestSortByAnyColumnAndBack(t *testing.T) {
	p := newPane()
	p.SetSize(200, 20)
	a := appOf(machine("b2", "stopped", withName("zed")), machine("a1", "started", withName("mid")), machine("c3", "stopped", withName("abe")))
	p.SetData(a, t0)
	if got := strings.Join(order(p), " "); got != "b2 a1 c3" {
		t.Fatalf("as listed: %s", got)
	}
	cached := formattedOf(t, p, "b2")
	steps := []struct {
		key, want, title string
		desc             bool
	}{
		{"o", "a1 b2 c3", "STATE", false}, // awake before asleep, then by id
		{"o", "a1 b2 c3", "ID", false},
		{"o", "c3 a1 b2", "NAME", false}, // ALERT has nothing: skipped
		{"O", "b2 a1 c3", "NAME", true},
	}
	for _, s := range steps {
		p.Update(uitest.Key(s.key))
		if got := strings.Join(order(p), " "); got != s.want {
			t.Fatalf("after %s: %s, want %s", s.key, got, s.want)
		}
		if title, desc := p.Sorting(); title != s.title || desc != s.desc {
			t.Fatalf("after %s: sorted by %q desc=%v, want %q %v", s.key, title, desc, s.title, s.desc)
		}
	}
	head := ansi.Strip(strings.Split(uitest.View(p, 200, 20, true, t0), "\n")[0])
	if !strings.Contains(head, "NAME"+table.SortDesc) {
		t.Fatalf("header does not mark the sorted column: %q", head)
	}
	if formattedOf(t, p, "b2") != cached {
		t.Fatal("sorting rebuilt a row")
	}
	a.ApplyMachines([]*fly.Machine{machine("b2", "stopped", withName("zed")), machine("a1", "started", withName("mid")), machine("c3", "stopped", withName("abe"))}, t0.Add(12*time.Second))
	p.SetData(a, t0.Add(12*time.Second))
	if got := strings.Join(order(p), " "); got != "b2 a1 c3" {
		t.Fatalf("after a refresh the order is %s", got)
	}
	for p.sort.col >= 0 {
		p.Update(uitest.Key("o"))
	}
	if got := strings.Join(order(p), " "); got != "b2 a1 c3" {
		t.Fatalf("back to the listing's order: %s", got)
	}
}

// The age column sorts by time, not by its text ("1h02m" < "9m00s").
func TestSortByAgeComparesTimes(t *testing.T) {
	at := func(d time.Duration) func(*fly.Machine) {
		return func(m *fly.Machine) { m.Events[0].Timestamp = t0.Add(-d).UnixMilli() }
	}
	p := newPane()
	p.SetSize(200, 20)
	p.SetData(appOf(machine("old", "stopped", at(62*time.Minute)), machine("new", "stopped", at(9*time.Minute)), machine("mid", "stopped", at(20*time.Minute))), t0)
	p.setSort(sorting{col: columns.Age})
	if got := strings.Join(order(p), " "); got != "new mid old" {
		t.Fatalf("by age: %s", got)
	}
}

// A column with nothing in any row (no alerts) is not drawn; once a row
// has something, it is.
func TestEmptyColumnsAreDropped(t *testing.T) {
	p := newPane()
	a := appOf(machine("a", "started"), machine("b", "stopped"))
	p.SetData(a, t0)
	if v := ansi.Strip(uitest.View(p, 200, 10, true, t0)); strings.Contains(v, "ALERT") {
		t.Fatalf("an empty ALERT column is drawn:\n%s", v)
	}
	a.Machines[1].Crash.Kind = crashLooping.kind()
	a.Machines[1].Hash++
	p.SetData(a, t0)
	if v := ansi.Strip(uitest.View(p, 200, 10, true, t0)); !strings.Contains(v, "ALERT") || !strings.Contains(v, "✗ crash-loop") {
		t.Fatalf("the ALERT column is missing with an alert:\n%s", v)
	}
}

// At 80 columns the state, id, name, checks, the one age and the newest
// event show (the event cut to its type and status when short of room);
// what is left out is said, and → brings it.
func TestNarrowTableKeepsWhatMatters(t *testing.T) {
	p := newPane()
	p.SetData(appOf(machine("148e4d55f36278", "started", withName("quiet-moon-8403"), func(m *fly.Machine) {
		m.Region = "ams"
		m.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: "passing"}}
	})), t0)
	v := ansi.Strip(uitest.View(p, 78, 8, true, t0))
	for _, want := range []string{"STATE", "ID", "NAME", "CHECKS", "AGE", "NEWEST EVENT", "quiet-moon-8403", "148e4d55f36278", "start/started/", "3m00s", "more columns →"} {
		if !strings.Contains(v, want) {
			t.Fatalf("at 78 columns the table lacks %q:\n%s", want, v)
		}
	}
	// Only the newest event may be cut (its source goes first); a name or an id never.
	if strings.Count(v, "…") != strings.Count(v, "start/started/…") {
		t.Fatalf("a cell other than the newest event is cut at 78 columns:\n%s", v)
	}
	for i := 0; i < columns.Count; i++ {
		p.Update(uitest.Key("right"))
	}
	if _, right := p.table.ColumnsOff(78); right != 0 {
		t.Fatalf("→ never reached the last column: %d still off", right)
	}
	v = ansi.Strip(uitest.View(p, 78, 8, true, t0))
	if !strings.Contains(v, "IMAGE") || !strings.Contains(v, "0123456789ab") || !strings.Contains(v, "148e4d55f36278") {
		t.Fatalf("scrolled right, the image column should show beside the id:\n%s", v)
	}
}

// The pane's cells are the one column definition's (sources/columns), the
// one `flywake status` prints; only the state gets its glyph.
func TestCellsAreTheSharedDefinition(t *testing.T) {
	a := appOf(machine("a", "started", func(m *fly.Machine) {
		m.Checks = []*fly.MachineCheckStatus{{Name: "x", Status: "passing"}, nil}
		m.HostStatus = "unknown"
	}), machine("b", "stopped", func(m *fly.Machine) { m.Events = nil; m.Config = nil }))
	for _, m := range a.Machines {
		row := buildRow(m, newStyles(newPane().ctx.Theme), t0)
		for i, c := range columns.Machines() {
			want := c.Cell(nil, &m, t0)
			if i == columns.State {
				want = strings.Fields(row.Cells[i])[0] + " " + want
			}
			if got := row.Cells[i]; got != want {
				t.Errorf("%s %s: pane %q, definition %q", m.ID, c.Title, got, want)
			}
		}
	}
}

// d asks the root for the machine (the pane does no I/O); the answer
// fills a scrollable view, an older answer is dropped, / searches and n
// moves between matches; esc goes back.
func TestDescribe(t *testing.T) {
	p := newPane()
	p.SetSize(60, 12)
	p.SetData(appOf(machine("a", "started"), machine("b", "stopped")), t0)
	cmd := p.Update(uitest.Key("d"))
	if cmd == nil {
		t.Fatal("d asked for nothing")
	}
	req, ok := cmd().(DescribeRequest)
	if !ok || req.MachineID != "a" || !p.InDescribe() {
		t.Fatalf("d: %#v, describing %v", req, p.InDescribe())
	}
	if v := ansi.Strip(uitest.View(p, 60, 12, true, t0)); !strings.Contains(v, "asking the API") {
		t.Fatalf("while waiting:\n%s", v)
	}
	var lines []string
	for i := range 40 {
		lines = append(lines, `  "line": `+string(rune('a'+i%26)))
	}
	lines[30] = `      "exit_code": 137,`
	lines[35] = `      "exit_code": 0,`
	p.Update(Described{MachineID: "a", Req: req.Req - 1, Err: errors.New("old answer")})
	p.Update(Described{MachineID: "a", Req: req.Req, Lines: lines})
	v := ansi.Strip(uitest.View(p, 60, 12, true, t0))
	if strings.Contains(v, "old answer") || !strings.Contains(v, "lines 1–10 of 40") {
		t.Fatalf("after the answer:\n%s", v)
	}
	p.Update(uitest.Key("/"))
	if !p.Capturing() {
		t.Fatal("/ in describe does not take the keys")
	}
	for _, r := range "EXIT_CODE" {
		p.Update(uitest.Key(string(r)))
	}
	p.Update(uitest.Key("enter"))
	v = ansi.Strip(uitest.View(p, 60, 12, true, t0))
	if !strings.Contains(v, "match 1 of 2") || !strings.Contains(v, "137") {
		t.Fatalf("search for exit_code:\n%s", v)
	}
	p.Update(uitest.Key("n"))
	if v = ansi.Strip(uitest.View(p, 60, 12, true, t0)); !strings.Contains(v, "match 2 of 2") {
		t.Fatalf("n:\n%s", v)
	}
	p.Update(uitest.Key("G"))
	if v = ansi.Strip(uitest.View(p, 60, 12, true, t0)); !strings.Contains(v, "of 40") || !strings.Contains(v, `"line": n`) {
		t.Fatalf("G did not scroll to the end:\n%s", v)
	}
	p.Update(uitest.Key("esc"))
	if p.InDescribe() {
		t.Fatal("esc did not leave the describe view")
	}
}

// y asks the root to copy the selected id.
func TestCopyID(t *testing.T) {
	p := newPane()
	p.SetData(appOf(machine("a", "started"), machine("b", "stopped")), t0)
	p.Update(uitest.Key("j"))
	cmd := p.Update(uitest.Key("y"))
	if cmd == nil {
		t.Fatal("y made no request")
	}
	if c, ok := cmd().(pane.CopyText); !ok || c.Text != "b" {
		t.Fatalf("y: %#v", c)
	}
}

// A click selects the row under it; the wheel moves the cursor.
func TestMouse(t *testing.T) {
	p := newPane()
	p.SetSize(100, 12)
	p.SetData(appOf(machine("a", "started"), machine("b", "stopped"), machine("c", "stopped"), machine("d", "stopped"), machine("e", "stopped")), t0)
	p.Update(tea.MouseMsg{X: 5, Y: 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}) // header, a, b, c
	if id, _ := p.Selected(); id != "c" {
		t.Fatalf("click on line 3 selected %q, want c", id)
	}
	p.Update(tea.MouseMsg{X: 5, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if id, _ := p.Selected(); id != "c" {
		t.Fatalf("a click on the header moved the cursor to %q", id)
	}
	p.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if id, _ := p.Selected(); id != "e" {
		t.Fatalf("wheel down from c: %q, want e", id)
	}
	p.Update(tea.MouseMsg{Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	if id, _ := p.Selected(); id != "b" {
		t.Fatalf("wheel up from e: %q, want b", id)
	}
}

// A time in the drill-down that is not today's says its date.
func TestDetailTimesSayTheDateWhenNotToday(t *testing.T) {
	p := newPane()
	p.SetSize(200, 60)
	p.SetData(appOf(machine("a", "stopped", func(m *fly.Machine) {
		m.Events = []*fly.MachineEvent{{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: t0.Add(-14*time.Hour - 20*time.Minute - 39*time.Second).UnixMilli()},
			{Type: "start", Status: "started", Source: "flyd", Timestamp: t0.Add(-time.Hour).UnixMilli()}}
	})), t0)
	p.Update(uitest.Key("enter"))
	v := ansi.Strip(uitest.View(p, 200, 60, true, t0))
	if !strings.Contains(v, "Nov 29 21:39:21  exit/stopped/flyd") || !strings.Contains(v, "  11:00:00  start/started/flyd") {
		t.Fatalf("event times:\n%s", v)
	}
}

// The describe search finds a query in any case, next to characters whose
// lower case has another byte length (Ⱥ, the Kelvin sign), and across the
// place where a long line wraps; the highlighted lines stay valid text.
func TestDescribeSearchAnyText(t *testing.T) {
	p := newPane()
	p.SetSize(40, 12)
	p.SetData(appOf(machine("a", "started")), t0)
	req := p.Update(uitest.Key("d"))().(DescribeRequest)
	lines := []string{
		`  "name": "ȺȺȺȺȺȺ x",`,
		`  "region": "KKKK Name",`,
		`  "image": "registry.fly.io/sleepy-api:deployment-01JABCDEFGHXYZ"`,
	}
	p.Update(Described{MachineID: "a", Req: req.Req, Lines: lines})
	search := func(q string) string {
		p.Update(uitest.Key("/"))
		for range 40 {
			p.Update(uitest.Key("backspace"))
		}
		for _, r := range q {
			p.Update(uitest.Key(string(r)))
		}
		p.Update(uitest.Key("enter"))
		return uitest.View(p, 40, 12, true, t0)
	}
	for _, tc := range []struct{ query, want string }{
		{"X", "of 2"},                 // "x" after the Ⱥs, "XYZ" in the image
		{"name", "of 2"},              // the "name" key, "Name" after the Kelvin signs
		{"deployment-01jabc", "of 1"}, // in the image line, which wraps at 40 columns
	} {
		v := search(tc.query)
		if !utf8.ValidString(v) || !strings.Contains(ansi.Strip(v), "match 1 "+tc.want) {
			t.Errorf("/%s: want match 1 %s, valid UTF-8 %v:\n%s", tc.query, tc.want, utf8.ValidString(v), ansi.Strip(v))
		}
	}
	if v := ansi.Strip(search("ȺȺȺ x")); !strings.Contains(v, "ȺȺȺȺȺȺ x") {
		t.Errorf("the highlighted line lost its text:\n%s", v)
	}
}
