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
func runOrgFeeds(t *testing.T, src *Source, o *snapshot.Org, speed float64) {
	t.Helper()
	for round := 0; round < 20; round++ {
		busy := false
		for _, f := range OrgFeeds() {
			q, due := f.Due(o, OrgClock{Now: src.Now(), Speed: speed})
			if !due || (f.Name != "machines" && f.Name != "boots" && f.Name != "sockets" && round > 0) {
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
// its logs (whose lines are not kept), and the backlog app's CLOSE_WAIT
// pile-up read from a sample of its machines before it is ever opened.
func TestOrgFeedsOnTheDemo(t *testing.T) {
	t.Parallel()
	sim, src := startDemo(t, 4)
	o := snapshot.NewOrg(src.Org, nil)
	runOrgFeeds(t, src, o, sim.Clock().Speed())
	// A second look, 4 platform seconds on, for the crash verdicts (they
	// compare two looks).
	time.Sleep(sim.Clock().WallDuration(4 * time.Second))
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
		// A crash-looping machine's sockets go with each boot: unknown again
		// at the second look.
		backlogRead := r.BacklogKnown == (r.Running > 0) || r.App == flysim.DemoCrash
		if !r.Listed || !r.LossKnown || !r.BootsKnown || !backlogRead {
			t.Errorf("%s: listed %v loss %v boots %v backlog %v (%d running)", r.App, r.Listed, r.LossKnown, r.BootsKnown, r.BacklogKnown, r.Running)
		}
	}
	bl := byApp[flysim.DemoBacklog]
	if bl.Open || bl.Backlog != diagnose.Fail || bl.CloseWait < 100 {
		t.Errorf("background backlog-web: open %v backlog %s (%d CLOSE_WAIT), want a failing backlog", bl.Open, bl.Backlog, bl.CloseWait)
	}
	if bl.Level != diagnose.Fail {
		t.Errorf("background backlog-web's row is %s: the overview would sort it with the healthy apps", bl.Level)
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

// The sockets feed reads a sample of each background app's running,
// serving machines, one app per fetch, and leaves an app alone until it is
// due again.
func TestOrgSocketsFeedSamplesEachAppOnce(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 1)
	o := snapshot.NewOrg(src.Org, nil)
	ctx := context.Background()
	names, err := src.Client.ListApps(ctx, src.Org)
	if err != nil {
		t.Fatal(err)
	}
	var apps []string
	for _, a := range names {
		apps = append(apps, a.Name)
	}
	o.ApplyApps(apps, nil, src.Now())
	for _, app := range apps {
		l, err := src.Machines(ctx, app)
		o.ApplyListing(app, snapshot.Convert(l), err, src.Now())
	}
	f := orgSocketsFeed()
	clock := OrgClock{Now: src.Now(), Speed: 1}
	seen := map[string]int{}
	for range len(apps) + 2 {
		q, due := f.Due(o, clock)
		if !due {
			break
		}
		if len(q.Probes) == 0 || len(q.Probes) > OrgSocketSample {
			t.Fatalf("%s: %d probes, want 1..%d", q.Apps[0], len(q.Probes), OrgSocketSample)
		}
		for _, p := range q.Probes {
			if p.Kind != snapshot.ProbeSockets {
				t.Errorf("%s: a %s probe", q.Apps[0], p.Kind)
			}
		}
		seen[q.Apps[0]]++
		r := f.Fetch(ctx, src, q)
		r.Apply(o)
	}
	for app, n := range seen {
		if n != 1 {
			t.Errorf("%s read %d times in one round", app, n)
		}
	}
	if seen[flysim.DemoBacklog] != 1 {
		t.Errorf("backlog-web was not read: %v", seen)
	}
	if _, due := f.Due(o, clock); due {
		t.Error("something is due again before OrgSocketsEvery")
	}
	if q, due := f.Due(o, OrgClock{Now: src.Now().Add(OrgSocketsEvery), Speed: 1}); !due || q.Apps[0] == "" {
		t.Error("nothing is due after OrgSocketsEvery")
	}
}
