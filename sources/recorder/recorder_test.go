package recorder

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// record runs the recorder on src into path until done says it has what
// the test needs (or recordPatience passes).
// recordUntil records at pace (Config.Pace) until done.
func recordUntil(t *testing.T, src *watch.Source, path string, apps []string, org bool, pace float64, done func(record.Stats) bool) record.Stats {
	t.Helper()
	w, err := record.Create(path, record.Options{Org: src.Org, Scope: "test", Now: src.Now})
	if err != nil {
		t.Fatal(err)
	}
	src.Client.SetTap(&Tap{W: w, Now: src.Now})
	defer src.Client.SetTap(nil)
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, Config{Source: src, Apps: apps, Org: org, Writer: w, Pace: pace}) }()
	deadline := time.Now().Add(recordPatience)
	for !done(w.Stats()) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(1200 * time.Millisecond) // the facts in flight reach a commit
	cancel()
	<-ended
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st := w.Stats()
	if !done(st) {
		t.Fatalf("the recorder did not get there in %s: %+v", recordPatience, st)
	}
	return st
}

// recordPatience bounds a recording a test waits on: only a recording
// that never gets there waits it out. A run that passes ends as soon as
// it has what it needs (seconds, paced as the test paces it).
const recordPatience = time.Minute

// replaySource opens path as a platform at its clock and a client to it.
func replaySource(t *testing.T, path string, at time.Time) (*replay.Platform, *watch.Source) {
	t.Helper()
	rec, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	_, end := rec.Span()
	clock := replay.NewClock(at, end, false)
	p := replay.New(rec, clock, replay.Options{})
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: p.URL(), APIURL: p.URL(), Token: p.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return p, &watch.Source{Client: c, Org: p.Org(), Now: clock.Now}
}

// figures are what the panes show of an app, as text to compare.
func figures(a *snapshot.App, now time.Time) []string {
	var out []string
	for _, m := range a.Machines {
		out = append(out, fmt.Sprintf("machine %s %s %s events=%d", m.ID, m.State, m.Release, len(m.Events)))
	}
	sort.Strings(out)
	cs := a.ColdStarts(now)
	out = append(out, fmt.Sprintf("cold boots %d p50 %s p95 %s max %s crash restarts %d", cs.Served, cs.P50, cs.P95, cs.Max, cs.CrashRestarts),
		"swap: "+a.Swap().Line, "bytecode: "+a.BytecodeVerdict().Line)
	if a.Metrics != nil {
		d, tot := snapshot.Died(a.Metrics.Edge24h, a.Metrics.App24h)
		d1, tot1 := snapshot.Died(a.Metrics.Edge1h, a.Metrics.App1h)
		out = append(out, fmt.Sprintf("edge vs app: 24h %.0f of %.0f, 1h %.0f of %.0f", d, tot, d1, tot1))
	}
	out = append(out, fmt.Sprintf("traffic minutes %d", len(a.Traffic.Minutes)))
	vols := a.Volumes()
	out = append(out, fmt.Sprintf("volumes %d error %q", len(vols.List), vols.Err))
	for _, v := range vols.List {
		out = append(out, fmt.Sprintf("volume %s %s %s %d GB on %q", v.ID, v.Name, v.State, v.SizeGB, v.Machine))
	}
	return out
}

// A recording of an instant, replayed at that instant, gives the same
// figures the live platform gives: machines, boots, swap, bytecode, the
// edge against the app, the traffic's minutes.
func TestReplayAtAnInstantShowsWhatTheLivePlatformShowed(t *testing.T) {
	t.Parallel()
	// The probes' budget counts wall minutes: on a platform without rate
	// limits (and a client that does not pace under them) the recorder
	// paces a minute in three seconds.
	p := simtest.StartUnlimited(t, flysim.Options{Seed: 1, Frozen: true})
	src := &watch.Source{Client: p.Client, Org: p.Sim.Org(), Now: p.Sim.Clock().Now}
	app := flysim.DemoScaleToZero
	path := filepath.Join(t.TempDir(), "rec.db")
	now := p.Sim.Clock().Now()
	live := collectApp(t, src, app)
	// Until the recorder has read the day's logs to their end (a page at a
	// time, as the dashboard does), its probes and a day of counters.
	recordUntil(t, src, path, []string{app}, false, 20, func(s record.Stats) bool {
		return s.States >= 10 && s.Logs >= len(live.Logs()) && s.Probes >= 3 && s.Counts > 100
	})
	_, rsrc := replaySource(t, path, now)
	replayed := collectApp(t, rsrc, app)
	want, got := figures(live, now), figures(replayed, now)
	t.Logf("live:\n  %s", strings.Join(want, "\n  "))
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("the replay differs from the live platform:\nlive:\n  %s\nreplay:\n  %s", strings.Join(want, "\n  "), strings.Join(got, "\n  "))
	}
}

func collectApp(t *testing.T, src *watch.Source, app string) *snapshot.App {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := src.Collect(ctx, app, append(watch.Feeds(), watch.VolumesFeed())...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
