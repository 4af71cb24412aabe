package diagnose

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var h0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func minute(at time.Duration, edge, app StatusCounts) TrafficMinute {
	return TrafficMinute{Start: h0.Add(at), Edge: edge, App: app}
}

func TestStatusClass(t *testing.T) {
	for in, want := range map[string]string{"200": "2xx", "304": "3xx", "502": "5xx", " 404 ": "4xx", "5xx": "other", "": "other", "600": "other", "20": "other"} {
		if got := StatusClass(in); got != want {
			t.Errorf("StatusClass(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLost(t *testing.T) {
	for _, tc := range []struct {
		edge, app StatusCounts
		want      float64
	}{
		{StatusCounts{"200": 90, "502": 10}, StatusCounts{"200": 90}, 10},
		{StatusCounts{"200": 90}, StatusCounts{"200": 95}, 0}, // the app answered clients who had left
		{nil, nil, 0},
		{StatusCounts{"500": 3}, StatusCounts{"500": 3}, 0},                 // the app's own errors are not lost
		{StatusCounts{"200": 100, "502": 10}, StatusCounts{"200": 110}, 10}, // answers to nobody do not hide the 502s
	} {
		if got := Lost(tc.edge, tc.app); got != tc.want {
			t.Errorf("Lost(%v, %v) = %v, want %v", tc.edge, tc.app, got, tc.want)
		}
	}
}

func TestTrafficHours(t *testing.T) {
	// The window 08:30 → 11:30 touches four clock hours: 08 (cut at 08:30),
	// 09, 10 and 11 (under way).
	since, now := h0.Add(-30*time.Minute), h0.Add(2*time.Hour+30*time.Minute)
	minutes := []TrafficMinute{
		minute(-40*time.Minute, StatusCounts{"200": 1000}, StatusCounts{"200": 1000}), // in hour 08, before the window
		minute(-20*time.Minute, StatusCounts{"200": 7, "502": 1}, StatusCounts{"200": 7}),
		minute(0, StatusCounts{"200": 10, "502": 5}, StatusCounts{"200": 10}),
		minute(time.Minute, StatusCounts{"304": 4}, StatusCounts{"304": 6}), // app > edge: not a negative loss
		minute(70*time.Minute, StatusCounts{"200": 3}, StatusCounts{"200": 3}),
		minute(149*time.Minute, StatusCounts{"503": 2}, nil),
		minute(150*time.Minute, StatusCounts{"503": 9}, nil), // starts at now: not yet counted
	}
	boots := []Boot{
		{Machine: "m0", Begin: h0.Add(-35 * time.Minute)}, // before the window
		{Machine: "m0", Begin: since},                     // at its very start: (since, now], as the cold-start counts
		{Machine: "m0", Begin: h0.Add(-25 * time.Minute)},
		{Machine: "m1", Begin: h0.Add(5 * time.Minute)},
		{Machine: "m2", Begin: h0.Add(6 * time.Minute), Resume: true}, // resumes are not cold boots
		{Machine: "m1", Begin: h0.Add(130 * time.Minute)},
		{Machine: "m1", Begin: h0.Add(155 * time.Minute)}, // after now
	}
	hours := TrafficHours(minutes, boots, since, now)
	got := ""
	for _, h := range hours {
		got += fmt.Sprintf("%s e%v a%v lost%v boots%d min%d partial%v %v|", h.Start.Format("15"), h.EdgeTotal, h.AppTotal, h.Lost, h.Boots, h.Minutes, h.Partial, h.Edge)
	}
	want := "08 e8 a7 lost1 boots1 min1 partialtrue map[2xx:7 5xx:1]|" +
		"09 e19 a16 lost5 boots1 min2 partialfalse map[2xx:10 3xx:4 5xx:5]|" +
		"10 e3 a3 lost0 boots0 min1 partialfalse map[2xx:3]|" +
		"11 e2 a0 lost2 boots1 min1 partialtrue map[5xx:2]|"
	if got != want {
		t.Errorf("hours\n got %s\nwant %s", got, want)
	}
	if m := MedianHour(hours); m != 3 {
		t.Errorf("median of complete hours 19, 3 = %v, want the lower middle 3", m)
	}
	// The hours add up to the window's boots as CorrelateBoots counts them.
	sum := 0
	for _, h := range hours {
		sum += h.Boots
	}
	if c := CorrelateBoots(minutes, boots, since, now); c.Boots != sum {
		t.Errorf("hours hold %d boots, CorrelateBoots %d", sum, c.Boots)
	}
	// A window starting on the hour cuts nothing; an empty window has no hours.
	if hs := TrafficHours(nil, nil, h0, h0.Add(90*time.Minute)); len(hs) != 2 || hs[0].Partial || !hs[1].Partial {
		t.Errorf("on the hour: %+v", hs)
	}
	if hs := TrafficHours(nil, nil, now, now); hs != nil {
		t.Errorf("empty window: %+v", hs)
	}
}

func TestCorrelateBoots(t *testing.T) {
	since, now := h0, h0.Add(10*time.Minute)
	lostAt := func(at time.Duration, n float64) TrafficMinute {
		return minute(at, StatusCounts{"200": 5, "502": n}, StatusCounts{"200": 5})
	}
	minutes := []TrafficMinute{
		lostAt(0, 0), lostAt(time.Minute, 30), lostAt(2*time.Minute, 20), lostAt(3*time.Minute, 0),
		lostAt(5*time.Minute, 10), lostAt(7*time.Minute, 40), lostAt(9*time.Minute, 0),
	}
	boots := []Boot{
		// 09:00:50 → 09:02:10 serving: overlaps minutes 0, 1 and 2.
		{Machine: "m1", Begin: h0.Add(50 * time.Second), Serving: h0.Add(130 * time.Second), Complete: true},
		// Begun before the window and still booting at its start: minute 0 is booting anyway.
		{Machine: "m2", Begin: h0.Add(-40 * time.Second), Serving: h0.Add(10 * time.Second), Complete: true},
		// Live from 09:07:30: minutes 7, 8, 9.
		{Machine: "m3", Begin: h0.Add(450 * time.Second)},
		// A resume does not open a cold-boot window.
		{Machine: "m4", Begin: h0.Add(5 * time.Minute), Resume: true, Serving: h0.Add(5*time.Minute + time.Second), Complete: true},
	}
	got := CorrelateBoots(minutes, boots, since, now)
	want := BootLoss{Lost: 100, InBoot: 90, Minutes: 7, BootMinutes: 5, Boots: 2, P50: 80 * time.Second}
	if got != want {
		t.Fatalf("CorrelateBoots =\n %+v, want\n %+v", got, want)
	}
	if s := got.Share(); s != 0.9 {
		t.Errorf("share %v", s)
	}
	wantLine := "90.0 % of the lost requests were answered in a minute a machine was booting (2 boots, p50 1m20s; booting minutes are 71.4 % of the 10 minutes)"
	if line := got.Sentence("the 10 minutes"); line != wantLine {
		t.Errorf("sentence\n got %q\nwant %q", line, wantLine)
	}
	if line := (BootLoss{Lost: 5, Minutes: 60}).Sentence("the hour"); line != "no cold boot in the hour: the requests died for another reason — read the proxy's errors" {
		t.Errorf("no boots: %q", line)
	}
	if line := (BootLoss{Minutes: 60, Boots: 3}).Sentence("the hour"); line != "" {
		t.Errorf("nothing lost: %q", line)
	}
}

func TestLossSentence(t *testing.T) {
	for _, tc := range []struct {
		lost, total float64
		want        string
	}{
		{33440, 161640, "the edge answered 33,440 requests the app never saw in 24 h (20.7 %): they died in front of the app — read the proxy, not the app logs"},
		{0.2, 161640, ""},
		{5, 0, ""},
	} {
		if got := LossSentence(tc.lost, tc.total, "24 h"); got != tc.want {
			t.Errorf("LossSentence(%v, %v)\n got %q\nwant %q", tc.lost, tc.total, got, tc.want)
		}
	}
}

func TestEdgeGapNamesBothDirections(t *testing.T) {
	for _, tc := range []struct {
		name            string
		edge, app       StatusCounts
		lost, unclaimed float64
		level           Level
		want            []string // in the sentences, in order
	}{
		{"nothing counted", nil, nil, 0, 0, Unknown, []string{"the edge counted no requests in 24 h"}},
		{"both agree", StatusCounts{"200": 47867}, StatusCounts{"200": 47867}, 0, 0, Pass, []string{"edge and app agree: 47,867 requests in 24 h"}},
		{"lost in front of the app", StatusCounts{"200": 9000, "502": 1000}, StatusCounts{"200": 9000}, 1000, 0, Fail,
			[]string{"the edge answered 1,000 requests the app never saw in 24 h (10.0 %)"}},
		{"the backlog: the app answered more than the edge delivered", StatusCounts{"200": 6365}, StatusCounts{"200": 7938}, 0, 1573, Fail,
			[]string{"the app answered 1,573 requests in 24 h that no client received (19.8 % of its 7,938)", "a backlog"}},
		{"a few unclaimed is not agreement", StatusCounts{"200": 10000}, StatusCounts{"200": 10003}, 0, 3, Pass,
			[]string{"the app answered 3 requests in 24 h that no client received"}},
		{"equal totals, different classes: both ways", StatusCounts{"200": 90, "502": 10}, StatusCounts{"200": 100}, 10, 10, Fail,
			[]string{"the edge answered 10 requests the app never saw", "the app answered 10 requests in 24 h that no client received"}},
		{"only the app counted", nil, StatusCounts{"200": 40}, 0, 40, Fail,
			[]string{"the edge counted no requests in 24 h", "the app answered 40 requests"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := CompareEdge(tc.edge, tc.app)
			if g.Lost != tc.lost || g.Unclaimed != tc.unclaimed || g.Level() != tc.level {
				t.Errorf("lost/unclaimed/level = %v/%v/%v, want %v/%v/%v", g.Lost, g.Unclaimed, g.Level(), tc.lost, tc.unclaimed, tc.level)
			}
			var lines []string
			for _, v := range g.Verdicts("24 h") {
				lines = append(lines, v.Line)
				if worse := Worse(v.Level, g.Level()); worse != g.Level() {
					t.Errorf("%q is graded %v, worse than the gap's %v", v.Line, v.Level, g.Level())
				}
			}
			text := strings.Join(lines, " | ")
			at := 0
			for _, w := range tc.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("sentences %q lack %q (in order)", text, w)
				}
				at += i + len(w)
			}
			if agrees := strings.Contains(text, "agree"); agrees != (tc.lost == 0 && tc.unclaimed == 0 && g.Edge > 0) {
				t.Errorf("says agree = %v for edge %v, app %v: %q", agrees, tc.edge, tc.app, text)
			}
		})
	}
}

func TestPercent(t *testing.T) {
	for share, want := range map[float64]string{0: "0.0 %", 0.219: "21.9 %", 0.19949: "19.9 %", 1: "100.0 %"} {
		if got := Percent(share); got != want {
			t.Errorf("Percent(%v) = %q, want %q", share, got, want)
		}
	}
}
