package recorder

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// This file is the recorder's one contact with the data layer: it runs
// watch's scheduler headless (watch.Source.Run) with the dashboard's own
// feeds, plus the counters feed below, and reads the models after each
// reply for the facts the panes derive (boots, the release's judgement).
// Everything the client reads meanwhile reaches the recording through the
// Tap.

// Config is one recorder run.
type Config struct {
	Source *watch.Source // its client carries the Tap
	// App is recorded as the dashboard records an open app (every feed and
	// probe); "" opens none.
	App string
	// Org records every app of the org as the overview watches them.
	Org    bool
	Writer *record.Writer
	Speed  float64 // platform seconds per wall second (the demo's --speed)
}

// Run records until ctx ends or the recording fails; it returns the
// recording's error when that is what stopped it.
func Run(ctx context.Context, c Config) error {
	if c.App == "" && !c.Org {
		return fmt.Errorf("nothing to record: name an app or the org")
	}
	feeds, orgFeeds := watch.Feeds(), watch.OrgFeeds()
	counts := &counter{w: c.Writer}
	if c.Org {
		orgFeeds = append(orgFeeds, counts.orgFeed())
	} else {
		counts.app = c.App
		feeds = append(feeds, counts.feed())
	}
	sch := watch.NewScheduler(feeds, orgFeeds)
	org := snapshot.NewOrg(c.Source.Org, c.Source.Markers)
	var app *snapshot.App
	if c.App != "" {
		sch.Open(c.App)
		app = snapshot.New(c.Source.Org, c.App, c.Source.Markers)
		org.SetOpen(app)
	}
	if c.Org {
		sch.StartOrg()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-c.Writer.Dead():
			cancel()
		case <-ctx.Done():
		}
	}()
	logsFeed := sch.FeedIndex("logs")
	bootsFeed := -1
	for i, f := range orgFeeds {
		if f.Name == "boots" {
			bootsFeed = i
		}
	}
	derive := func(r watch.Reply, out watch.Outcome) {
		if out.Dropped {
			return
		}
		now := c.Source.Now()
		switch {
		case r.Kind == watch.ListJob && out.Listed && app != nil:
			if rel := app.Rollout; rel.Release != "" {
				c.Writer.Judgement(now, app.Name, rel.Release, rel.Outcome.String(), rel.Reason)
			}
		case r.Kind == watch.FeedJob && r.Feed == logsFeed && out.App && app != nil:
			c.Writer.Boots(app.Name, app.Boots)
		case r.Kind == watch.OrgJob && r.Feed == bootsFeed && out.Org && len(r.OrgQuery.Apps) == 1:
			if oa := org.App(r.OrgQuery.Apps[0]); oa != nil {
				c.Writer.Boots(oa.Name, oa.Boots)
			}
		}
	}
	err := c.Source.Run(ctx, sch, app, org, watch.RunOptions{Speed: c.Speed, Changed: derive})
	if werr := c.Writer.Err(); werr != nil {
		return werr
	}
	return err
}

// The counters feed: the edge's and the app's responses per minute, by app
// and status, read once a minute (two range queries; the first run reads
// the day before the recording began, two hours a query). The dashboard
// reads them per minute only for the app it has open; a replay needs them
// for every app.
const (
	countsEvery   = time.Minute
	countsChunk   = 2 * time.Hour
	countsHistory = 24 * time.Hour
	// countsAgain re-reads the last minutes: a scrape may still add to them.
	countsAgain   = 5 * time.Minute
	countsTimeout = 30 * time.Second
)

type counter struct {
	w   *record.Writer
	app string // "" every app

	mu     sync.Mutex
	next   time.Time // the first minute not read yet
	behind bool      // the last read did not reach the present
}

func (c *counter) feed() watch.Feed {
	return watch.Feed{Name: "counters", Timeout: countsTimeout,
		Fetch: func(ctx context.Context, s *watch.Source, _ watch.Query) watch.Result {
			return watch.Result{Err: c.fetch(ctx, s)}
		},
		Next: func(*snapshot.App, watch.Result) time.Duration { return c.pace() },
	}
}

func (c *counter) orgFeed() watch.OrgFeed {
	return watch.OrgFeed{Name: "counters", Timeout: countsTimeout,
		Due: func(*snapshot.Org, watch.OrgClock) (watch.OrgQuery, bool) { return watch.OrgQuery{}, true },
		Fetch: func(ctx context.Context, s *watch.Source, _ watch.OrgQuery) watch.OrgResult {
			return watch.OrgResult{Err: c.fetch(ctx, s)}
		},
		Next: func(*snapshot.Org, watch.OrgClock, watch.OrgResult) time.Duration { return c.pace() },
	}
}

func (c *counter) pace() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.behind {
		return 0
	}
	return countsEvery
}

// fetch reads the minutes from the cursor (less countsAgain) up to the
// last whole minute, at most countsChunk of them.
func (c *counter) fetch(ctx context.Context, s *watch.Source) error {
	now := s.Now().Truncate(time.Minute)
	c.mu.Lock()
	from := c.next
	c.mu.Unlock()
	if from.IsZero() {
		from = now.Add(-countsHistory)
	} else {
		from = from.Add(-countsAgain)
	}
	end := from.Add(countsChunk)
	if end.After(now) {
		end = now
	}
	if !end.After(from) {
		return nil
	}
	sel := ""
	if c.app != "" {
		sel = fmt.Sprintf("{app=%q}", c.app)
	}
	var out []record.Count
	for _, metric := range []string{record.EdgeResponses, record.AppResponses} {
		q := fmt.Sprintf(`sum by (app, status) (increase(%s%s[1m]))`, metric, sel)
		// A point at t counts the minute before it.
		series, err := s.Client.PromQueryRange(ctx, s.Org, q, from.Add(time.Minute), end, time.Minute)
		if err != nil {
			return err
		}
		for _, ser := range series {
			app := ser.Labels["app"]
			if app == "" {
				app = c.app
			}
			for _, p := range ser.Points {
				if p.Value != p.Value || p.Value <= 0 { // NaN or nothing counted
					continue
				}
				out = append(out, record.Count{App: app, Metric: metric, Status: ser.Labels["status"],
					Minute: p.Time.Add(-time.Minute).UTC(), N: p.Value})
			}
		}
	}
	c.w.Counts(out)
	c.mu.Lock()
	c.next, c.behind = end, end.Before(now)
	c.mu.Unlock()
	return nil
}
