package watch

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/sources/snapshot"
)

// The scheduler runs headless against the demo the way the dashboard runs
// it: the listing, the feeds and the probes arrive, a look at one machine
// asked for from a reply goes out within the same second, and cancelling
// ends the run with nothing left in flight.
func TestRunHeadless(t *testing.T) {
	t.Parallel()
	_, src := startDemo(t, 10)
	sch := NewScheduler(Feeds(), nil)
	sch.Open(flysim.DemoScaleToZero)
	app := snapshot.New(src.Org, flysim.DemoScaleToZero, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := map[Kind]int{}
	var asked time.Time
	var lookTook time.Duration
	done := make(chan error, 1)
	go func() {
		done <- src.Run(ctx, sch, app, nil, RunOptions{Speed: 10, Changed: func(r Reply, out Outcome) {
			if r.Err == nil && !out.Dropped {
				seen[r.Kind]++
			}
			switch {
			case r.Kind == ListJob && asked.IsZero() && len(app.Machines) > 0:
				asked = time.Now()
				sch.Look(app.Machines[0].ID)
			case r.Kind == LookJob && lookTook == 0:
				lookTook = time.Since(asked)
			}
			if seen[ListJob] > 0 && seen[FeedJob] >= len(Feeds()) && seen[ProbeJob] > 0 && seen[LookJob] > 0 {
				cancel()
			}
		}})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("run ended with %v before it saw everything: %v", err, seen)
		}
	case <-time.After(3 * time.Minute):
		t.Fatal("the run did not end after its context was cancelled")
	}
	if !app.LogsRead || len(app.Machines) == 0 || app.Metrics == nil {
		t.Errorf("the model after the run: %d machines, logs read %v, metrics %v", len(app.Machines), app.LogsRead, app.Metrics != nil)
	}
	// Within a second: not left for the next listing. The race detector
	// on loaded cores slows one call past that (1.6 s seen), not to a
	// listing interval.
	within := time.Second
	if race.Enabled {
		within = 5 * time.Second
	}
	if lookTook <= 0 || lookTook > within {
		t.Errorf("the look asked for after the first listing answered after %v, want within %v", lookTook, within)
	}
}

// Paced (RunOptions.Pace), the scheduler's wall clock runs faster: an org
// feed due once a minute runs three times in a fraction of a second at
// 600 wall seconds a second, and not at all again within that time
// unpaced.
func TestRunPaceRunsTheWallClockFaster(t *testing.T) {
	t.Parallel()
	runs := func(pace float64, within time.Duration) int {
		var n atomic.Int32
		ctx, cancel := context.WithTimeout(context.Background(), within)
		defer cancel()
		feed := OrgFeed{Name: "tick", Timeout: time.Second,
			Due: func(*snapshot.Org, OrgClock) (OrgQuery, bool) { return OrgQuery{}, true },
			Fetch: func(context.Context, *Source, OrgQuery) OrgResult {
				if n.Add(1) == 3 {
					cancel()
				}
				return OrgResult{}
			},
			Next: func(*snapshot.Org, OrgClock, OrgResult) time.Duration { return time.Minute },
		}
		sch := NewScheduler(nil, []OrgFeed{feed})
		sch.Open("")
		sch.StartOrg()
		// The feed makes no call: the client is only there to be ready.
		c, err := fly.New(context.Background(), fly.Config{FlapsURL: "http://127.0.0.1:1", APIURL: "http://127.0.0.1:1"})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		src := &Source{Client: c, Org: "o", Now: time.Now}
		if err := src.Run(ctx, sch, nil, snapshot.NewOrg("o", nil), RunOptions{Pace: pace}); err == nil {
			t.Fatal("the run ended without its context")
		}
		return int(n.Load())
	}
	if got := runs(600, 5*time.Second); got != 3 {
		t.Errorf("at pace 600 a feed due each minute ran %d times in 5 s, want 3", got)
	}
	if got := runs(0, 300*time.Millisecond); got != 1 {
		t.Errorf("unpaced, a feed due each minute ran %d times in 300ms, want 1", got)
	}
}
