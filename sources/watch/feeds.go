package watch

import (
	"context"
	"errors"
	"time"

	"github.com/flywake/flywake/sources/snapshot"
)

// A Feed is one data source the Scheduler polls at its own pace and the
// headless commands read once (Collect). Every registered feed runs the
// same way: Fetch under Timeout (in a tea.Cmd in the dashboard), its
// Result applied to the app's model by Scheduler.Done, the next fetch
// after Next. Adding a data source is one Feed (registered in Feeds) and
// the snapshot.App.Apply… it calls.
//
// The machines listing, the looks, the wait long-polls and the exec probes
// are not feeds: they drive each other (a listing starts waits and probes),
// and the Scheduler runs them itself.
type Feed struct {
	// Name is the feed's short name; the header shows "NAME ✗" while its
	// last fetch failed.
	Name string
	// Timeout bounds one Fetch.
	Timeout time.Duration
	// Fetch does the I/O. It must not touch the live model: what it needs
	// comes by value in q.
	Fetch func(ctx context.Context, s *Source, q Query) Result
	// Next is the wait before the following fetch, given the model after
	// r was applied.
	Next func(a *snapshot.App, r Result) time.Duration
}

// Query is what one Fetch gets to work from.
type Query struct {
	App string
	// Cursor is the previous Result's Cursor: "" the first time.
	Cursor string
}

// Result is one Fetch's outcome.
type Result struct {
	// Apply puts the data into the model (one snapshot.App.Apply… call);
	// nil means nothing changed. A failed fetch may still apply what it got.
	Apply func(*snapshot.App)
	// Cursor continues the feed from here ("" keeps the previous one).
	Cursor string
	// Busy reports that the fetch brought something new (or failed), for
	// feeds that poll faster while data arrives.
	Busy bool
	// Changed are the machines the data says changed state (the proxy's
	// and the runner's lines): the scheduler looks at each one a wait
	// does not watch and no listing or look has shown since, without
	// waiting for the next listing.
	Changed []Change
	// Err is why the fetch failed, nil when it did not.
	Err error
}

// Feeds is the registry of the feeds every surface reads: the dashboard
// polls them, and status and check print from them (boots, crash restarts
// and proxy errors from the logs; edge versus origin). A feed only one
// tile reads (the Traffic pane's day of per-minute counters) is registered
// beside that tile, in ui/app/registry.go, so the headless commands never
// fetch it.
func Feeds() []Feed {
	return []Feed{LogsFeed(), EdgeOriginFeed()}
}

// Logs pacing: every LogsEvery while lines arrive or machines move (boot
// phases land in logs), LogsQuiet after an empty page on a steady app,
// where each poll only costs a call and a redraw.
const (
	LogsEvery   = 5 * time.Second
	LogsQuiet   = 15 * time.Second
	logsTimeout = 60 * time.Second
)

// LogsInterval paces the logs poll.
func LogsInterval(busy, transitioning bool) time.Duration {
	if busy || transitioning {
		return LogsEvery
	}
	return LogsQuiet
}

// LogsFeed pages the app's logs forward from the last token.
func LogsFeed() Feed {
	return Feed{
		Name:    "logs",
		Timeout: logsTimeout,
		Fetch: func(ctx context.Context, s *Source, q Query) Result {
			lines, next, err := s.Logs(ctx, q.App, q.Cursor)
			r := Result{Cursor: next, Err: err, Busy: len(lines) > 0 || err != nil}
			if q.Cursor != "" { // the first page is history the first listing already shows
				r.Changed = changedMachines(lines)
			}
			if err != nil && len(lines) == 0 {
				r.Cursor = q.Cursor // nothing read: start from the same place next time
			}
			// The first page read is applied even when empty: the boots
			// are then known to be none, not still loading. A failure is
			// applied too (and a success clears it): the checklist's items
			// that read the boots cannot pass while they may miss some.
			apply := len(lines) > 0 || (err == nil && q.Cursor == "")
			cause := CauseOf(err)
			r.Apply = func(a *snapshot.App) {
				if apply {
					a.ApplyLogs(lines)
				}
				a.ApplyLogsError(cause, err)
			}
			return r
		},
		Next: func(a *snapshot.App, r Result) time.Duration { return LogsInterval(r.Busy, a.Transitioning()) },
	}
}

// Edge/origin pacing: the query covers an hour and a day, so once a minute
// is plenty.
const (
	EdgeOriginEvery   = 60 * time.Second
	edgeOriginTimeout = 20 * time.Second
)

// EdgeOriginFeed queries the edge's and the app's response counts.
func EdgeOriginFeed() Feed {
	return Feed{
		Name:    "metrics",
		Timeout: edgeOriginTimeout,
		Fetch: func(ctx context.Context, s *Source, q Query) Result {
			eo := s.EdgeOrigin(ctx, q.App)
			r := Result{Apply: func(a *snapshot.App) { a.ApplyEdgeOrigin(eo) }}
			if eo.Err != "" {
				r.Err = errors.New(eo.Err)
			}
			return r
		},
		Next: func(*snapshot.App, Result) time.Duration { return EdgeOriginEvery },
	}
}

// collectFeeds runs each feed once into a.
func (s *Source) collectFeeds(ctx context.Context, a *snapshot.App, feeds []Feed) {
	for _, f := range feeds {
		fctx, cancel := context.WithTimeout(ctx, f.Timeout)
		r := f.Fetch(fctx, s, Query{App: a.Name})
		cancel()
		if r.Apply != nil {
			r.Apply(a)
		}
	}
}
