package watch

import (
	"context"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/snapshot"
)

// runOrgFeeds runs every org feed until none has anything due, as the
// dashboard would, and returns the model.
func runOrgFeeds(t *testing.T, src *Source, o *snapshot.Org) {
	t.Helper()
	for round := 0; round < 20; round++ {
		busy := false
		for _, f := range OrgFeeds() {
			q, due := f.Due(o, OrgClock{Now: src.Now(), Speed: 1})
			if !due || (f.Name != "machines" && f.Name != "boots" && round > 0) {
				continue
			}
			busy = true
			ctx, cancel := context.WithTimeout(context.Background(), f.Timeout)
			r := f.Fetch(ctx, src, q)
			cancel()
			if r.Err != nil {
				t.Fatalf("%s: %v", f.Name, r.Err)
			}
			if r.Apply != nil {
				r.Apply(o)
			}
		}
		if !busy {
			return
		}
	}
	t.Fatal("the org feeds never ran out of due work")
}

// The demo org through fly-go: one row per app, the crash-looping app
// first, the scale-to-zero app's boots and loss from one org-wide query and
// its logs (whose lines are not kept), backlog unknown outside the open app.
func TestOrgFeedsOnTheDemo(t *testing.T) {
	sim, src := startDemo(t, 1)
	o := snapshot.NewOrg(src.Org, nil)
	runOrgFeeds(t, src, o)
	// A second look, for the crash verdicts (they compare two looks).
	time.Sleep(4 * time.Second)
	ctx := context.Background()
	for _, app := range o.Apps() {
		l, err := src.Machines(ctx, app)
		o.ApplyListing(app, snapshot.Convert(l), err, src.Now())
	}
	rows := o.Rows(src.Now(), 30*time.Second)
	if len(rows) != len(sim.Apps()) {
		t.Fatalf("%d rows for %d apps", len(rows), len(sim.Apps()))
	}
	byApp := map[string]snapshot.OrgRow{}
	for _, r := range rows {
		byApp[r.App] = r
		if !r.Listed || !r.LossKnown || !r.BootsKnown || r.BacklogKnown {
			t.Errorf("%s: listed %v loss %v boots %v backlog %v", r.App, r.Listed, r.LossKnown, r.BootsKnown, r.BacklogKnown)
		}
	}
	if rows[0].App != flysim.DemoCrash || rows[0].Crash != diagnose.Fail {
		t.Errorf("first row %s (crash %s), want %s failing", rows[0].App, rows[0].Crash, flysim.DemoCrash)
	}
	sleepy := byApp[flysim.DemoScaleToZero]
	if sleepy.Machines != 10 || sleepy.Boots24h < 60 || sleepy.P95 < 20*time.Second || sleepy.ColdLevel != diagnose.Fail {
		t.Errorf("sleepy-api: %d machines, %d boots, p95 %s (%s)", sleepy.Machines, sleepy.Boots24h, sleepy.P95, sleepy.ColdLevel)
	}
	if sleepy.Lost24h <= 0 || sleepy.Edge24h <= 0 {
		t.Errorf("sleepy-api lost %v of %v", sleepy.Lost24h, sleepy.Edge24h)
	}
	// The same app opened in the dashboard: its row comes from the full model.
	a := collect(t, src, flysim.DemoBacklog)
	o.SetOpen(a)
	if q, _ := orgMachinesFeed().Due(o, OrgClock{Now: src.Now().Add(time.Hour), Speed: 1}); containsApp(q.Apps, flysim.DemoBacklog) {
		t.Errorf("the open app is listed by the org feed too: %v", q.Apps)
	}
	for _, r := range o.Rows(src.Now(), 30*time.Second) {
		if r.App == flysim.DemoBacklog && (!r.Open || !r.BacklogKnown || r.Backlog != diagnose.Fail) {
			t.Errorf("open backlog-web row: open %v backlog %v %s (%d CLOSE_WAIT)", r.Open, r.BacklogKnown, r.Backlog, r.CloseWait)
		}
	}
}

func containsApp(apps []string, app string) bool {
	for _, a := range apps {
		if a == app {
			return true
		}
	}
	return false
}
