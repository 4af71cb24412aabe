package coldstart

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// scaleToZero is the demo's sleepy app: ten machines, a cold boot every
// two hours of 25–33 s with migrations dominating, and two resumes.
func scaleToZero() ([]*fly.Machine, logs) {
	var ms []*fly.Machine
	var l logs
	for i := range 10 {
		ms = append(ms, machine(fmt.Sprintf("e82d%010d", i), "stopped"))
	}
	ms[0].State = "started"
	for i := range 12 {
		// totals: 1.85 s of platform and init + migrations + static + server + 0.3 s
		migr := sec(10.2 + 0.25*float64(i))
		static := sec(7.5 + 0.2*float64(i))
		server := sec(5.5 + 0.2*float64(i%6))
		begin := t0.Add(-time.Duration(22-2*i) * time.Hour).Add(-7 * time.Minute)
		l.coldBoot(ms[i%10].ID, begin, migr, static, server, time.Time{})
	}
	l.resume(ms[3].ID, t0.Add(-90*time.Minute), sec(0.35))
	l.resume(ms[4].ID, t0.Add(-30*time.Minute), sec(0.5))
	return ms, l
}

func TestColdStartSummaryAndHistory(t *testing.T) {
	ms, l := scaleToZero()
	tuned := []*fly.Machine{machine("d8901234567890", "suspended")}
	var tl logs
	tl.resume("d8901234567890", t0.Add(-10*time.Minute), sec(0.28))
	tl.resume("d8901234567890", t0.Add(-5*time.Minute), sec(0.31))
	crashy := []*fly.Machine{machine("c7a5c7a5c7a5c7", "started")}
	var cl logs
	cl.crashLoop("c7a5c7a5c7a5c7", t0.Add(-time.Minute), 12)

	cases := []struct {
		name    string
		ms      []*fly.Machine
		l       logs
		want    []string
		notWant []string
	}{
		{"scale-to-zero: 25–33 s boots, migrations dominate", ms, l, []string{
			"cold boots (24 h): 12 · p50 ",
			"in 24 h (from logs — the event list is too short to count)",
			"resumes (24 h): 2 · p50 350ms · max 500ms",
			"✗ fail migrations: ",
			"— release work run on every boot",
			"history · 14 boots in 24 h, newest first",
			"e82d0000000001",
			"M migrations",
			"F static files",
			"S server start",
			"boots/h ",
		}, []string{emptyText, "where the time goes"}},
		{"tuned: resumes only, no release work", tuned, tl, []string{
			"cold boots (24 h): none",
			"resumes (24 h): 2 · p50 280ms · max 310ms",
			"where the time goes: no completed cold start yet",
			"R resume",
		}, []string{"✗ fail", "! warn"}},
		{"no boots", ms, nil, []string{emptyText}, []string{"history"}},
		{"a crash loop: its starts are crash restarts, not cold boots", crashy, cl, []string{
			"cold boots (24 h): none",
			"cold: 0 in 1 h · 0 in 24 h",
			"crash restarts (24 h): 12 · starts that crashed or restarted after a crash",
			"where the time goes: no completed cold start yet",
			"history · 12 boots in 24 h",
			"c7a5c7a5c7a5c7 11:59:16 crash",
		}, []string{"p95", " cold  "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(theme.New(true))
			p.SetData(app(c.ms, c.l), t0)
			out := uitest.PlainView(p, 160, 48, true, t0)
			uitest.AssertMentions(t, out, c.want, c.notWant)
		})
	}
}

// The spread must come from the boots themselves: p50/max fall inside the
// 25–33 s the fixture wrote, and the bars are mostly migrations.
func TestColdStartSpreadAndBars(t *testing.T) {
	ms, l := scaleToZero()
	p := newPane(theme.New(true))
	p.SetData(app(ms, l), t0)
	s := p.d.stats
	if s.Count != 12 || s.Served != 12 {
		t.Fatalf("count %d served %d, want 12/12", s.Count, s.Served)
	}
	for name, d := range map[string]time.Duration{"p50": s.P50, "p95": s.P95, "max": s.Max} {
		if d < 25*time.Second || d > 33*time.Second {
			t.Errorf("%s = %v, outside 25–33 s", name, d)
		}
	}
	out := uitest.PlainView(p, 160, 48, true, t0)
	if want := "max " + words.Duration(s.Max, words.Tenths); !strings.Contains(out, want) {
		t.Errorf("summary lacks %q", want)
	}
	bars := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, " cold ") {
			continue
		}
		bars++
		count := map[rune]int{}
		for _, r := range line[strings.LastIndex(line, " ")+1:] {
			count[r]++
		}
		for r, n := range count {
			if r != 'M' && n >= count['M'] {
				t.Errorf("bar %q: %q (%d) not shorter than migrations (%d)", line, r, n, count['M'])
			}
		}
	}
	if bars == 0 {
		t.Fatal("no cold boot rows drawn")
	}
}

func TestLiveTimerCounts(t *testing.T) {
	ms := []*fly.Machine{machine("e82d0000000001", "started"), machine("e82d0000000002", "stopped")}
	var l logs
	l.coldBoot("e82d0000000002", t0.Add(-3*time.Hour), sec(10), sec(8), sec(6), time.Time{})
	begin := t0.Add(-sec(12.01))
	l.coldBoot("e82d0000000001", begin, sec(10), sec(8), sec(6), t0)

	p := newPane(theme.New(true))
	p.SetData(app(ms, l), t0)
	cases := []struct {
		at   time.Time
		want string
	}{
		{t0, "▲ starting e82d0000000001 12.0s · static files · cold boot"},
		{t0.Add(3 * time.Second), "▲ starting e82d0000000001 15.0s · static files · cold boot"},
		{t0.Add(58 * time.Second), "▲ starting e82d0000000001 1m10s · static files"},
	}
	for _, c := range cases {
		first := strings.SplitN(uitest.PlainView(p, 120, 30, false, c.at), "\n", 2)[0]
		if !strings.HasPrefix(first, c.want) {
			t.Errorf("at +%v: %q, want prefix %q", c.at.Sub(t0), first, c.want)
		}
	}

	// The machine serves: the timer goes, the boot joins the spread.
	var done logs
	done.coldBoot("e82d0000000001", begin, sec(10), sec(8), sec(6), time.Time{})
	later := begin.Add(40 * time.Second)
	p.SetData(app(ms, append(l[:0:0], append(l, done...)...)), later)
	if out := uitest.PlainView(p, 120, 30, false, later); strings.Contains(out, "▲ starting") {
		t.Errorf("timer still shown after serving:\n%s", out)
	}

	// A machine that went to sleep mid-boot is not booting any more.
	ms[0].State = "stopped"
	p.SetData(app(ms, l), t0)
	if out := uitest.PlainView(p, 120, 30, false, t0); strings.Contains(out, "▲ starting") {
		t.Errorf("the boot of a stopped machine is still timed:\n%s", out)
	}
}

func TestHistoryScrolls(t *testing.T) {
	ms, l := scaleToZero()
	p := newPane(theme.New(true))
	p.SetData(app(ms, l), t0)
	down := tea.KeyMsg{Type: tea.KeyDown}
	cases := []struct {
		keys      []tea.KeyMsg
		wantFirst string // the id on the row marked ›
	}{
		{nil, p.d.history[0].Machine},
		{[]tea.KeyMsg{down}, p.d.history[1].Machine},
		{[]tea.KeyMsg{down, down, {Type: tea.KeyUp}}, p.d.history[1].Machine},
		{[]tea.KeyMsg{down, down, down}, p.d.history[3].Machine},
		{[]tea.KeyMsg{{Type: tea.KeyEnd}}, p.d.history[len(p.d.history)-1].Machine},
	}
	for i, c := range cases {
		p.Update(tea.KeyMsg{Type: tea.KeyHome})
		for _, k := range c.keys {
			p.Update(k)
		}
		out := uitest.PlainView(p, 100, 16, true, t0)
		var marked string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "›") {
				marked = strings.Fields(line[len("›"):])[0]
			}
		}
		if marked != c.wantFirst {
			t.Errorf("case %d: marked %q, want %q\n%s", i, marked, c.wantFirst, out)
		}
	}
}

func TestViewIsExactAtEverySize(t *testing.T) {
	ms, l := scaleToZero()
	var live logs
	live.coldBoot(ms[1].ID, t0.Add(-5*time.Second), sec(10), sec(8), sec(6), t0)
	ms[1].State = "starting"
	fixtures := map[string]func(*Pane){
		"never loaded": func(*Pane) {},
		"empty":        func(p *Pane) { p.SetData(app(ms, nil), t0) },
		"full":         func(p *Pane) { p.SetData(app(ms, append(l, live...)), t0) },
	}
	for name, load := range fixtures {
		for _, noColor := range []bool{false, true} {
			p := newPane(theme.New(noColor))
			load(p)
			for _, sz := range uitest.Sizes {
				for _, focused := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
						uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], focused, t0.Add(time.Second)), sz[0], sz[1])
					})
				}
			}
			for _, sz := range [][2]int{{0, 5}, {5, 0}, {-1, -1}} {
				if out := uitest.View(p, sz[0], sz[1], true, t0); out != "" {
					t.Errorf("%s: View%v = %q, want empty", name, sz, out)
				}
			}
		}
	}
}

func TestLevelLooks(t *testing.T) {
	ms, l := scaleToZero()
	t.Run("colour", func(t *testing.T) {
		uitest.PinColorProfile(t)
		th := theme.New(false)
		p := newPane(th)
		p.SetData(app(ms, l), t0)
		out := uitest.View(p, 160, 48, false, t0)
		if !strings.Contains(out, th.Level(diagnose.Fail).Render()) {
			t.Error("dominant release work is not drawn in the fail look")
		}
		w := th.Warn.Render("M")
		if sgr := w[:strings.Index(w, "M")]; sgr == "" || !strings.Contains(out, sgr+"MMM") {
			t.Error("migrations (release work) are not drawn in the warn style in the bars")
		}
	})
	t.Run("NO_COLOR", func(t *testing.T) {
		uitest.PinColorProfile(t)
		p := newPane(theme.New(true))
		p.SetData(app(ms, l), t0)
		out := uitest.View(p, 160, 48, false, t0)
		if !strings.Contains(ansi.Strip(out), "✗ fail migrations") {
			t.Error("glyph and word lost under NO_COLOR")
		}
		uitest.AssertNoColour(t, out)
	})
}

func TestBarCells(t *testing.T) {
	ls := newLetterSet()
	boot, migr, srv := ls.add("machine boot", false), ls.add("migrations", true), ls.add("server start", false)
	segs := []segment{
		{Entry: boot, From: 0, To: sec(2)},
		{Entry: migr, From: sec(2), To: sec(8)},
		{Entry: srv, From: sec(9), To: sec(10)},
	}
	letters := func(cells []*legendEntry) string {
		var b strings.Builder
		for _, c := range cells {
			if c == nil {
				b.WriteRune(gapMark)
			} else {
				b.WriteRune(c.Letter)
			}
		}
		return b.String()
	}
	cases := []struct {
		name         string
		total, scale time.Duration
		width        int
		want         string
	}{
		{"full scale", sec(10), sec(10), 10, "BBMMMMMM·S"},
		{"half scale", sec(10), sec(20), 10, "BMMMS"},
		{"tiny boot keeps a cell", sec(0.1), sec(30), 10, "B"},
		{"no width", sec(10), sec(10), 0, ""},
		{"no scale", sec(10), 0, 10, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := letters(barCells(segs, c.total, c.scale, c.width)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestLetters(t *testing.T) {
	ls := newLetterSet()
	cases := []struct {
		name string
		want rune
	}{
		{"migrations", 'M'},
		{"static files", 'F'},
		{"server start", 'S'},
		{"warm cache", 'W'},
		{"wait for db", 'A'}, // W is taken: the next free letter of the name
		{"migrations", 'M'},  // same name, same letter
	}
	for _, c := range cases {
		if got := ls.add(c.name, false).Letter; got != c.want {
			t.Errorf("%q: %q, want %q", c.name, got, c.want)
		}
	}
}
