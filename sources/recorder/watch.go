package recorder

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/fly"
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
	// Apps are recorded as the dashboard watches the app it has open (every
	// feed and probe), each with its own scheduler: as many dashboards.
	Apps []string
	// Org records every app of the org as the overview watches them.
	Org    bool
	Writer *record.Writer
	Speed  float64 // platform seconds per wall second (the demo's --speed)
	// Pace runs the schedulers' wall clock faster (watch.RunOptions.Pace):
	// for a test against a platform without rate limits.
	Pace float64
}

// watcher is one scheduler and the models it fills: an open app, or the
// org overview.
type watcher struct {
	sch    *watch.Scheduler
	app    *snapshot.App
	org    *snapshot.Org
	derive func(watch.Reply, watch.Outcome)
}

func (c Config) watchers() ([]*watcher, error) {
	if len(c.Apps) == 0 && !c.Org {
		return nil, fmt.Errorf("nothing to record: name an app or the org")
	}
	var out []*watcher
	for _, name := range c.Apps {
		// The volumes tile's feed too; the traffic tile's reads the
		// counters, which the counters feed keeps.
		feeds := append(watch.Feeds(), watch.VolumesFeed())
		if !c.Org { // the org's counters feed reads every app's
			feeds = append(feeds, (&counter{w: c.Writer, app: name}).feed())
		}
		sch := watch.NewScheduler(feeds, nil)
		sch.Open(name)
		org := snapshot.NewOrg(c.Source.Org, c.Source.Markers)
		app := snapshot.New(c.Source.Org, name, c.Source.Markers)
		org.SetOpen(app)
		out = append(out, c.derived(&watcher{sch: sch, app: app, org: org}))
	}
	if c.Org {
		counts := &counter{w: c.Writer}
		orgFeeds := append(watch.OrgFeeds(), counts.orgFeed())
		sch := watch.NewScheduler(nil, orgFeeds)
		sch.Open("")
		sch.StartOrg()
		org := snapshot.NewOrg(c.Source.Org, c.Source.Markers)
		out = append(out, c.derived(&watcher{sch: sch, org: org}))
	}
	return out, nil
}

// derived records, after each reply, the facts the panes derive: the
// open app's boots and its release's judgement, the org's boots.
func (c Config) derived(w *watcher) *watcher {
	logsFeed := w.sch.FeedIndex("logs")
	bootsFeed := -1
	for i, f := range watch.OrgFeeds() {
		if f.Name == "boots" {
			bootsFeed = i
		}
	}
	w.derive = func(r watch.Reply, out watch.Outcome) {
		if out.Dropped {
			return
		}
		app, now := w.app, c.Source.Now()
		switch {
		case r.Kind == watch.ListJob && out.Listed && app != nil:
			if rel := app.Rollout; rel.Release != "" {
				c.Writer.Judgement(now, app.Name, rel.Release, rel.Outcome.String(), rel.Reason)
			}
		case r.Kind == watch.FeedJob && r.Feed == logsFeed && out.App && app != nil:
			c.Writer.Boots(app.Name, app.Boots)
		case r.Kind == watch.OrgJob && r.Feed == bootsFeed && out.Org && len(r.OrgQuery.Apps) == 1:
			if oa := w.org.App(r.OrgQuery.Apps[0]); oa != nil {
				c.Writer.Boots(oa.Name, oa.Boots)
			}
		}
	}
	return w
}

// Run records until ctx ends or the recording fails; it returns the
// recording's error when that is what stopped it.
func Run(ctx context.Context, c Config) error {
	ws, err := c.watchers()
	if err != nil {
		return err
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
	errs := make(chan error, len(ws))
	for _, w := range ws {
		go func() {
			errs <- c.Source.Run(ctx, w.sch, w.app, w.org, watch.RunOptions{Speed: c.Speed, Pace: c.Pace, Changed: w.derive})
		}()
	}
	for range ws {
		if e := <-errs; err == nil {
			err = e
		}
		cancel() // one stopped: all stop
	}
	if werr := c.Writer.Err(); werr != nil {
		return werr
	}
	return err
}

// Lockstep records a platform whose clock moves only when told (the
// embedded platform, frozen, lived a step at a time): from the platform's
// now to end, each scheduler's calls are made at the platform times a
// recorder at --speed 1 would make them, the clock advanced (advance) to
// the next one due between. Waits answer at once (a frozen machine never
// settles), as an expired poll. At each instant of samples (ascending) the
// open apps are refreshed and sample is called with their models: what a
// dashboard showed then, for a test to compare with the replay.
func Lockstep(ctx context.Context, c Config, advance func(time.Time) error, end time.Time,
	samples []time.Time, sample func(at time.Time, apps []*snapshot.App)) error {
	ws, err := c.watchers()
	if err != nil {
		return err
	}
	for _, w := range ws {
		w.sch.WatchAtRest(false) // its waits answer at once: they cannot watch
	}
	for {
		if err := settle(ctx, c, ws); err != nil {
			return err
		}
		now := c.Source.Now()
		clk := watch.Clock{Wall: now, Now: now, Speed: 1}
		next := end
		for _, w := range ws {
			if t, ok := w.sch.NextWake(clk); ok && t.Before(next) {
				next = t
			}
		}
		if len(samples) > 0 && !samples[0].After(next) {
			at := samples[0]
			samples = samples[1:]
			if err := advance(at); err != nil {
				return err
			}
			var apps []*snapshot.App
			for _, w := range ws {
				if w.app != nil {
					w.sch.Refresh()
					apps = append(apps, w.app)
				}
			}
			if err := settle(ctx, c, ws); err != nil {
				return err
			}
			sample(at, apps)
			continue
		}
		if !now.Before(end) {
			return c.Writer.Err()
		}
		if err := advance(next); err != nil {
			return err
		}
	}
}

// settleRounds bounds the rounds of calls at one platform instant: each
// reply may make more due at once (a listing's waits and probes, a
// counter catching up), but a chain that long never ends.
const settleRounds = 50

// settle makes every call due at the platform's instant, and those their
// replies make due, until none is. Every reply goes back through Done,
// the last round's too: a job whose reply is dropped stays in flight, and
// the scheduler never sends its feed again (that app's dashboard would go
// stale for the rest of the day). An instant that does not settle is an
// error naming what keeps coming due, not a recording that quietly
// differs from what a dashboard showed.
func settle(ctx context.Context, c Config, ws []*watcher) error {
	for round := 0; ; round++ {
		now := c.Source.Now()
		clk := watch.Clock{Wall: now, Now: now, Speed: 1}
		type done struct {
			w *watcher
			r watch.Reply
		}
		var replies []done
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, w := range ws {
			for _, j := range w.sch.Due(clk, w.app, w.org) {
				if j.Kind == watch.WaitJob { // its poll expired: the state was not reached
					mu.Lock() // the calls started above append too
					replies = append(replies, done{w, watch.Reply{Job: j, Err: fly.ErrWaitTimeout{ID: j.Machine}}})
					mu.Unlock()
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := c.Source.Do(ctx, j)
					mu.Lock()
					replies = append(replies, done{w, r})
					mu.Unlock()
				}()
			}
		}
		wg.Wait()
		var spinning []string
		for _, d := range replies {
			d.w.derive(d.r, d.w.sch.Done(d.r, clk, d.w.app, d.w.org))
			spinning = append(spinning, jobName(d.w, d.r.Job))
		}
		select {
		case <-c.Writer.Dead():
			return c.Writer.Err()
		default:
		}
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case len(replies) == 0:
			return nil
		case round >= settleRounds:
			slices.Sort(spinning)
			return fmt.Errorf("the platform at %s did not settle: after %d rounds of calls these still came due at once: %s",
				now.Format(time.RFC3339), settleRounds, strings.Join(slices.Compact(spinning), ", "))
		}
	}
}

// jobName names a job for an error: its kind, app and feed.
func jobName(w *watcher, j watch.Job) string {
	name := j.Kind.String()
	if j.App != "" {
		name += " " + j.App
	}
	if j.Kind == watch.FeedJob {
		name += " " + w.sch.FeedName(j.Feed)
	}
	return name
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
