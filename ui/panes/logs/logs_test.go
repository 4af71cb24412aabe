package logs

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// day writes n lines over the hours before t0: three machines in two
// regions, every provider, a warning every 50th line, an error every 200th.
func day(n int) []diagnose.LogLine {
	machines := []string{"0e28655e1d4d86", "3d8d9931c27e89", "91857277a3ee58"}
	providers := []string{"app", "app", "app", "proxy", "runner", "health"}
	out := make([]diagnose.LogLine, n)
	for i := range out {
		m := i % len(machines)
		l := diagnose.LogLine{Time: t0.Add(-time.Duration(n-i) * 500 * time.Millisecond), Machine: machines[m],
			Region: []string{"ams", "ams", "fra"}[m], Provider: providers[i%len(providers)], Level: "info",
			Message: fmt.Sprintf(`192.0.2.%d sleepy-api.fly.dev "GET /api/v1/notifications/%d/ HTTP/1.1" 200 812 9ms`, i%250, i)}
		switch {
		case i%200 == 0:
			l.Level, l.Message = "error", fmt.Sprintf("[PR04] could not find a good candidate within 40 attempts at load balancing (%d)", i)
		case i%50 == 0:
			l.Level, l.Message = "warn", "Health check 'health' has failed. Your app is not responding properly."
		}
		out[i] = l
	}
	return out
}

// model holds lines as the app's model does (ApplyLogs, one page at a time).
func model(lines []diagnose.LogLine) *snapshot.App {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	for i := 0; i < len(lines); i += 1000 {
		a.ApplyLogs(lines[i:min(i+1000, len(lines))])
	}
	return a
}

func newPane(th *theme.Theme) *Pane {
	return New(pane.Context{Theme: th})
}

// run feeds msg to p and runs every command it returns (scans included)
// until none is left, as the root would.
func run(p *Pane, msg tea.Msg) {
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		cmd := p.Update(queue[0])
		queue = queue[1:]
		queue = append(queue, drain(cmd)...)
	}
}

func drain(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, drain(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

func typeText(p *Pane, s string) {
	for _, r := range s {
		run(p, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func shownLines(p *Pane) []diagnose.LogLine {
	var out []diagnose.LogLine
	for i := range p.shown() {
		out = append(out, *p.line(i))
	}
	return out
}

func TestFiltersNarrowTheLines(t *testing.T) {
	a := model(day(3000))
	p := newPane(theme.New(true))
	p.SetSize(120, 30)
	p.SetData(a, t0)
	p.Open()
	if p.shown() != 3000 || !p.follow || p.cursor != 2999 {
		t.Fatalf("unfiltered: %d shown, follow %v, cursor %d", p.shown(), p.follow, p.cursor)
	}
	// L twice: errors only.
	run(p, uitest.Key("L"))
	run(p, uitest.Key("L"))
	for _, l := range shownLines(p) {
		if l.Level != "error" {
			t.Fatalf("level filter let %q through", l.Level)
		}
	}
	if p.shown() != 15 {
		t.Errorf("%d error lines, want 15", p.shown())
	}
	run(p, uitest.Key("x"))
	// The cursor's machine, then region, then the proxy's lines.
	run(p, uitest.Key("M"))
	want := a.Logs()[2999].Machine
	for _, l := range shownLines(p) {
		if l.Machine != want {
			t.Fatalf("machine filter let %s through", l.Machine)
		}
	}
	if p.shown() != 1000 {
		t.Errorf("%d lines of %s, want 1000", p.shown(), want)
	}
	run(p, uitest.Key("M"))
	run(p, uitest.Key("R"))
	if n := p.shown(); n != 2000 && n != 1000 {
		t.Errorf("region filter shows %d", n)
	}
	run(p, uitest.Key("x"))
	for range 3 { // "" → app → runner → proxy
		run(p, uitest.Key("P"))
	}
	if p.filter.Provider != "proxy" || p.shown() != 500 {
		t.Errorf("provider %q shows %d, want proxy 500", p.filter.Provider, p.shown())
	}
	run(p, uitest.Key("x"))
	// A regex, typed: live, case-insensitive; a bad one matches as text.
	run(p, uitest.Key("/"))
	typeText(p, "PR0[4]")
	if !p.Capturing() || p.shown() != 15 {
		t.Errorf("regex PR0[4]: capturing %v, %d shown", p.Capturing(), p.shown())
	}
	run(p, uitest.Key("enter"))
	run(p, uitest.Key("x"))
	run(p, uitest.Key("/"))
	typeText(p, "(")
	if p.reErr == nil || p.shown() != 15 {
		t.Errorf("regex %q: err %v, %d shown (matched as text: every PR04 line has a parenthesis)", p.filter.Regex, p.reErr, p.shown())
	}
	run(p, uitest.Key("esc"))
	if p.filter.Regex != "" || p.Capturing() {
		t.Errorf("esc in the input kept %q", p.filter.Regex)
	}
}

func TestFollowPauseAndNewLines(t *testing.T) {
	lines := day(5000)
	a := model(lines[:4000])
	p := newPane(theme.New(true))
	p.SetSize(100, 20)
	p.SetData(a, t0)
	run(p, uitest.Key("up")) // pauses
	if p.follow || p.cursor != 3998 {
		t.Fatalf("up: follow %v cursor %d", p.follow, p.cursor)
	}
	a.ApplyLogs(lines[4000:])
	p.SetData(a, t0)
	if p.cursor != 3998 {
		t.Errorf("paused, new lines moved the cursor to %d", p.cursor)
	}
	// What arrived counts, not the lines below the cursor (one more).
	if out := ansi.Strip(p.View(true, t0)); !strings.Contains(out, "1,000 new lines since you paused (space follows)") || !strings.Contains(out, "‖ paused") {
		t.Errorf("paused view:\n%s", out)
	}
	run(p, uitest.Key(" "))
	if !p.follow || p.cursor != 4999 {
		t.Errorf("space: follow %v cursor %d", p.follow, p.cursor)
	}
}

// A filtered view across the model dropping its oldest lines (it keeps
// snapshot.MaxLogLines): the indexes shift, the matches stay right.
func TestFilterSurvivesTheModelDroppingLines(t *testing.T) {
	lines := day(snapshot.MaxLogLines + 20_000)
	a := model(lines[:snapshot.MaxLogLines])
	p := newPane(theme.New(true))
	p.SetSize(100, 20)
	p.SetData(a, t0)
	run(p, uitest.Key("L"))
	run(p, uitest.Key("L"))
	before := p.shown()
	for i := snapshot.MaxLogLines; i < len(lines); i += 1000 {
		a.ApplyLogs(lines[i:min(i+1000, len(lines))])
		p.SetData(a, t0)
	}
	if len(a.Logs()) >= snapshot.MaxLogLines+20_000 {
		t.Fatal("the model did not drop lines; the test tests nothing")
	}
	got := shownLines(p)
	want := 0
	for _, l := range a.Logs() {
		if l.Level == "error" {
			want++
		}
	}
	if len(got) != want || before == 0 {
		t.Fatalf("%d error lines shown, the model holds %d", len(got), want)
	}
	for _, l := range got {
		if l.Level != "error" {
			t.Fatalf("after the drop a %s line shows", l.Level)
		}
	}
}

// A jump from a boot: its machine and window; esc closes, l reopens all.
func TestShowLogsJump(t *testing.T) {
	a := model(day(3000))
	p := newPane(theme.New(true))
	p.SetSize(100, 20)
	p.SetData(a, t0)
	m := a.Logs()[1500].Machine
	from, to := a.Logs()[1400].Time, a.Logs()[1600].Time
	run(p, pane.ShowLogs{Machine: m, From: from, To: to, Why: "boot of " + m})
	p.Open()
	got := shownLines(p)
	if len(got) == 0 || p.follow {
		t.Fatalf("jump: %d lines, follow %v", len(got), p.follow)
	}
	for _, l := range got {
		if l.Machine != m || l.Time.Before(from) || l.Time.After(to) {
			t.Fatalf("jump let %v through", l)
		}
	}
	if !strings.Contains(p.Title(), "boot of") {
		t.Errorf("title %q", p.Title())
	}
	p.Open() // opened again with l: everything, following
	if p.shown() != 3000 || !p.follow || p.Title() != "Logs" {
		t.Errorf("reopened: %d shown, follow %v, %q", p.shown(), p.follow, p.Title())
	}
}

func TestViewExactSizeAtEverySize(t *testing.T) {
	p := newPane(theme.New(false))
	p.SetData(model(day(500)), t0)
	for _, sz := range uitest.Sizes {
		uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], true, t0), sz[0], sz[1])
	}
	run(p, uitest.Key("/"))
	for _, sz := range uitest.Sizes {
		uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], true, t0), sz[0], sz[1])
	}
}

// Hostile text stays inert through the model and the view.
func TestLinesReachTheScreenInert(t *testing.T) {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	a.ApplyLogs([]diagnose.LogLine{{Time: t0, Machine: "m1", Provider: "app", Message: "boom \x1b]52;c;aGk=\x07 \x1b[2J done"}})
	p := newPane(theme.New(true))
	p.SetData(a, t0)
	out := uitest.View(p, 80, 10, true, t0)
	if !strings.Contains(out, "boom") {
		t.Fatalf("the line is not drawn:\n%s", out)
	}
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1b[2J") {
		t.Errorf("a control sequence reached the view: %q", out)
	}
}

func TestGoldens(t *testing.T) {
	uitest.PinColorProfile(t)
	for _, c := range []struct {
		name    string
		w, h    int
		noColor bool
	}{{"80x24", 80, 24, false}, {"160x48", 160, 48, false}, {"80x24-nocolor", 80, 24, true}} {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(theme.New(c.noColor))
			p.SetData(model(day(2000)), t0)
			run(p, uitest.Key("L")) // warnings and worse
			run(p, uitest.Key("up"))
			out := uitest.View(p, c.w, c.h, true, t0)
			uitest.AssertSize(t, out, c.w, c.h)
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// The Traffic pane's jump: only the proxy's lines that carry an error code.
func TestShowLogsProxyErrors(t *testing.T) {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	a.ApplyLogs([]diagnose.LogLine{
		{Time: t0.Add(-3 * time.Second), Machine: "m1", Provider: "proxy", Message: "Starting machine"},
		{Time: t0.Add(-2 * time.Second), Machine: "m1", Provider: "proxy", Level: "error", Message: "[PM03] could not wake up machine due to a timeout requesting from the machines API"},
		{Time: t0.Add(-time.Second), Machine: "m1", Provider: "app", Level: "error", Message: "[PR04] quoted by the app, not the proxy"},
	})
	p := newPane(theme.New(true))
	p.SetSize(100, 10)
	p.SetData(a, t0)
	run(p, pane.ShowLogs{ProxyErrors: true, From: t0.Add(-time.Hour), Why: "requests lost at the edge"})
	p.Open()
	got := shownLines(p)
	if len(got) != 1 || !strings.Contains(got[0].Message, "PM03") {
		t.Fatalf("proxy errors: %v", got)
	}
	if out := ansi.Strip(p.View(true, t0)); !strings.Contains(out, "the proxy's error lines") {
		t.Errorf("the filter bar does not say so:\n%s", out)
	}
}

// Moving up pauses without anything new: no line is said to have arrived.
func TestPausingAloneIsNothingNew(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetSize(100, 20)
	p.SetData(model(day(500)), t0)
	run(p, uitest.Key("up"))
	run(p, uitest.Key("up"))
	if out := ansi.Strip(p.View(true, t0)); strings.Contains(out, "new line") || strings.Contains(out, "newer") {
		t.Errorf("two lines up, nothing arrived:\n%s", out)
	}
}

// An access line at 80 columns: cut it hides its status and latency;
// wrapped (w) it reads whole, and y copies the line under the cursor.
func TestWrapShowsAWholeLineAndYCopiesIt(t *testing.T) {
	a := model(day(300))
	p := newPane(theme.New(true))
	p.SetSize(78, 20)
	p.SetData(a, t0)
	run(p, uitest.Key("up"))
	cur, _ := p.current()
	tail := `HTTP/1.1" 200 812 9ms`
	joined := func() string {
		return strings.Join(strings.Fields(ansi.Strip(p.View(true, t0))), " ")
	}
	if strings.Contains(joined(), cur.Message) {
		t.Fatalf("the line fits at 78 cells without wrapping; the test tests nothing")
	}
	run(p, uitest.Key("w"))
	if !p.wrap || !strings.Contains(joined(), cur.Message) || !strings.HasSuffix(cur.Message, tail) {
		t.Errorf("wrapped, %q is not whole:\n%s", cur.Message, ansi.Strip(p.View(true, t0)))
	}
	if c, ok := p.current(); !ok || c != cur {
		t.Errorf("wrapping moved the cursor off %q", cur.Message)
	}
	msgs := drain(p.Update(uitest.Key("y")))
	if len(msgs) != 1 {
		t.Fatalf("y: %d messages", len(msgs))
	}
	c, ok := msgs[0].(pane.CopyText)
	if !ok || !strings.HasSuffix(c.Text, cur.Message) || !strings.Contains(c.Text, cur.Machine) || c.What != "log line" {
		t.Errorf("y copied %#v, want the line of %q", msgs[0], cur.Message)
	}
	uitest.AssertSize(t, p.View(true, t0), 78, 20)
}

// With lines cut, → scrolls the messages sideways and ← back; with them
// wrapped, ← and → say there is nothing to the side. t drops the times.
func TestSidewaysAndTimes(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetSize(60, 12)
	p.SetData(model(day(300)), t0)
	run(p, uitest.Key("right"))
	if p.shift != shiftStep || !strings.Contains(ansi.Strip(p.View(true, t0)), "from cell 21") {
		t.Errorf("→: shift %d:\n%s", p.shift, ansi.Strip(p.View(true, t0)))
	}
	run(p, uitest.Key("left"))
	run(p, uitest.Key("left"))
	if p.shift != 0 || !strings.Contains(ansi.Strip(p.View(true, t0)), "at the start of the lines") {
		t.Errorf("← twice: shift %d:\n%s", p.shift, ansi.Strip(p.View(true, t0)))
	}
	run(p, uitest.Key("w"))
	run(p, uitest.Key("right"))
	if p.shift != 0 || !strings.Contains(ansi.Strip(p.View(true, t0)), "nothing is off to the side") {
		t.Errorf("→ while wrapped:\n%s", ansi.Strip(p.View(true, t0)))
	}
	stamp := t0.Add(-500 * time.Millisecond).UTC().Format("15:04:05")
	if !strings.Contains(ansi.Strip(p.View(true, t0)), stamp) {
		t.Fatalf("no time %s on screen", stamp)
	}
	run(p, uitest.Key("t"))
	if strings.Contains(ansi.Strip(p.View(true, t0)), stamp) {
		t.Errorf("t: the times still show:\n%s", ansi.Strip(p.View(true, t0)))
	}
}

// The title names a jump only while its filter holds, and a time filter
// from another day carries its date.
func TestTitleAndTimeFollowTheFilter(t *testing.T) {
	a := model(day(3000))
	p := newPane(theme.New(true))
	p.SetSize(120, 20)
	p.SetData(a, t0.Add(24*time.Hour)) // the lines are yesterday's
	m := a.Logs()[1500].Machine
	from := a.Logs()[1400].Time
	run(p, pane.ShowLogs{Machine: m, From: from, Why: "boot of " + m})
	p.Open()
	if !strings.Contains(p.Title(), "boot of "+m) {
		t.Errorf("title %q", p.Title())
	}
	bar := ansi.Strip(p.filterBar())
	if want := "time " + from.UTC().Format("Jan 02 15:04:05") + "–…"; !strings.Contains(bar, want) {
		t.Errorf("filter bar %q, want %q", bar, want)
	}
	run(p, uitest.Key("M")) // every machine again
	if p.filter.Machine != "" || strings.Contains(p.Title(), m) {
		t.Errorf("after M: machine %q, title %q", p.filter.Machine, p.Title())
	}
}

// M and R on a line that names no machine or region, or with no line
// under the cursor, leave the filter as it was and say why on the pane.
func TestMachineAndRegionSayWhyTheyPickNothing(t *testing.T) {
	lines := day(10)
	lines[9].Machine, lines[9].Region = "", "" // the newest, under the cursor
	p := newPane(theme.New(true))
	p.SetSize(120, 30)
	p.SetData(model(lines), t0)
	p.Open()
	for _, c := range []struct{ key, want string }{
		{"M", "the line under the cursor names no machine"},
		{"R", "the line under the cursor names no region"},
	} {
		run(p, uitest.Key(c.key))
		if !p.filter.Empty() || !strings.Contains(ansi.Strip(p.View(true, t0)), c.want) {
			t.Errorf("%s on a line with neither: filter %+v, screen:\n%s", c.key, p.filter, ansi.Strip(p.View(true, t0)))
		}
	}
	p.SetData(model(nil), t0)
	run(p, uitest.Key("M"))
	if want := "no line under the cursor to take a machine from"; !strings.Contains(ansi.Strip(p.View(true, t0)), want) {
		t.Errorf("M with no lines: want %q on screen:\n%s", want, ansi.Strip(p.View(true, t0)))
	}
}

// x with no filter on, following the newest line, says there is nothing
// to clear.
func TestClearWithNoFilterSaysSo(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetSize(120, 30)
	p.SetData(model(day(10)), t0)
	p.Open()
	run(p, uitest.Key("x"))
	if want := "no filter to clear"; !strings.Contains(ansi.Strip(p.View(true, t0)), want) {
		t.Errorf("x with no filter: want %q on screen:\n%s", want, ansi.Strip(p.View(true, t0)))
	}
	run(p, uitest.Key("L"))
	run(p, uitest.Key("x"))
	if !p.filter.Empty() || strings.Contains(ansi.Strip(p.View(true, t0)), "no filter to clear") {
		t.Errorf("x after L: filter %+v, screen:\n%s", p.filter, ansi.Strip(p.View(true, t0)))
	}
}
