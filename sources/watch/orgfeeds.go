package watch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/snapshot"
)

// The org overview's data. One app is open in the dashboard and keeps its
// own feeds at their adaptive intervals; every other app of the org is
// watched by these, at a pace that holds for a hundred apps within Fly's
// limits:
//
//   - apps: the org's apps listing, once a minute;
//   - machines: each background app's machines listing once per
//     OrgListEvery (30 s): 100 apps cost 200 Machines API calls a minute,
//     and Fly's per-app limit (1 list/s) is never approached;
//   - metrics: the edge's and the apps' responses for the whole org in four
//     PromQL queries a minute (`sum by (app, status)`), not four per app;
//   - boots: one app's logs at a time, round robin, each app again after
//     OrgBootsEvery; the lines feed a boot tracker and are dropped, so a
//     hundred apps' logs are never held (only the open app's are).
//
//   - sockets: one app at a time, round robin, the socket table of its
//     first OrgSocketSample running machines that serve, each app again
//     after OrgSocketsEvery: 100 apps cost 40 exec calls a minute,
//     and the overview's BACKLOG cell is read for every app, not only the
//     open one (backlog-web's CLOSE_WAIT pile-up shows before it is opened).
//
// The other exec probes (meminfo, bytecode) run only in the open app.

// Org pacing (wall time; the platform's own clock may run faster in the
// demo, and Fly's limits count wall time).
const (
	OrgAppsEvery    = time.Minute
	OrgListEvery    = 30 * time.Second
	OrgMetricsEvery = time.Minute
	OrgBootsEvery   = 2 * time.Minute
	// OrgBootsPace is the pause between two apps' logs reads.
	OrgBootsPace    = time.Second
	OrgSocketsEvery = 5 * time.Minute
	// OrgSocketsPace is the pause between two apps' socket reads: a
	// hundred apps' first round takes as long as OrgSocketsEvery, so the
	// exec rate is the same in the first round as after it.
	OrgSocketsPace = 3 * time.Second
	// OrgSocketSample is how many running machines per background app have
	// their sockets read (a backlog from a missing hard limit shows on
	// every machine the proxy feeds, so a sample finds it).
	OrgSocketSample = 2
	// OrgPoll is how soon a feed with nothing due looks again.
	OrgPoll = time.Second
	// orgListBatch listings are fetched per run, orgListWorkers at once.
	orgListBatch   = 10
	orgListWorkers = 4
	orgRetry       = 10 * time.Second
)

// OrgFeed is one of the overview's data sources. The dashboard runs them
// like the app feeds (one fetch in flight, its reply applied in Update), but
// against the org model, and not tied to the open app's generation.
type OrgFeed struct {
	Name    string
	Timeout time.Duration
	// Due is what to fetch now, read from the model; false: nothing is due,
	// look again after Next.
	Due func(o *snapshot.Org, c OrgClock) (OrgQuery, bool)
	// Fetch does the I/O; it must not touch the live model.
	Fetch func(ctx context.Context, s *Source, q OrgQuery) OrgResult
	// Next is the wait (wall time) before Due is asked again.
	Next func(o *snapshot.Org, c OrgClock, r OrgResult) time.Duration
}

// OrgClock is the platform's time and its speed (platform seconds per wall
// second), to turn the wall-time paces into the model's platform times.
type OrgClock struct {
	Now   time.Time
	Speed float64
}

// every is d of wall time in platform time.
func (c OrgClock) every(d time.Duration) time.Duration {
	if c.Speed > 0 {
		return time.Duration(float64(d) * c.Speed)
	}
	return d
}

// OrgQuery is what one org fetch works from.
type OrgQuery struct {
	Apps   []string
	Cursor string
	Probes []snapshot.ProbeRequest
}

// OrgResult is one org fetch's outcome.
type OrgResult struct {
	Apply func(*snapshot.Org) // nil: nothing to apply
	Err   error
}

// OrgFeeds is the overview's registry, in the order the first frame needs them.
func OrgFeeds() []OrgFeed {
	return []OrgFeed{orgAppsFeed(), orgMachinesFeed(), orgMetricsFeed(), orgBootsFeed(), orgSocketsFeed()}
}

func always(*snapshot.Org, OrgClock) (OrgQuery, bool) { return OrgQuery{}, true }

func orgAppsFeed() OrgFeed {
	return OrgFeed{
		Name: "apps", Timeout: 20 * time.Second, Due: always,
		Fetch: func(ctx context.Context, s *Source, _ OrgQuery) OrgResult {
			apps, err := s.Client.ListApps(ctx, s.Org)
			names := make([]string, 0, len(apps))
			for _, a := range apps {
				names = append(names, a.Name)
			}
			now := s.Now()
			return OrgResult{Err: err, Apply: func(o *snapshot.Org) { o.ApplyApps(names, err, now) }}
		},
		Next: func(_ *snapshot.Org, _ OrgClock, r OrgResult) time.Duration {
			if r.Err != nil {
				return orgRetry
			}
			return OrgAppsEvery
		},
	}
}

func orgMachinesFeed() OrgFeed {
	due := func(o *snapshot.Org, c OrgClock) []string {
		return o.DueListings(c.Now, c.every(OrgListEvery), orgListBatch)
	}
	return OrgFeed{
		Name: "machines", Timeout: 45 * time.Second,
		Due: func(o *snapshot.Org, c OrgClock) (OrgQuery, bool) {
			apps := due(o, c)
			return OrgQuery{Apps: apps}, len(apps) > 0
		},
		Fetch: func(ctx context.Context, s *Source, q OrgQuery) OrgResult {
			type reply struct {
				c   snapshot.Converted // converted here, not in Update
				err error
				at  time.Time
			}
			out := make([]reply, len(q.Apps))
			var wg sync.WaitGroup
			work := make(chan int)
			for range min(orgListWorkers, len(q.Apps)) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range work {
						lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
						l, err := s.Machines(lctx, q.Apps[i])
						out[i].c, out[i].err, out[i].at = snapshot.Convert(l), err, s.Now()
						cancel()
					}
				}()
			}
			for i := range q.Apps {
				work <- i
			}
			close(work)
			wg.Wait()
			var errs []error
			for i, r := range out {
				if r.err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", q.Apps[i], r.err))
				}
			}
			return OrgResult{Err: errors.Join(errs...), Apply: func(o *snapshot.Org) {
				for i, r := range out {
					o.ApplyListing(q.Apps[i], r.c, r.err, r.at)
				}
			}}
		},
		Next: func(o *snapshot.Org, c OrgClock, _ OrgResult) time.Duration {
			if len(due(o, c)) > 0 {
				return 0 // the first round: the rest of the apps at once
			}
			return OrgPoll
		},
	}
}

func orgMetricsFeed() OrgFeed {
	return OrgFeed{
		Name: "metrics", Timeout: 30 * time.Second, Due: always,
		Fetch: func(ctx context.Context, s *Source, _ OrgQuery) OrgResult {
			m := s.OrgMetrics(ctx)
			r := OrgResult{Apply: func(o *snapshot.Org) { o.ApplyMetrics(m) }}
			if m.Err != "" {
				r.Err = errors.New(m.Err)
			}
			return r
		},
		Next: func(*snapshot.Org, OrgClock, OrgResult) time.Duration { return OrgMetricsEvery },
	}
}

func orgBootsFeed() OrgFeed {
	return OrgFeed{
		Name: "boots", Timeout: logsTimeout,
		Due: func(o *snapshot.Org, c OrgClock) (OrgQuery, bool) {
			app, cursor := o.DueBoots(c.Now, c.every(OrgBootsEvery))
			return OrgQuery{Apps: []string{app}, Cursor: cursor}, app != ""
		},
		Fetch: func(ctx context.Context, s *Source, q OrgQuery) OrgResult {
			app := q.Apps[0]
			lines, next, err := s.Logs(ctx, app, q.Cursor)
			now := s.Now()
			return OrgResult{Err: err, Apply: func(o *snapshot.Org) { o.ApplyBootLogs(app, lines, next, err, now) }}
		},
		Next: func(*snapshot.Org, OrgClock, OrgResult) time.Duration { return OrgBootsPace },
	}
}

// OrgMetrics queries the edge's and the apps' responses by app and status
// over the last hour and day: four queries for the whole org.
func (s *Source) OrgMetrics(ctx context.Context) snapshot.OrgMetrics {
	now := s.Now()
	out := snapshot.OrgMetrics{At: now}
	for _, w := range []struct {
		dst    *map[string]map[string]float64
		metric string
		window string
	}{
		{&out.Edge1h, "fly_edge_http_responses_count", "1h"},
		{&out.App1h, "fly_app_http_responses_count", "1h"},
		{&out.Edge24h, "fly_edge_http_responses_count", "24h"},
		{&out.App24h, "fly_app_http_responses_count", "24h"},
	} {
		query := fmt.Sprintf(`sum by (app, status) (increase(%s[%s]))`, w.metric, w.window)
		res, err := s.Client.PromQuery(ctx, s.Org, query, now)
		if err != nil {
			out.Err = err.Error()
			return out
		}
		by := map[string]map[string]float64{}
		for _, smp := range res.Samples {
			app := smp.Labels["app"]
			if by[app] == nil {
				by[app] = map[string]float64{}
			}
			by[app][smp.Labels["status"]] += smp.Value
		}
		*w.dst = by
	}
	return out
}

func orgSocketsFeed() OrgFeed {
	return OrgFeed{
		Name: "sockets", Timeout: OrgSocketSample*ProbeTimeout + 5*time.Second,
		Due: func(o *snapshot.Org, c OrgClock) (OrgQuery, bool) {
			app, probes := o.DueSockets(c.Now, c.every(OrgSocketsEvery), OrgSocketSample)
			return OrgQuery{Apps: []string{app}, Probes: probes}, app != ""
		},
		// A failed exec is the cell's "could not be read", not a feed error:
		// a machine that stopped between the listing and the probe is normal.
		Fetch: func(ctx context.Context, s *Source, q OrgQuery) OrgResult {
			app := q.Apps[0]
			res := make([]snapshot.ExecResult, len(q.Probes))
			for i, p := range q.Probes {
				res[i] = s.Probe(ctx, app, p)
			}
			now := s.Now()
			return OrgResult{Apply: func(o *snapshot.Org) { o.ApplySockets(app, q.Probes, res, now) }}
		},
		Next: func(*snapshot.Org, OrgClock, OrgResult) time.Duration { return OrgSocketsPace },
	}
}
