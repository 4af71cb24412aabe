package recorder

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// An instant of a lockstep recording whose calls never stop coming due
// (a feed that always wants to read again at once) is an error naming the
// feed, and every reply, the last round's too, went back to the
// scheduler: a reply left out keeps its job in flight, and the scheduler
// never sends that feed again — an open app gone stale with no error.
func TestAnInstantThatNeverSettlesIsAnErrorAndDropsNoReply(t *testing.T) {
	t.Parallel()
	p := simtest.Start(t, flysim.Options{Seed: 1, Frozen: true})
	p.Sim.SetRateLimits(false) // as RecordDemo does
	src := &watch.Source{Client: p.Client, Org: p.Sim.Org(), Now: p.Sim.Clock().Now}
	w, err := record.Create(filepath.Join(t.TempDir(), "rec.db"), record.Options{Org: src.Org, Scope: "test", Now: src.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	app := flysim.DemoScaleToZero
	spin := watch.Feed{Name: "again", Timeout: 10 * time.Second,
		Fetch: func(ctx context.Context, s *watch.Source, q watch.Query) watch.Result {
			_, next, err := s.Logs(ctx, q.App, q.Cursor)
			return watch.Result{Cursor: next, Err: err}
		},
		Next: func(*snapshot.App, watch.Result) time.Duration { return 0 },
	}
	sch := watch.NewScheduler(append(watch.Feeds(), spin), nil)
	sch.Open(app)
	ws := []*watcher{{sch: sch, app: snapshot.New(src.Org, app, nil), derive: func(watch.Reply, watch.Outcome) {}}}

	err = settle(context.Background(), Config{Source: src, Writer: w}, ws)
	if err == nil || !strings.Contains(err.Error(), "feed "+app+" again") {
		t.Fatalf("settle = %v, want an error naming the feed that keeps coming due", err)
	}
	now := src.Now()
	again := false
	for _, j := range sch.Due(watch.Clock{Wall: now, Now: now, Speed: 1}, ws[0].app, nil) {
		again = again || (j.Kind == watch.FeedJob && sch.FeedName(j.Feed) == "again")
	}
	if !again {
		t.Error("the feed's last reply never reached the scheduler: it stays in flight and is never sent again")
	}
}
