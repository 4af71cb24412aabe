package traffic

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/status"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

func plain(p *Pane, w, h int) string { return uitest.PlainView(p, w, h, true, t0) }

// The scale-to-zero app's day: the loss in words with its numbers, the cause beside it,
// the scanner named, the proxy's codes with their meaning.
func TestTrafficNamesTheLossTheCauseAndTheNoise(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(lossyDay), t0)
	out := plain(p, 160, 48)
	uitest.AssertMentions(t, out, []string{
		"✗ fail the edge answered 900 requests the app never saw in 24 h (1.4 %): they died in front of the app — read the proxy, not the app logs",
		"last hour: 0 of 2,400 lost · 24 h: 900 of 62,100 lost",
		"cause: 100.0 % of the lost requests were answered in a minute a machine was booting (9 boots, p50 28.0s; booting minutes are 0.2 % of 24 h)",
		"S 03:30–04:29 UTC: 240 requests from 6 clients (~40 each), 4 host names, .env/actuator/wp-config paths — a scanner, all 301",
		"▲ 13:00 UTC: 6,300 requests, 2.6× the median hour — 1 host name, no secret-file paths in 15 access lines: real users",
		"PR04 ×5 no good candidate after retries: every machine busy or not listening",
		"PM03 ×3 wake timed out: a request waited on a booting machine and gave up",
		"totals over 24 h", "edge 61,200 · app 61,200", "edge 900 · app 0", "900 lost", "9 cold boots",
		"24 h since 09:30 UTC, per hour",
	}, []string{"…"})
	// The chart: one column group per hour, the 502s on the hours of the boots.
	var fiveXX, boots, noise, axis string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "5xx"):
			fiveXX = l
		case strings.HasPrefix(l, "boots"):
			boots = l
		case strings.HasPrefix(l, "noise"):
			noise = l
		case strings.HasPrefix(l, "UTC"):
			axis = l
		}
	}
	// Cells, not bytes: the bars are several bytes each.
	at := func(row string, c int) string { r := []rune(row); return string(r[c:min(c+2, len(r))]) }
	col := func(hour string) int { return strings.Index(axis, " "+hour+" ") + 1 }
	for _, h := range []string{"13", "20", "06"} {
		if c := col(h); c <= 0 || at(fiveXX, c) != "█ " || at(boots, c) != " 3" {
			t.Errorf("hour %s (col %d): 5xx %q boots %q", h, c, at(fiveXX, c), at(boots, c))
		}
	}
	if c := col("12"); at(fiveXX, c) != "  " || at(boots, c) != " ·" {
		t.Errorf("a quiet hour: 5xx %q boots %q", at(fiveXX, c), at(boots, c))
	}
	if at(noise, col("03")) != "S " || at(noise, col("04")) != "S " || at(noise, col("13")) != "▲ " {
		t.Errorf("noise marks: %q under %q", noise, axis)
	}
}

// snappy-api's day: nothing lost, no cause line, no lost row.
func TestTrafficWithoutLoss(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(quiet), t0)
	out := plain(p, 160, 48)
	uitest.AssertMentions(t, out, []string{"✓ pass edge and app agree: 57,600 requests in 24 h, none lost in between"},
		[]string{"cause:", "\nlost ", "scanner", "proxy errors"})
}

// The head line says "agree" only when the edge and the app counted the
// same; each direction of a gap is named with its own cause.
func TestTrafficNeverSaysAgreeWhenTheyDiffer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		day     day
		want    []string
		notWant []string
	}{
		{"the same counts agree", quiet, []string{"✓ pass edge and app agree: 57,600 requests in 24 h", "24 h: 0 of 57,600 lost"},
			[]string{"too late", "no client received"}},
		{"lost in front of the app", lossyDay, []string{"✗ fail the edge answered 900 requests the app never saw in 24 h"},
			[]string{"agree", "too late"}},
		{"the app answered more than the edge delivered", backlogged, []string{
			"✗ fail the app answered 1,440 requests in 24 h that no client received (20.0 % of its 7,200): their clients had gone before the answer came back — a backlog: see the Backlog pane",
			"last hour: 0 of 240 lost, 60 answered too late · 24 h: 0 of 5,760 lost, 1,440 answered too late",
		}, []string{"agree", "none lost"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPane(theme.New(true))
			p.SetData(build(tc.day), t0)
			out := strings.Join(strings.Fields(plain(p, 220, 48)), " ")
			uitest.AssertMentions(t, out, tc.want, tc.notWant)
		})
	}
}

// Before the counters are read, and when they cannot be, the pane says so;
// the error text from the platform is made inert.
func TestTrafficUnknown(t *testing.T) {
	p := newPane(theme.New(true))
	a := snapshot.New("o", "a", nil)
	p.SetData(a, t0)
	uitest.AssertMentions(t, plain(p, 120, 10), []string{"? unknown reading fly_edge_http_responses_count and fly_app_http_responses_count"}, nil)
	a.ApplyEdgeOrigin(snapshot.EdgeOrigin{At: t0, Err: "query metrics: 503 \x1b]0;owned\x07 unavailable"})
	p.SetData(a, t0.Add(time.Minute))
	out := uitest.View(p, 120, 10, true, t0)
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") {
		t.Errorf("a control sequence from the platform reached the screen: %q", out)
	}
	uitest.AssertMentions(t, ansi.Strip(out), []string{"edge and app counters not read: query metrics: 503"}, nil)
}

// No sentence or legend ends in "…" at any size a person tiles or zooms it
// to: they wrap. At 80 columns the chart still holds 24 clock hours (all but
// the oldest, cut one), at 160 the whole 24 h.
func TestTrafficWrapsInsteadOfCutting(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(lossyDay), t0)
	for _, w := range []int{38, 52, 78, 158, 218} {
		lines := screen(theme.New(true), p.summary, w)
		for _, l := range lines {
			if s := strings.TrimRight(ansi.Strip(l), " "); strings.HasSuffix(s, "…") || ansi.StringWidth(l) > w {
				t.Errorf("width %d: %q", w, s)
			}
		}
		held := len(p.summary.Hours)
		if n := chartHours(w, held); held != 25 || (w >= 78 && n < 24) || (w >= 158 && n != held) {
			t.Errorf("width %d shows %d of %d hours", w, n, held)
		}
	}
}

// At 80×24 everything is reachable by scrolling, and the footer says so.
func TestTrafficScrolls(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(lossyDay), t0)
	p.SetSize(78, 12)
	if len(p.Keys()) != 2 || p.Height(78) <= 12 { // scroll, and l for the lost requests' lines
		t.Fatalf("keys %v, height %d", p.Keys(), p.Height(78))
	}
	if strings.Contains(plain(p, 78, 12), "PM03") {
		t.Fatal("the last line is on the first page")
	}
	p.Update(uitest.Key("end"))
	if out := ansi.Strip(p.View(true, t0)); !strings.Contains(out, "PM03 ×3") {
		t.Errorf("end does not reach the proxy errors:\n%s", out)
	}
	p.SetSize(158, 46)
	if len(p.Keys()) != 1 {
		t.Errorf("scroll hint when everything fits: %v", p.Keys())
	}
}

func TestTrafficViewIsExactAtEverySize(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for name, a := range map[string]*snapshot.App{"never loaded": nil, "empty": snapshot.New("o", "a", nil), "lossyDay": build(lossyDay)} {
			p := newPane(theme.New(noColor))
			if a != nil {
				p.SetData(a, t0)
			}
			for _, sz := range uitest.Sizes {
				t.Run(fmt.Sprintf("%s/%dx%d/nocolor=%v", name, sz[0], sz[1], noColor), func(t *testing.T) {
					uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], false, t0), sz[0], sz[1])
				})
			}
		}
	}
}

func TestTrafficStaleIsDim(t *testing.T) {
	uitest.PinColorProfile(t)
	p := newPane(theme.New(false))
	p.SetData(build(lossyDay), t0)
	p.SetStale(true)
	for _, l := range strings.Split(uitest.View(p, 100, 30, true, t0), "\n") {
		if strings.TrimSpace(ansi.Strip(l)) != "" && !strings.Contains(l, "\x1b[2m") && !strings.Contains(l, ";2m") && !strings.Contains(l, "[2;") {
			t.Errorf("stale line not faint: %q", l)
		}
	}
}

func golden3(t *testing.T, noColor bool, w, h int) {
	uitest.PinColorProfile(t)
	p := newPane(theme.New(noColor))
	p.SetData(build(lossyDay), t0)
	out := uitest.View(p, w, h, true, t0)
	uitest.AssertSize(t, out, w, h)
	golden.RequireEqual(t, []byte(out))
}

// Goldens of the scale-to-zero app's day: the pane's inside at 80×24 and 160×48 (the
// sizes the pane gets zoomed: the borders are the root's), and without colour.
func TestTrafficGolden80x24(t *testing.T)         { golden3(t, false, 78, 22) }
func TestTrafficGolden160x48(t *testing.T)        { golden3(t, false, 158, 46) }
func TestTrafficGolden80x24NoColor(t *testing.T)  { golden3(t, true, 78, 22) }
func TestTrafficGolden160x48NoColor(t *testing.T) { golden3(t, true, 158, 46) }

// l asks for the logs view on the proxy's error lines of the day.
func TestTrafficJumpsToTheLostRequestsLines(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(lossyDay), t0)
	cmd := p.Update(uitest.Key("l"))
	if cmd == nil {
		t.Fatal("l asked for nothing")
	}
	show, ok := cmd().(pane.ShowLogs)
	if !ok || !show.ProxyErrors || !show.From.Equal(t0.Add(-24*time.Hour)) {
		t.Errorf("l asked for %#v", show)
	}
}

// edgeOfDay is a day whose boots sit where windows part: one just inside
// the 24 h (in the clock hour they start in), one just before it in that
// same clock hour, one in the hour under way.
var edgeOfDay = day{
	bootsAt:  []time.Duration{24*time.Hour - 10*time.Minute, 24*time.Hour + 10*time.Minute, 13*time.Hour + 20*time.Minute, 20 * time.Minute},
	perMin:   40,
	lostBoot: 300,
	proxy:    map[string]int{"PM03": 1},
}

// Every number of lost requests and of boots on the pane is over the 24 h the
// sentences name, or says the span it covers: at 80 columns the chart holds
// only the last 24 clock hours and its legend says since when; wider, the
// chart holds the whole 24 h (its oldest hour cut where the day begins) and
// its totals are the sentences' figures.
func TestTrafficNumbersAgreeOnTheirWindow(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(edgeOfDay), t0)
	// What the fixture holds in the 24 h before t0: three of the four boot
	// moments, three machines each, 300 requests lost in each's minute.
	const lost24h, boots24h = 900, 9
	num := func(s string) int {
		n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatalf("not a number: %q", s)
		}
		return n
	}
	headline := regexp.MustCompile(`the edge answered ([\d,]+) requests the app never saw in 24 h`)
	dayLine := regexp.MustCompile(`24 h: ([\d,]+) of [\d,]+ lost`)
	cause := regexp.MustCompile(`\((\d+) boots, p50 [\d.]+s; booting minutes are [\d.]+ % of 24 h\)`)
	span := regexp.MustCompile(`(24 h|\d+ h(?: \d+ m)?) since (\d\d:\d\d) UTC, per hour`)
	lostTotal := regexp.MustCompile(`([\d,]+) lost$`)
	bootsTotal := regexp.MustCompile(`([\d,]+) cold boots?$`)
	for _, w := range []int{80, 120, 160, 220} {
		out := plain(p, w, 80)
		flat := strings.Join(strings.Fields(out), " ") // sentences wrap at 80
		for _, re := range []*regexp.Regexp{headline, dayLine} {
			if m := re.FindStringSubmatch(flat); m == nil || num(m[1]) != lost24h {
				t.Errorf("width %d: %v says %q, want %d lost", w, re, m, lost24h)
			}
		}
		if m := cause.FindStringSubmatch(flat); m == nil || num(m[1]) != boots24h {
			t.Errorf("width %d: the cause says %q, want %d boots over 24 h", w, m, boots24h)
		}
		// The chart's totals, and what its boots row adds up to.
		rowBoots, gotLost, gotBoots := 0, -1, -1
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimRight(l, " ")
			switch {
			case strings.HasPrefix(l, "boots "):
				cells := l[len("boots "):]
				if m := bootsTotal.FindStringSubmatch(cells); m != nil {
					gotBoots = num(m[1])
					cells = strings.TrimSuffix(cells, m[0])
				}
				for _, f := range strings.Fields(cells) {
					if f != "·" {
						rowBoots += num(f)
					}
				}
			case strings.HasPrefix(l, "lost "):
				if m := lostTotal.FindStringSubmatch(l); m != nil {
					gotLost = num(m[1])
				}
			}
		}
		// A total beside the chart is the sentences' figure, under a header saying so.
		if (gotLost >= 0 && gotLost != lost24h) || (gotBoots >= 0 && gotBoots != boots24h) {
			t.Errorf("width %d: the chart says %d lost and %d boots, the sentences %d and %d", w, gotLost, gotBoots, lost24h, boots24h)
		}
		if (gotLost >= 0 || gotBoots >= 0) && !strings.Contains(out, "totals over 24 h") {
			t.Errorf("width %d: totals without their window", w)
		}
		m := span.FindStringSubmatch(flat)
		if m == nil {
			t.Errorf("width %d: the legend names no span:\n%s", w, out)
			continue
		}
		from, err := time.Parse("15:04", m[2])
		if err != nil {
			t.Fatal(err)
		}
		from = time.Date(t0.Year(), t0.Month(), t0.Day()-1, from.Hour(), from.Minute(), 0, 0, time.UTC)
		if from.Add(24 * time.Hour).Before(t0.Add(-time.Minute)) {
			from = from.Add(24 * time.Hour)
		}
		whole := m[1] == "24 h"
		if whole != from.Equal(t0.Add(-24*time.Hour)) || (!whole && m[1] != fmt.Sprintf("%d h %d m", int(t0.Sub(from).Hours()), int(t0.Sub(from).Minutes())%60)) {
			t.Errorf("width %d: the legend says %q since %s", w, m[1], m[2])
		}
		// The boots row's hours add up to the boots begun in the span it names.
		wantBoots := 0
		for _, ago := range edgeOfDay.bootsAt {
			if t0.Add(-ago).After(from) {
				wantBoots += 3
			}
		}
		if rowBoots != wantBoots {
			t.Errorf("width %d: the boots row adds up to %d, want %d since %s", w, rowBoots, wantBoots, from.Format("15:04"))
		}
		// From 120 columns the chart holds the whole 24 h, with its totals.
		if wide := w >= 120; wide != whole || wide != (gotLost >= 0 && gotBoots >= 0) {
			t.Errorf("width %d: the chart over %s, totals %d lost and %d boots", w, m[1], gotLost, gotBoots)
		}
	}
	// Before the 24 h counters are read the chart shows no request totals
	// (they are the counters' figures); the boots, from the logs, stay.
	s := p.summary
	s.Known = false
	out := ansi.Strip(strings.Join(screen(theme.New(true), s, 160), "\n"))
	uitest.AssertMentions(t, out, []string{"totals over 24 h", "9 cold boots"}, []string{"edge 900", "900 lost"})
}

var dayAgrees = regexp.MustCompile(`agree\b[^|\n]*24 h`)

// One model, every surface that compares the edge with the app: the Traffic
// pane, the checklist's item 5 and status say "agree" only when the counts
// match, and all name the app answering more than the edge delivered.
func TestNoSurfaceSaysAgreeWhenTheCountsDiffer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		day   day
		agree bool
		say   string
	}{
		{"same counts", quiet, true, "edge and app agree"},
		{"lost in front of the app", lossyDay, false, "requests the app never saw in 24 h"},
		{"answered for clients already gone", backlogged, false, "that no client received"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := build(tc.day)
			p := newPane(theme.New(true))
			p.SetData(a, t0)
			var item checklist.Item
			for _, it := range checklist.Evaluate(a.Evidence(t0, nil, nil), checklist.Options{}) {
				if it.ID == checklist.IDEdgeOrigin {
					item = it
				}
			}
			var itemText []string
			for _, f := range item.Evidence {
				itemText = append(itemText, f.Text)
			}
			var st strings.Builder
			status.BuildApp(a, t0).WriteText(&st)
			for surface, text := range map[string]string{
				"traffic pane": strings.Join(strings.Fields(plain(p, 160, 48)), " "),
				"checklist":    strings.Join(itemText, " | "),
				"status":       st.String(),
			} {
				// The day's counts (the fixtures' last hour may well agree).
				if agrees := dayAgrees.MatchString(text); agrees != tc.agree {
					t.Errorf("%s says the day agrees = %v:\n%s", surface, agrees, text)
				}
				if !strings.Contains(text, tc.say) {
					t.Errorf("%s lacks %q:\n%s", surface, tc.say, text)
				}
			}
		})
	}
}
