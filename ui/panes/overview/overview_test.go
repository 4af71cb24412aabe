package overview

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func sec(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

func machines(n int, state string, prefix string) []*fly.Machine {
	var out []*fly.Machine
	for i := range n {
		out = append(out, &fly.Machine{ID: prefix + string(rune('a'+i)), State: state, Region: "ams",
			Config: &fly.MachineConfig{Metadata: map[string]string{"fly_release_version": "3"}}})
	}
	return out
}

// crashed is a machine of release 3 whose newest event is a crash at at.
func crashed(id string, at time.Time) *fly.Machine {
	m := machines(1, "stopped", id)[0]
	m.Events = []*fly.MachineEvent{
		{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: at.UnixMilli(),
			Request: &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{ExitCode: 1, ExitedAt: at}}},
		{Type: "start", Status: "started", Source: "flyd", Timestamp: at.Add(-3 * time.Second).UnixMilli()},
		{Type: "update", Status: "replacing", Source: "user", Timestamp: at.Add(-time.Hour).UnixMilli()},
	}
	return m
}

// coldBoot is one boot in the log vocabulary the default markers read.
func coldBoot(m string, begin time.Time, took time.Duration) []diagnose.LogLine {
	return []diagnose.LogLine{
		{Time: begin, Machine: m, Provider: "proxy", Message: "Starting machine"},
		{Time: begin.Add(sec(0.01)), Machine: m, Provider: "runner", Message: "Configuring firecracker"},
		{Time: begin.Add(sec(1)), Machine: m, Provider: "runner", Message: "Machine started in 1.0s"},
		{Time: begin.Add(took - sec(0.3)), Machine: m, Provider: "app", Message: "[INFO] Listening at: http://0.0.0.0:8000"},
		{Time: begin.Add(took), Machine: m, Provider: "app", Message: `"GET /api/health/ HTTP/1.1" 200 15 3ms`},
	}
}

// fixture is an org of five apps: one crash-looping, one slow to boot and
// losing requests, one steady, one not listed yet, and one open in the
// dashboard (its row from its full model).
func fixture(t *testing.T) *snapshot.Org {
	t.Helper()
	o := snapshot.NewOrg("demo-org", nil)
	o.ApplyApps([]string{"steady-web", "crashy-api", "sleepy-api", "new-app", "backlog-web"}, nil, t0.Add(-time.Minute))
	list := func(app string, ms []*fly.Machine, at time.Time) {
		o.ApplyListing(app, snapshot.Convert(flyapi.Listing{Machines: ms}), nil, at)
	}
	list("steady-web", machines(3, "started", "s"), t0.Add(-12*time.Second))
	list("sleepy-api", append(machines(1, "started", "a"), machines(9, "stopped", "b")...), t0.Add(-20*time.Second))
	// Two looks at a machine that crashed again in between: crash-looping.
	list("crashy-api", []*fly.Machine{crashed("c", t0.Add(-50*time.Second)), machines(1, "started", "d")[0]}, t0.Add(-40*time.Second))
	list("crashy-api", []*fly.Machine{crashed("c", t0.Add(-8*time.Second)), machines(1, "started", "d")[0]}, t0.Add(-5*time.Second))
	var lines []diagnose.LogLine
	for i := range 12 {
		lines = append(lines, coldBoot("ba", t0.Add(-time.Duration(i+1)*time.Hour), sec(28+float64(i%3)))...)
	}
	o.ApplyBootLogs("sleepy-api", lines, "123", nil, t0.Add(-30*time.Second))
	o.ApplyBootLogs("steady-web", nil, "124", nil, t0.Add(-30*time.Second))
	// crashy-api's machine c serves, then crashes, and the platform restarts it.
	var crashLines []diagnose.LogLine
	for i := range 30 {
		b := coldBoot("c", t0.Add(-10*time.Minute).Add(time.Duration(i)*4*time.Second), sec(2.7))
		crashLines = append(crashLines, append(b, diagnose.LogLine{Time: b[0].Time.Add(sec(3.3)), Machine: "c", Provider: "app",
			Message: " INFO Main child exited normally with code: 1"})...)
	}
	o.ApplyBootLogs("crashy-api", crashLines, "125", nil, t0.Add(-30*time.Second))
	o.ApplyMetrics(snapshot.OrgMetrics{At: t0.Add(-10 * time.Second),
		Edge1h:  map[string]map[string]float64{"sleepy-api": {"200": 990, "502": 10}, "steady-web": {"200": 500}},
		App1h:   map[string]map[string]float64{"sleepy-api": {"200": 990}, "steady-web": {"200": 500}},
		Edge24h: map[string]map[string]float64{"sleepy-api": {"200": 20000, "502": 900}, "steady-web": {"200": 12000}, "crashy-api": {"200": 300}},
		App24h:  map[string]map[string]float64{"sleepy-api": {"200": 20000}, "steady-web": {"200": 12000}, "crashy-api": {"200": 300}},
	})
	open := snapshot.New("demo-org", "backlog-web", nil)
	open.ApplyMachines(machines(2, "started", "w"), t0.Add(-3*time.Second))
	o.SetOpen(open)
	return o
}

// cadence is the org feeds' pace the legend names.
var cadence = Cadence{List: 30 * time.Second, Boots: 2 * time.Minute, Sockets: 5 * time.Minute, SocketSample: 2}

func newPane(t *testing.T, th *theme.Theme) *Pane {
	p, _ := newPaneOrg(t, th)
	return p
}

func newPaneOrg(t *testing.T, th *theme.Theme) (*Pane, *snapshot.Org) {
	km := keys.Default()
	p, o := New(pane.Context{Theme: th, Keys: &km}, 30*time.Second, cadence), fixture(t)
	p.SetOrgData(o, t0)
	return p, o
}

func TestRowsWorstFirstAndUnknownsSaid(t *testing.T) {
	p := newPane(t, theme.New(true))
	var order []string
	for _, r := range p.rows {
		order = append(order, r.App)
	}
	if got := strings.Join(order, " "); got != "crashy-api sleepy-api new-app backlog-web steady-web" {
		t.Errorf("order = %s", got)
	}
	out := uitest.PlainView(p, 120, 20, true, t0)
	uitest.AssertMentions(t, out, []string{
		"5 apps · 17 machines", "✗ 2 failing", "listed 4/5…", "boots read 3/5",
		"✗ 1 gave up", "●1 ○9", "4.3 %", "1.0 %", "▸ backlog-web",
		"0 · 30 crashed",                                     // crashy-api: 30 crash restarts, no cold boot, no p95
		"release crash-looping", "4.3 % requests lost, 24 h", // why each fails
		"2 of each other app's",
	}, nil)
	// LISTED, the least needed column, shows once there is room.
	uitest.AssertMentions(t, uitest.PlainView(p, 150, 20, true, t0), []string{"LISTED", "live"}, nil)
	// new-app: nothing read yet, every cell says so.
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "new-app") && strings.Count(l, "…") < 5 {
			t.Errorf("new-app's row claims something it has not read: %q", l)
		}
	}
}

func TestEnterOpensTheSelectedApp(t *testing.T) {
	p, o := newPaneOrg(t, theme.New(true))
	uitest.View(p, 120, 20, true, t0)
	// The cursor starts on the open app (back from it: where the user was).
	if app, _ := p.Selected(); app != "backlog-web" {
		t.Errorf("the cursor starts on %s", app)
	}
	p.Update(uitest.Key("up"))
	p.Update(uitest.Key("up"))
	cmd := p.Update(uitest.Key("enter"))
	if cmd == nil {
		t.Fatal("enter made no request")
	}
	if msg, ok := cmd().(pane.OpenApp); !ok || msg.App != "sleepy-api" {
		t.Errorf("enter asked for %#v, want sleepy-api", msg)
	}
	// Data arriving keeps the cursor on the app, not the position.
	p.SetOrgData(o, t0.Add(time.Second))
	if app, _ := p.Selected(); app != "sleepy-api" {
		t.Errorf("after a refresh the cursor is on %s", app)
	}
	if !p.CanClose() {
		t.Error("with an app open, esc should go back to it")
	}
}

func TestViewExactSizeAtEverySize(t *testing.T) {
	p := newPane(t, theme.New(false))
	for _, sz := range uitest.Sizes {
		uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], true, t0), sz[0], sz[1])
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
			p := newPane(t, theme.New(c.noColor))
			out := uitest.View(p, c.w, c.h, true, t0)
			uitest.AssertSize(t, out, c.w, c.h)
			golden.RequireEqual(t, []byte(out))
		})
	}
}

var _ tea.Msg = pane.OpenApp{}

// The BACKLOG cell of apps the dashboard does not have open: read from a
// sample of their machines, "?" when the probe failed, "–" with nothing
// running.
func TestBackgroundBacklogCells(t *testing.T) {
	served := func(prefix, state string, n int) []*fly.Machine {
		ms := machines(n, state, prefix)
		for _, m := range ms {
			m.Config.Services = []fly.MachineService{{InternalPort: 8080,
				Concurrency: &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: 25}}}
		}
		return ms
	}
	closeWait := func(n int) string {
		var b strings.Builder
		b.WriteString("  sl  local_address rem_address   st\n")
		for i := range n {
			b.WriteString("   " + strconv.Itoa(i) + ": 0100007F:1F90 0100007F:9C40 08\n")
		}
		return b.String()
	}
	o := snapshot.NewOrg("demo-org", nil)
	o.ApplyApps([]string{"drowning-web", "broken-web", "asleep-web"}, nil, t0)
	for app, ms := range map[string][]*fly.Machine{
		"drowning-web": served("d", "started", 3), "broken-web": served("b", "started", 1), "asleep-web": served("s", "stopped", 2),
	} {
		o.ApplyListing(app, snapshot.Convert(flyapi.Listing{Machines: ms}), nil, t0)
	}
	for range 3 {
		app, reqs := o.DueSockets(t0, 5*time.Minute, 2)
		if app == "" {
			break
		}
		res := make([]snapshot.ExecResult, len(reqs))
		for i := range res {
			res[i] = snapshot.ExecResult{Stdout: closeWait(120)}
			if app == "broken-web" {
				res[i] = snapshot.ExecResult{ExitCode: 126, Stderr: "exec failed"}
			}
		}
		o.ApplySockets(app, reqs, res, t0)
	}
	km := keys.Default()
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, 30*time.Second, cadence)
	p.SetOrgData(o, t0.Add(time.Second))
	out := uitest.PlainView(p, 120, 12, true, t0.Add(time.Second))
	lines := strings.Split(out, "\n")
	col := -1 // the BACKLOG column, in runes
	for _, l := range lines {
		if i := strings.Index(l, "BACKLOG "); i >= 0 && col < 0 { // the header, not the legend
			col = len([]rune(l[:i]))
		}
	}
	if col < 0 {
		t.Fatalf("no BACKLOG column:\n%s", out)
	}
	want := map[string]string{"drowning-web": "✗ 120 CW", "broken-web": "?", "asleep-web": "–"}
	for app, cell := range want {
		found := false
		for _, l := range lines {
			if r := []rune(l); strings.Contains(l, app) && len(r) > col+9 {
				found = true
				if got := strings.TrimSpace(string(r[col : col+9])); got != cell {
					t.Errorf("%s's backlog cell %q, want %q", app, got, cell)
				}
			}
		}
		if !found {
			t.Errorf("no row for %s:\n%s", app, out)
		}
	}
	if first := p.rows[0].App; first != "drowning-web" {
		t.Errorf("first row %s: the drowning app must sort first", first)
	}
}

// The crash cell and WHY say in words what fails: no "✗ 1+1", the worst
// finding whole and how many more.
func TestCellsInWords(t *testing.T) {
	p := New(pane.Context{Theme: theme.New(true)}, 30*time.Second, cadence)
	cases := []struct {
		row         snapshot.OrgRow
		crash, why  string
		bootsInCell string
	}{
		{snapshot.OrgRow{Listed: true, Looping: 1, GaveUp: 1, Crash: diagnose.Fail, LossKnown: true,
			Loss24h: diagnose.Fail, Lost24h: 199, Edge24h: 1000, BootsKnown: true, Boots24h: 286, CrashRestarts24h: 104, Booting: 1},
			"✗ 1 looping · 1 gave up", "release crash-looping · +1 more", "286 · 104 crashed · 1 booting"},
		{snapshot.OrgRow{Listed: true, Crash: diagnose.Pass, BacklogKnown: true, Backlog: diagnose.Fail, CloseWait: 463},
			"✓", "463 CLOSE_WAIT sockets", ""},
		{snapshot.OrgRow{Listed: true, Crash: diagnose.Pass, Watching: 0, BootsKnown: true, ColdLevel: diagnose.Warn, P95: 12 * time.Second},
			"✓", "slow boots: p95 12.0s", "0"},
		{snapshot.OrgRow{Listed: true, Crash: diagnose.Pass}, "✓", "", ""},
	}
	for _, c := range cases {
		cells := p.cells(c.row, t0)
		if got := ansi.Strip(cells[colCrash]); got != c.crash {
			t.Errorf("crash cell %q, want %q", got, c.crash)
		}
		if got := ansi.Strip(cells[colWhy]); got != c.why {
			t.Errorf("why %q, want %q", got, c.why)
		}
		if got := ansi.Strip(cells[colBoots]); c.bootsInCell != "" && got != c.bootsInCell {
			t.Errorf("boots %q, want %q", got, c.bootsInCell)
		}
	}
}

// o sorts by the next column (APP first, ascending; the unknown cells
// last in either direction), O reverses, and after the last column the
// rows are worst first again; the header names the sort, also when its
// column is off screen.
func TestSortByColumn(t *testing.T) {
	p := newPane(t, theme.New(true))
	apps := func() string {
		var out []string
		for _, r := range p.rows {
			out = append(out, r.App)
		}
		return strings.Join(out, " ")
	}
	cases := []struct {
		key, want, title string
		desc             bool
	}{
		{"o", "backlog-web crashy-api new-app sleepy-api steady-web", "APP", false},
		{"O", "steady-web sleepy-api new-app crashy-api backlog-web", "APP", true},
		// new-app is not listed: last, and last reversed too; equals
		// (two machines each) stay worst first.
		{"o", "crashy-api backlog-web steady-web sleepy-api new-app", "MACHINES", false},
		{"O", "sleepy-api steady-web crashy-api backlog-web new-app", "MACHINES", true},
	}
	for _, c := range cases {
		p.Update(uitest.Key(c.key))
		if got := apps(); got != c.want {
			t.Errorf("%s: %s, want %s", c.key, got, c.want)
		}
		if title, desc := p.Sorting(); title != c.title || desc != c.desc {
			t.Errorf("%s: sorting %s desc=%v, want %s desc=%v", c.key, title, desc, c.title, c.desc)
		}
	}
	for range len(columns) - 1 { // MACHINES … WHY, then worst first
		p.Update(uitest.Key("o"))
	}
	if title, _ := p.Sorting(); title != "" || apps() != "crashy-api sleepy-api new-app backlog-web steady-web" {
		t.Errorf("after the last column: sort %q, rows %s; want worst first", title, apps())
	}
	// LISTED is off screen at 80 columns: the header names it there.
	for range colListed + 1 {
		p.Update(uitest.Key("o"))
	}
	if title, _ := p.Sorting(); title != "LISTED" {
		t.Fatalf("sort %q, want LISTED", title)
	}
	uitest.AssertMentions(t, uitest.PlainView(p, 80, 24, true, t0), []string{"sort LISTED↑", "sorted by LISTED↑"}, nil)
}

// / types a filter over every cell; esc clears it (and until then esc
// does not close the overview), enter keeps it.
func TestFilter(t *testing.T) {
	p := newPane(t, theme.New(true))
	uitest.View(p, 120, 30, true, t0)
	p.Update(uitest.Key("/"))
	if !p.Capturing() || p.CanClose() {
		t.Fatalf("while / is typed the pane must take every key: capturing %v, esc closes %v", p.Capturing(), p.CanClose())
	}
	for _, r := range "crash" {
		p.Update(uitest.Key(string(r)))
	}
	out := uitest.PlainView(p, 120, 30, true, t0)
	uitest.AssertMentions(t, out, []string{"/crash", "crashy-api", "1–1 of 1"}, []string{"sleepy-api", "steady-web"})
	p.Update(uitest.Key("enter"))
	if p.Capturing() || p.CanClose() {
		t.Fatalf("enter keeps the filter: capturing %v, esc closes %v (esc must clear it first)", p.Capturing(), p.CanClose())
	}
	uitest.AssertMentions(t, uitest.PlainView(p, 120, 30, true, t0), []string{"crashy-api", "/crash · 1–1 of 1"}, []string{"sleepy-api"})
	p.Update(uitest.Key("esc"))
	if !p.CanClose() {
		t.Error("esc cleared the filter: esc should go back to the open app again")
	}
	uitest.AssertMentions(t, uitest.PlainView(p, 120, 30, true, t0), []string{"crashy-api", "sleepy-api", "steady-web"}, nil)
}

// The legend explains the columns on screen only: at 80 columns BOOTS/DAY,
// P95 and BACKLOG are off, and so are their explanations; scrolled right,
// the columns that come into view are explained.
func TestLegendExplainsTheColumnsShown(t *testing.T) {
	p := newPane(t, theme.New(true))
	wide := uitest.PlainView(p, 220, 30, true, t0)
	uitest.AssertMentions(t, wide, []string{"BOOTS/DAY, P95: cold boots", "LOST: edge minus", "BACKLOG: CLOSE_WAIT sockets"}, nil)
	narrow := uitest.PlainView(p, 80, 30, true, t0)
	uitest.AssertMentions(t, narrow, []string{"LOST: edge minus"}, []string{"cold boots until serving", "CLOSE_WAIT sockets, the most"})
	for range 3 {
		p.Update(uitest.Key("right"))
	}
	scrolled := uitest.PlainView(p, 80, 30, true, t0)
	if !strings.Contains(scrolled, "cold boots until serving") && !strings.Contains(scrolled, "CLOSE_WAIT sockets, the most") {
		t.Errorf("scrolled right, the columns brought in are not explained:\n%s", scrolled)
	}
}
