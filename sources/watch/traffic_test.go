package watch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/snapshot"
)

// collectTraffic is Collect with the traffic feed too (the dashboard's, which
// status and check do not fetch) and the pane's summary.
func collectTraffic(t *testing.T, src *Source, app string) (*snapshot.App, snapshot.TrafficSummary) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := src.Collect(ctx, app, append(Feeds(), TrafficFeed())...)
	if err != nil {
		t.Fatalf("collect %s: %v", app, err)
	}
	if a.Traffic.Err != "" || len(a.Traffic.Minutes) == 0 {
		t.Fatalf("%s: traffic fetch: %q, %d minutes", app, a.Traffic.Err, len(a.Traffic.Minutes))
	}
	return a, a.TrafficSummary(src.Now())
}

// The scale-to-zero app's day on the demo, through fly-go and the Prometheus range API:
// about a fifth of the scale-to-zero app's requests lost at the edge, most of
// them in minutes a machine was booting, the scanner named; the tuned app
// loses nothing.
func TestDemoTrafficThroughFlyGo(t *testing.T) {
	t.Parallel()
	sim, src := startDemo(t, 1)
	a, s := collectTraffic(t, src, flysim.DemoScaleToZero)
	share := s.Lost24h / s.Edge24h
	t.Logf("%s\n%s", diagnose.LossSentence(s.Lost24h, s.Edge24h, "24 h"), s.Boots.Sentence("24 h"))
	if !s.Known || share < 0.12 || share > 0.30 {
		t.Errorf("lost %.0f of %.0f (%.1f %%), want about a fifth", s.Lost24h, s.Edge24h, 100*share)
	}
	if len(s.Hours) != 25 || !s.Hours[24].Partial {
		t.Fatalf("%d hours", len(s.Hours))
	}
	perMinute, inHours, hourly := 0.0, 0.0, 0.0
	for _, m := range a.Traffic.Minutes {
		if !m.Start.Before(src.Now().Add(-24 * time.Hour)) {
			perMinute += m.Lost()
		}
		if !m.Start.Before(s.Since) && m.Start.Before(s.At) {
			inHours += m.Lost()
		}
	}
	for _, h := range s.Hours {
		hourly += h.Lost
	}
	// The per-minute series and the instant 24 h query count the same
	// losses; the chart's 25 clock hours hold every minute of the 24 h.
	if perMinute < 0.95*s.Lost24h || perMinute > 1.05*s.Lost24h || hourly != inHours {
		t.Errorf("per-minute loss %.0f, in the chart's hours %.0f, hourly %.0f, instant %.0f", perMinute, inHours, hourly, s.Lost24h)
	}
	if b := s.Boots; b.Share() < 0.7 || b.Boots < 60 || float64(b.BootMinutes)/float64(b.Minutes) > 0.3 {
		t.Errorf("boot correlation %+v: want most losses in booting minutes, which are few", b)
	}
	if len(s.Scans) != 1 {
		t.Fatalf("%d scans found, want the demo's one", len(s.Scans))
	}
	scan := s.Scans[0].Sentence()
	t.Log(scan)
	if sc := s.Scans[0]; sc.Clients != 42 || sc.Hosts != 31 || sc.Requests < 4000 || !strings.HasSuffix(scan, "a scanner, all 301") {
		t.Errorf("scan %+v", sc)
	}
	codes := map[string]int{}
	for _, pe := range s.Errors {
		codes[pe.Code] = pe.Lines
	}
	if codes["PM03"] == 0 {
		t.Errorf("proxy errors %v: want the wake timeouts (PM03)", codes)
	}

	// The feed fetches the day once per hour: its first fetch makes two
	// calls for the day, and each fetch two for the hour under way once a
	// minute of it has passed (the platform's clock is the wall's: in an
	// hour's first minute there is no minute of it to read). A fetch the
	// clock crossed a minute or an hour during is not held to a count.
	ctx := context.Background()
	feed := TrafficFeed()
	var cursor string
	var lastHour time.Time // the hour the day was last fetched in
	for i := range 3 {
		sim.ResetAPICalls()
		before := src.Now().UTC()
		r := feed.Fetch(ctx, src, Query{App: flysim.DemoScaleToZero, Cursor: cursor})
		after := src.Now().UTC()
		if r.Err != nil || r.Apply == nil {
			t.Fatalf("fetch %d: %v", i, r.Err)
		}
		r.Apply(a)
		if r.Cursor != "" {
			cursor = r.Cursor
		}
		hour := before.Truncate(time.Hour)
		if !before.Truncate(time.Minute).Equal(after.Truncate(time.Minute)) {
			lastHour = hour // the fetch read the clock as it began
			continue
		}
		want := 0
		if !hour.Equal(lastHour) { // the first fetch, or a new hour: the day
			want += 2
		}
		lastHour = hour
		if before.Sub(before.Truncate(time.Hour)) >= time.Minute {
			want += 2
		}
		if calls := sim.APICalls()["prom:"+sim.Org()]; calls != want {
			t.Errorf("fetch %d at %s made %d Prometheus calls, want %d", i, before.Format(time.TimeOnly), calls, want)
		}
	}
	if n := len(a.Traffic.Minutes); n < 23*60 {
		t.Errorf("%d minutes kept after a refresh", n)
	}

	_, tuned := collectTraffic(t, src, flysim.DemoTuned)
	if tuned.Lost24h != 0 || tuned.Edge24h == 0 || tuned.Boots.Lost != 0 || len(tuned.Scans) != 0 {
		t.Errorf("the tuned app: lost %.0f of %.0f, %+v, scans %d", tuned.Lost24h, tuned.Edge24h, tuned.Boots, len(tuned.Scans))
	}
}

// backlog-web: no hard limit and hundreds of CLOSE_WAIT sockets
// on both machines.
func TestDemoBacklogThroughFlyGo(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 1)
	a := collect(t, src, flysim.DemoBacklog)
	v := a.BacklogVerdict()
	t.Log(v.Line)
	if v.Level != diagnose.Fail || !strings.HasPrefix(v.Line, "no hard limit: the proxy keeps feeding machines that are drowning — ") ||
		!strings.HasSuffix(v.Line, "sockets in CLOSE_WAIT on 2 machines") {
		t.Errorf("verdict %v %q", v.Level, v.Line)
	}
	for _, m := range a.BacklogMachines() {
		if m.Conc.HardLimit() != "none" || m.Level() != diagnose.Fail {
			t.Errorf("%s: hard %s, level %v, %d CLOSE_WAIT", m.ID, m.Conc.HardLimit(), m.Level(), m.CloseWait())
		}
	}
}
