package watch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
)

// The Traffic pane's data: edge and app responses per minute, by status, for
// the last day. Complete clock hours never change, so the day up to the
// current hour is fetched once per hour (two range queries); only the hour
// under way is fetched again every minute (two more). With the four instant
// queries of EdgeOrigin that is six Prometheus calls a minute and two an
// hour; the newest minute keeps moving, everything else is reused.

// TrafficEvery is how often the hour under way is fetched again.
const TrafficEvery = time.Minute

const trafficTimeout = 20 * time.Second

// TrafficFeed fetches the per-minute counters; its cursor is the hour the
// model's history reaches (unix seconds), so the day is fetched again only
// when a new hour has begun (or the last history fetch failed).
func TrafficFeed() Feed {
	return Feed{
		Name:    "traffic",
		Timeout: trafficTimeout,
		Fetch: func(ctx context.Context, s *Source, q Query) Result {
			var until time.Time
			if sec, err := strconv.ParseInt(q.Cursor, 10, 64); err == nil {
				until = time.Unix(sec, 0).UTC()
			}
			r := s.Traffic(ctx, q.App, until)
			res := Result{Apply: func(a *snapshot.App) { a.ApplyTraffic(r) }, Cursor: q.Cursor}
			if r.Err != "" {
				res.Err = errors.New(r.Err)
			} else if r.History != nil {
				res.Cursor = strconv.FormatInt(r.Hour.Unix(), 10)
			}
			return res
		},
		Next: func(*snapshot.App, Result) time.Duration { return TrafficEvery },
	}
}

// TrafficHistory is how far back the per-minute series reach.
const TrafficHistory = 24 * time.Hour

const trafficQuery = `sum by (status) (increase(%s{app=%q}[1m]))`

// Traffic fetches the per-minute counters of app. historyUntil is the hour
// the model's history already reaches (zero: none): when the current hour
// began after it, the day before the current hour is fetched too.
func (s *Source) Traffic(ctx context.Context, app string, historyUntil time.Time) snapshot.TrafficReply {
	now := s.Now()
	hour := now.UTC().Truncate(time.Hour)
	out := snapshot.TrafficReply{At: now, Hour: hour}
	if historyUntil.Before(hour) {
		// Points at t cover [t-1m, t): the day's minutes are (hour-24h, hour].
		minutes, err := s.trafficMinutes(ctx, app, hour.Add(-TrafficHistory).Add(time.Minute), hour)
		if err != nil {
			out.Err = err.Error()
			return out
		}
		out.History = minutes
	}
	if now.Sub(hour) >= time.Minute {
		minutes, err := s.trafficMinutes(ctx, app, hour.Add(time.Minute), now.Truncate(time.Minute))
		if err != nil {
			out.Err = err.Error()
			return out
		}
		out.Current = minutes
	} else {
		out.Current = []diagnose.TrafficMinute{}
	}
	return out
}

// trafficMinutes reads both counters per minute, for the points start…end
// (each covering the minute before it), and joins them by minute.
func (s *Source) trafficMinutes(ctx context.Context, app string, start, end time.Time) ([]diagnose.TrafficMinute, error) {
	byMinute := map[time.Time]*diagnose.TrafficMinute{}
	var order []time.Time
	for _, side := range []struct {
		metric string
		edge   bool
	}{{"fly_edge_http_responses_count", true}, {"fly_app_http_responses_count", false}} {
		series, err := s.Client.PromQueryRange(ctx, s.Org, fmt.Sprintf(trafficQuery, side.metric, app), start, end, time.Minute)
		if err != nil {
			return nil, err
		}
		for _, ser := range series {
			status := ser.Labels["status"]
			for _, p := range ser.Points {
				if p.Value != p.Value || p.Value <= 0 { // NaN or nothing counted
					continue
				}
				at := p.Time.Add(-time.Minute).UTC().Truncate(time.Minute)
				m := byMinute[at]
				if m == nil {
					m = &diagnose.TrafficMinute{Start: at, Edge: diagnose.StatusCounts{}, App: diagnose.StatusCounts{}}
					byMinute[at] = m
					order = append(order, at)
				}
				if side.edge {
					m.Edge[status] += p.Value
				} else {
					m.App[status] += p.Value
				}
			}
		}
	}
	slices.SortFunc(order, func(a, b time.Time) int { return a.Compare(b) })
	out := make([]diagnose.TrafficMinute, 0, len(order))
	for _, at := range order {
		out = append(out, *byMinute[at])
	}
	return out, nil
}
