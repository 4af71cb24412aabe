package watch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/snapshot"
)

// startDemo runs the demo platform and a client on it, as `--demo` does,
// but without Fly's limits, which are not what these tests are about.
func startDemo(t *testing.T, speed float64) (*flysim.Sim, *Source) {
	t.Helper()
	p := simtest.StartUnlimited(t, flysim.Options{Seed: 1, Speed: speed})
	return p.Sim, &Source{Client: p.Client, Org: p.Sim.Org(), Now: p.Sim.Clock().Now}
}

func collect(t *testing.T, src *Source, app string) *snapshot.App {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := src.Collect(ctx, app, Feeds()...)
	if err != nil {
		t.Fatalf("collect %s: %v", app, err)
	}
	return a
}

// The demo's scale-to-zero app must show the day the README tells: boots of
// 25–33 s dominated by migrations, swap configured and unused, 0 .pyc.
func TestDemoScaleToZeroThroughFlyGo(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 1)
	a := collect(t, src, flysim.DemoScaleToZero)
	cs := a.ColdStarts(src.Now())
	t.Logf("cold boots %d served, p50 %s p95 %s max %s; %s", cs.Served, cs.P50, cs.P95, cs.Max, cs.DominantSentence())
	if cs.Served < 60 {
		t.Errorf("only %d served cold boots in a day of logs; the README's day saw 92", cs.Served)
	}
	for _, b := range a.Boots {
		if b.Complete && !b.Resume {
			if d := b.Serving.Sub(b.Begin); d < 24*time.Second || d > 34*time.Second {
				t.Errorf("boot of %s took %s, want 25–33 s", b.Machine, d)
			}
		}
	}
	if cs.Dominant.Name != diagnose.PhaseMigrations || !cs.Dominant.ReleaseWork {
		t.Errorf("dominant phase %q (release work %v), want migrations", cs.Dominant.Name, cs.Dominant.ReleaseWork)
	}
	if v := a.Swap(); v.Level != diagnose.Warn || !strings.Contains(v.Line, "2048 MB swap on 10/10 machines, 0 kB in use") {
		t.Errorf("swap verdict %v %q", v.Level, v.Line)
	}
	if v := a.BytecodeVerdict(); v.Level != diagnose.Fail || !strings.Contains(v.Line, "0 of 5,707") {
		t.Errorf("bytecode verdict %v %q", v.Level, v.Line)
	}
	if a.Metrics == nil || a.Metrics.Err != "" {
		t.Fatalf("no metrics: %+v", a.Metrics)
	}
	died, total := snapshot.Died(a.Metrics.Edge24h, a.Metrics.App24h)
	if total == 0 || died/total < 0.05 {
		t.Errorf("edge vs origin: %.0f of %.0f died; want the README's gap", died, total)
	}
}

// The tuned app resumes in well under a second.
func TestDemoTunedResumesFast(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 1)
	a := collect(t, src, flysim.DemoTuned)
	cs := a.ColdStarts(src.Now())
	t.Logf("resumes %d, p50 %s max %s", cs.Resumes.Served, cs.Resumes.P50, cs.Resumes.Max)
	if cs.Resumes.Served == 0 {
		t.Fatal("no resumes in a day of the tuned app's logs")
	}
	if cs.Resumes.Max >= time.Second {
		t.Errorf("slowest resume %s, want sub-second", cs.Resumes.Max)
	}
}

// The crash app's release is judged crash-looping (or given up) within the
// looks Collect takes, by the newest crash's time. The looks wait on the
// platform's clock, here at 10× (as `--speed 10` would run it).
func TestDemoCrashLoopVerdict(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 10)
	a := collect(t, src, flysim.DemoCrash)
	banner := a.CrashBanner()
	t.Logf("banner: %s", banner)
	if banner == "" {
		t.Fatalf("no crash-loop banner for %s", flysim.DemoCrash)
	}
	for _, m := range a.Machines {
		if len(m.Events) > 5 {
			t.Errorf("machine %s shows %d events; the platform keeps 5", m.ID, len(m.Events))
		}
	}
}

// status and check fetch what they print: the logs and the four instant
// edge/origin queries, not the Traffic pane's per-minute day (its range
// queries are the dashboard's only).
func TestCollectFetchesWhatStatusPrints(t *testing.T) {
	t.Parallel()
	sim, src := startDemo(t, 1)
	sim.ResetAPICalls()
	a := collect(t, src, flysim.DemoTuned)
	calls := sim.APICalls()
	if n := calls["prom:"+sim.Org()]; n != 4 {
		t.Errorf("%d Prometheus calls (%v), want the 4 edge/origin queries", n, calls)
	}
	if !a.LogsRead || a.Metrics == nil || a.Metrics.Err != "" {
		t.Errorf("what status prints is missing: logs read %v, metrics %+v", a.LogsRead, a.Metrics)
	}
	if !a.Traffic.At.IsZero() || len(a.Traffic.Minutes) > 0 {
		t.Errorf("the Traffic pane's day was fetched: %d minutes", len(a.Traffic.Minutes))
	}
}
