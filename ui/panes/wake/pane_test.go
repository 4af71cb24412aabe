package wake

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

func plainView(p *Pane, w, h int) string { return uitest.PlainView(p, w, h, true, t0) }

func TestStages(t *testing.T) {
	tests := []struct {
		name     string
		runner   *fakeRunner
		readOnly bool
		steps    func(d *driver)
		want     Stage
		check    func(t *testing.T, p *Pane, f *fakeRunner)
	}{
		{
			name:   "open reads a plan for both modes",
			runner: &fakeRunner{},
			steps:  func(d *driver) { d.do(d.p.Open()); d.planned() },
			want:   StageSetup,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				if got := f.prepares[0]; got.Mode != waketest.ModeBoth || got.App != testApp || got.Requests != 0 {
					t.Errorf("prepared %+v, want both modes of %s with the default count", got, testApp)
				}
				if got := strings.Join(p.plan.TargetIDs(), ","); got != strings.Join(targetIDs, ",") {
					t.Errorf("targets %s", got)
				}
			},
		},
		{
			name:   "enter asks, naming the app and every machine",
			runner: &fakeRunner{},
			steps:  func(d *driver) { d.do(d.p.Open()); d.planned(); d.key("enter") },
			want:   StageConfirm,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				v := strings.Join(strings.Fields(plainView(p, 200, 30)), " ")
				want := "Stop, then suspend, 3 machines of snappy-api: " + strings.Join(targetIDs, ", ") + "? y/N"
				if !strings.Contains(v, want) {
					t.Errorf("confirmation lacks %q:\n%s", want, v)
				}
				if f.runs != 0 {
					t.Error("the question alone started a run")
				}
			},
		},
		{
			name:   "only y proceeds: n goes back and changes nothing",
			runner: &fakeRunner{},
			steps:  func(d *driver) { d.do(d.p.Open()); d.planned(); d.key("enter"); d.key("n") },
			want:   StageSetup,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				if f.runs != 0 || !strings.Contains(plainView(p, 100, 30), "nothing was changed") {
					t.Errorf("runs %d, view:\n%s", f.runs, plainView(p, 100, 30))
				}
			},
		},
		{
			name:   "esc on the question is no, not close",
			runner: &fakeRunner{},
			steps: func(d *driver) {
				d.do(d.p.Open())
				d.planned()
				d.key("enter")
				if d.p.CanClose() || !d.p.Capturing() {
					d.t.Error("the question must take esc itself")
				}
				d.key("esc")
			},
			want:  StageSetup,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {},
		},
		{
			name:   "mode and request count reach the engine",
			runner: &fakeRunner{report: bothReport()},
			steps: func(d *driver) {
				d.do(d.p.Open())
				d.planned()
				d.key("2") // suspend: re-reads the plan
				d.planned()
				d.key("+")
				d.key("+")
				d.key("-")
				d.key("enter")
				d.key("y")
				d.until("the end", func() bool { return d.p.Stage() == StageDone && d.p.SavedPath() != "" })
			},
			want: StageDone,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				if last := f.prepares[len(f.prepares)-1]; last.Mode != waketest.ModeSuspend {
					t.Errorf("last prepare mode %s", last.Mode)
				}
				if f.ranPlan.Setup.Mode != waketest.ModeSuspend || f.ranPlan.Requests != 50 {
					t.Errorf("ran mode %s with %d requests, want suspend with 40+10+10-10", f.ranPlan.Setup.Mode, f.ranPlan.Requests)
				}
			},
		},
		{
			name:   "a finished run is shown and saved",
			runner: &fakeRunner{events: suspendEvents(), report: bothReport()},
			steps: func(d *driver) {
				d.do(d.p.Open())
				d.planned()
				d.key("enter")
				d.key("y")
				d.until("saved", func() bool { return d.p.SavedPath() != "" })
			},
			want: StageDone,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				if len(f.saved) != 1 || f.saved[0] != p.Report() {
					t.Errorf("saved %d reports", len(f.saved))
				}
				v := strings.Join(strings.Fields(plainView(p, 120, 60)), " ") // cells wrap
				for _, w := range []string{"stop", "suspend", "31 / 9 of 40", "40 / 0 of 40", "fell back to stop", "saved /state/flywake/wake/"} {
					if !strings.Contains(v, w) {
						t.Errorf("result lacks %q:\n%s", w, v)
					}
				}
				if p.Stage() == StageRunning || p.Stage() == StageAborting {
					t.Errorf("still %v after the end", p.Stage())
				}
			},
		},
		{
			name:   "esc mid-run aborts and shows where machines were left",
			runner: &fakeRunner{events: suspendEvents(), block: true, aborted: abortedReport()},
			steps: func(d *driver) {
				d.do(d.p.Open())
				d.planned()
				d.key("enter")
				d.key("y")
				d.until("18 answers", func() bool { return d.p.live != nil && d.p.live.progress.Done == 18 })
				if d.p.Stage() != StageRunning || d.p.CanClose() {
					d.t.Error("a running test must be running and refuse to close")
				}
				d.key("esc")
				if d.p.Stage() != StageAborting {
					d.t.Errorf("stage %s after esc, want aborting", d.p.Stage())
				}
				d.until("the partial report", func() bool { return d.p.Stage() == StageDone && d.p.SavedPath() != "" })
			},
			want: StageDone,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				v := plainView(p, 120, 80)
				for _, w := range []string{"ABORTED: esc pressed", "16 / 2 of 40 (22 cut off)", "machines were left as last seen:", "3d8d6e5a9b2c81  ▲ starting"} {
					if !strings.Contains(v, w) {
						t.Errorf("aborted result lacks %q:\n%s", w, v)
					}
				}
				if len(f.saved) != 1 {
					t.Error("the partial report was not saved")
				}
			},
		},
		{
			name:     "read-only refuses",
			runner:   &fakeRunner{},
			readOnly: true,
			steps: func(d *driver) {
				d.do(d.p.Open())
				d.key("enter")
				d.key("y")
			},
			want: StageReadOnly,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				if f.prepareCount() != 0 || f.runs != 0 {
					t.Errorf("read-only pane prepared %d times, ran %d", f.prepareCount(), f.runs)
				}
				if v := plainView(p, 80, 10); !strings.Contains(v, "off in read-only mode") {
					t.Errorf("view:\n%s", v)
				}
			},
		},
		{
			name:   "a failed plan shows the error, redacted, and cannot start",
			runner: &fakeRunner{prepErr: errListFailed},
			steps: func(d *driver) {
				d.do(d.p.Open())
				d.until("the error", func() bool { return d.p.prepErr != nil })
				d.key("enter")
			},
			want: StageSetup,
			check: func(t *testing.T, p *Pane, f *fakeRunner) {
				v := plainView(p, 120, 30)
				if strings.Contains(v, "sekrit") || !strings.Contains(v, "cannot plan the test") || !strings.Contains(v, "no plan to run") {
					t.Errorf("view:\n%s", v)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestPane(t, theme.New(true), tt.runner, tt.readOnly)
			d := newDriver(t, p)
			tt.steps(d)
			if p.Stage() != tt.want {
				t.Fatalf("stage %s, want %s", p.Stage(), tt.want)
			}
			tt.check(t, p, tt.runner)
		})
	}
}

// Replies that belong to an older run, an older plan or another pane
// change nothing.
func TestStaleRepliesDropped(t *testing.T) {
	f := &fakeRunner{events: suspendEvents(), block: true, aborted: abortedReport()}
	p := newTestPane(t, theme.New(true), f, false)
	other := newTestPane(t, theme.New(true), f, false)
	d := newDriver(t, p)
	d.do(p.Open())
	d.planned()
	d.key("enter")
	d.key("y")
	d.until("18 answers", func() bool { return p.live != nil && p.live.progress.Done == 18 })

	bogus := feedBatch{events: []waketest.Event{req(99, 0, 100, 200, "none", "x")}, done: true, report: bothReport()}
	tests := []struct {
		name string
		msg  any
	}{
		{"an older run", feedMsg{from: p, run: p.runID - 1, feedBatch: bogus}},
		{"another pane", feedMsg{from: other, run: p.runID, feedBatch: bogus}},
		{"an older plan", preparedMsg{from: p, id: p.prepID - 1, err: errListFailed}},
		{"an older save", savedMsg{from: p, run: p.runID - 1, path: "/elsewhere"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if cmd := p.Update(tt.msg); cmd != nil {
				t.Error("a stale reply issued a command")
			}
			if p.Stage() != StageRunning || p.live.progress.Done != 18 || p.prepErr != nil || p.savedPath != "" || p.Report() != nil {
				t.Errorf("stale reply changed the pane: stage %s, done %d", p.Stage(), p.live.progress.Done)
			}
		})
	}
	d.key("esc")
	d.until("the end", func() bool { return p.Stage() == StageDone })
}

// v shows the previous saved result beside the new one.
func TestCompareWithPrevious(t *testing.T) {
	prev := bothReport()
	prev.Release = "6"
	f := &fakeRunner{report: bothReport(), previous: prev}
	p := newTestPane(t, theme.New(true), f, false)
	d := newDriver(t, p)
	d.do(p.Open())
	d.planned()
	d.key("enter")
	d.key("y")
	d.until("saved", func() bool { return p.SavedPath() != "" })
	if v := plainView(p, 200, 60); strings.Contains(v, "before stop") {
		t.Fatal("previous shown before v")
	}
	d.key("v")
	v := plainView(p, 200, 60)
	for _, w := range []string{"before stop", "before suspend", "now stop", "now suspend", "release v6"} {
		if !strings.Contains(v, w) {
			t.Errorf("comparison lacks %q:\n%s", w, v)
		}
	}
}

func TestLatencyBuckets(t *testing.T) {
	tests := []struct {
		ms   int64
		want string
	}{{0, "<0.5s"}, {499, "<0.5s"}, {500, "0.5–1s"}, {1999, "1–2s"}, {4999, "2–5s"}, {9999, "5–10s"}, {29_999, "10–30s"}, {30_000, "≥30s"}, {1 << 40, "≥30s"}}
	for _, tt := range tests {
		if got := latencyBuckets[bucketOf(tt.ms)].label; got != tt.want {
			t.Errorf("%d ms in %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestStatusKeys(t *testing.T) {
	m := map[string]int{}
	for _, q := range []waketest.Request{
		{Status: 200, ErrClass: "none"}, {Status: 502, ErrClass: "proxy_5xx"}, {ErrClass: "timeout"},
		{ErrClass: "aborted"}, {Status: 200, ErrClass: "none"}, {Status: 503, ErrClass: "proxy_5xx"},
	} {
		m[statusKey(q)]++
	}
	var got []string
	for _, c := range sortedStatuses(m) {
		got = append(got, c.key+"×"+cell.Thousands(c.n))
	}
	if s := strings.Join(got, " "); s != "200×2 502×1 503×1 cut off×1 timeout×1" {
		t.Errorf("statuses %q", s)
	}
}

// The timeline keeps the platform's started time over the poll's.
func TestTimelineChain(t *testing.T) {
	p := newTestPane(t, theme.New(true), &fakeRunner{}, false)
	plan, err := waketest.Preflight(fixtureMachines(), waketest.Setup{App: testApp, Mode: waketest.ModeSuspend})
	if err != nil {
		t.Fatal(err)
	}
	l := newLive(plan, waketest.ModeSuspend, 1, 1, nil)
	for _, e := range suspendEvents() {
		l.apply(e)
	}
	tests := []struct {
		id, want string
	}{
		{"148e3d5f2a9c01", theme.GlyphSuspended + " suspended → ▲ starting 120ms → ● started 410ms → ✓ serving 460ms"},
		{"3d8d6e5a9b2c81", "○ stopped (suspend refused) → ▲ starting 150ms"},
		{"9080aa11bb22cc", theme.GlyphSuspended + " suspended"},
	}
	for _, tt := range tests {
		if got := ansi.Strip(p.chain(l.track(tt.id), false)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.id, got, tt.want)
		}
	}
	if l.progress.Done != 18 || l.statuses["200"] != 16 || l.latency[0] != 12 {
		t.Errorf("progress %+v, statuses %v, latency %v", l.progress, l.statuses, l.latency)
	}
}

// A result taller than the pane scrolls with the navigation keys: the last
// body line counts the lines below until the end shows the last one.
func TestResultScrolls(t *testing.T) {
	f := &fakeRunner{report: bothReport()}
	p := newTestPane(t, theme.New(true), f, false)
	d := newDriver(t, p)
	d.do(p.Open())
	d.planned()
	d.key("enter")
	d.key("y")
	d.until("saved", func() bool { return p.SavedPath() != "" })
	const w, h = 80, 12
	p.SetSize(w, h)
	whole := strings.Split(plainView(p, w, 200), "\n")
	whole = whole[:len(whole)-1] // the hint line
	for len(whole) > 0 && strings.TrimSpace(whole[len(whole)-1]) == "" {
		whole = whole[:len(whole)-1]
	}
	bodyLines := len(whole)
	p.SetSize(w, h)
	if bodyLines <= h {
		t.Fatalf("the result has %d lines: too few to scroll at %d", bodyLines, h)
	}
	body := func() []string { return strings.Split(plainView(p, w, h), "\n")[:h-1] }
	more := func() string { b := body(); return strings.TrimSpace(b[len(b)-1]) }
	wantMore := func(n int) string {
		if n == 1 {
			return "↓ 1 more line (↑/↓ scroll)"
		}
		return fmt.Sprintf("↓ %d more lines (↑/↓ scroll)", n)
	}

	below := bodyLines - (h - 1)
	if got := more(); got != wantMore(below) {
		t.Fatalf("at the top the last body line is %q, want %q", got, wantMore(below))
	}
	d.key("down")
	if got := more(); got != wantMore(below-1) {
		t.Errorf("after down: %q, want %q", got, wantMore(below-1))
	}
	if got := strings.TrimSpace(body()[0]); got != strings.TrimSpace(whole[1]) {
		t.Errorf("after down the first line is %q, want %q", got, whole[1])
	}
	for i := 1; i < below-1; i++ {
		d.key("down")
	}
	if got := more(); got != wantMore(1) {
		t.Errorf("one line above the end: %q, want %q", got, wantMore(1))
	}
	d.key("end")
	if got, want := more(), strings.TrimSpace(whole[bodyLines-1]); got != want {
		t.Errorf("at the end the last body line is %q, want the result's last %q", got, want)
	}
	d.key("home")
	if got := strings.TrimSpace(body()[0]); got != strings.TrimSpace(whole[0]) {
		t.Errorf("after home the first line is %q, want %q", got, whole[0])
	}
	uitest.AssertSize(t, uitest.View(p, w, h, true, t0), w, h)
}

// The setup's keys come from the key map: rebound ones act, their old keys
// do not, and the hint line names the new ones.
func TestSetupKeysRebind(t *testing.T) {
	km := keys.Default()
	if err := km.Rebind([]byte("wake_more = \"m\"\nwake_fewer = \"M\"\nwake_mode_stop = \"s\"\nwake_mode_prev = \"H\"\n"), "keys.toml"); err != nil {
		t.Fatal(err)
	}
	f := &fakeRunner{}
	p := New(pane.Context{Theme: theme.New(true), Keys: &km}, Options{
		Setup: waketest.Setup{App: testApp, AppURL: "https://snappy-api.fly.dev", Speed: 1}, Runner: f})
	d := newDriver(t, p)
	d.do(p.Open())
	d.planned()
	start := p.shownRequests()
	d.key("+")
	if p.shownRequests() != start {
		t.Error("+ still adds requests")
	}
	d.key("m")
	d.key("m")
	d.key("M")
	if got := p.shownRequests(); got != start+requestStep {
		t.Errorf("m m M: %d requests, want %d", got, start+requestStep)
	}
	d.key("1")
	if p.mode != waketest.ModeBoth {
		t.Error("1 still picks stop")
	}
	d.key("s")
	d.planned()
	if p.mode != waketest.ModeStop {
		t.Errorf("s picks %s, want stop", p.mode)
	}
	d.key("H") // previous of stop, round the end: both
	d.planned()
	if p.mode != waketest.ModeBoth {
		t.Errorf("H picks %s, want both", p.mode)
	}
	if hint := lastLine(plainView(p, 120, 30)); !strings.Contains(hint, "H/→ mode") || !strings.Contains(hint, "m/M requests") {
		t.Errorf("the hint does not name the rebound keys: %q", hint)
	}
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-1]
}

// A test whose kept machine served the requests meant for the sleeping
// ones is marked not comparable above its table and in its header, with
// the remedy; a clean one is not. Before the run, the setup says how many
// requests would wake every target, and the advice follows +/-.
func TestNotComparableWhenTheKeptMachineAbsorbsTheBurst(t *testing.T) {
	for _, tc := range []struct {
		name   string
		report *waketest.Report
		marked bool
	}{
		{"the kept machine served 24 of 40", absorbedReport(), true},
		{"every request went to a woken machine", bothReport(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeRunner{report: tc.report}
			p := newTestPane(t, theme.New(true), f, false)
			d := newDriver(t, p)
			d.do(p.Open())
			d.planned()
			d.key("enter")
			d.key("y")
			d.until("the end", func() bool { return p.Stage() == StageDone })
			v := strings.Join(strings.Fields(plainView(p, 160, 60)), " ")
			for _, w := range []string{
				"NOT COMPARABLE: stop run: the 1 machine awake answered 24 of our 40 requests, so only 2 of the 3 machines put to sleep woke",
				"send at least 81 requests", "stop (not comparable)", "2 of the 3 asleep", "24 of 40 (1 machine)",
			} {
				if strings.Contains(v, w) != tc.marked {
					t.Errorf("%q shown = %v, want %v:\n%s", w, !tc.marked, tc.marked, v)
				}
			}
		})
	}
}

func TestSetupAdviceFollowsTheRequestCount(t *testing.T) {
	p := newTestPane(t, theme.New(true), &fakeRunner{}, false)
	d := newDriver(t, p)
	d.do(p.Open())
	d.planned()
	advice := func() bool {
		return strings.Contains(strings.Join(strings.Fields(plainView(p, 120, 40)), " "), "send at least 81 requests")
	}
	for _, step := range []struct {
		key  string
		n    int
		want bool
	}{{"", 40, true}, {"+", 50, true}, {"+", 60, true}, {"+", 70, true}, {"+", 80, true}, {"+", 90, false}, {"-", 80, true}} {
		if step.key != "" {
			d.key(step.key)
		}
		if got := p.shownRequests(); got != step.n || advice() != step.want {
			t.Errorf("at %d requests (want %d): advice shown %v, want %v", got, step.n, advice(), step.want)
		}
	}
}

// r in the setup reads the machines again; pressed while they are being
// read it says so instead of nothing.
func TestRefreshWhileReadingSaysSo(t *testing.T) {
	p := newTestPane(t, theme.New(true), &fakeRunner{events: suspendEvents()}, false)
	p.SetSize(100, 30)
	d := newDriver(t, p)
	open := p.Open() // the first read, not yet answered
	if cmd := p.Update(uitest.Key("r")); cmd != nil || !strings.Contains(ansi.Strip(p.View(true, t0)), "already reading the machines") {
		t.Errorf("r while reading: command %v, screen:\n%s", cmd != nil, ansi.Strip(p.View(true, t0)))
	}
	d.do(open)
	d.planned()
	if cmd := p.Update(uitest.Key("r")); cmd == nil || !p.preparing {
		t.Errorf("r with a plan read nothing again (command %v, reading %v)", cmd != nil, p.preparing)
	}
}
