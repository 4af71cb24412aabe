// Package metrics counts the responses behind Fly's Prometheus series in
// one-minute buckets of platform time and serves them to promql. The store
// has its own lock: a query never waits for the platform.
//
// Edge series (fly_edge_http_responses_count) count every response the edge
// sent a client, proxy errors included; app series
// (fly_app_http_responses_count) count only responses a machine produced —
// the gap between them is the requests that died in between.
package metrics

import (
	"strconv"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/flysim/promql"
)

// The counters' series names.
const (
	EdgeResponses = "fly_edge_http_responses_count"
	AppResponses  = "fly_app_http_responses_count"
)

// Store holds the counters, bounded to a retention so soaks stay flat.
type Store struct {
	mu        sync.RWMutex
	retention time.Duration
	edge      map[string]map[int]*counter            // app → status
	app       map[string]map[string]map[int]*counter // app → instance → status
	// regions label the series: an app's primary region (edge), each
	// instance's own (app).
	appRegion  map[string]string
	instRegion map[string]map[string]string
}

// counter is a cumulative count sampled per minute.
type counter struct {
	minutes map[int64]float64 // unix minute → increments in that minute
	total   float64
	oldest  int64
}

// NewStore keeps retention of history.
func NewStore(retention time.Duration) *Store {
	return &Store{retention: retention, edge: map[string]map[int]*counter{}, app: map[string]map[string]map[int]*counter{},
		appRegion: map[string]string{}, instRegion: map[string]map[string]string{}}
}

func (c *counter) add(t time.Time, n float64, retention time.Duration) {
	if c.minutes == nil {
		c.minutes = map[int64]float64{}
		c.oldest = t.Unix() / 60
	}
	min := t.Unix() / 60
	c.minutes[min] += n
	c.total += n
	// Prune whole minutes past retention, amortised.
	if cut := min - int64(retention/time.Minute); c.oldest < cut {
		for k := range c.minutes {
			if k < cut {
				delete(c.minutes, k)
			}
		}
		c.oldest = cut
	}
}

// increase is the count added in [from, to) at minute resolution: the
// minutes that begin in it. For minute-aligned bounds this is exact, so a
// range query at one-minute steps returns each minute once.
func (c *counter) increase(from, to time.Time) float64 {
	lo, hi := minuteCeil(from), minuteCeil(to)
	var sum float64
	if hi-lo <= int64(len(c.minutes)) {
		for k := lo; k < hi; k++ {
			sum += c.minutes[k]
		}
		return sum
	}
	for k, v := range c.minutes {
		if k >= lo && k < hi {
			sum += v
		}
	}
	return sum
}

// minuteCeil is the first unix minute that begins at or after t.
func minuteCeil(t time.Time) int64 {
	ns := t.UnixNano()
	const m = int64(time.Minute)
	q := ns / m
	if ns%m > 0 {
		q++
	}
	return q
}

// AddEdge counts n responses with status the edge sent app's clients at t;
// region is the app's primary region.
func (ms *Store) AddEdge(app, region string, status int, t time.Time, n float64) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.appRegion[app] = region
	byStatus := ms.edge[app]
	if byStatus == nil {
		byStatus = map[int]*counter{}
		ms.edge[app] = byStatus
	}
	c := byStatus[status]
	if c == nil {
		c = &counter{}
		byStatus[status] = c
	}
	c.add(t, n, ms.retention)
}

// AddApp counts n responses with status machine instance (in region) of
// app produced at t.
func (ms *Store) AddApp(app, region, instance string, status int, t time.Time, n float64) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.instRegion[app] == nil {
		ms.instRegion[app] = map[string]string{}
	}
	ms.instRegion[app][instance] = region
	byInst := ms.app[app]
	if byInst == nil {
		byInst = map[string]map[int]*counter{}
		ms.app[app] = byInst
	}
	byStatus := byInst[instance]
	if byStatus == nil {
		byStatus = map[int]*counter{}
		byInst[instance] = byStatus
	}
	c := byStatus[status]
	if c == nil {
		c = &counter{}
		byStatus[status] = c
	}
	c.add(t, n, ms.retention)
}

// Read runs fn with the counters' series (promql's view of them); they
// are valid only while fn runs.
func (ms *Store) Read(fn func(src promql.Source)) {
	ms.mu.RLock()
	defer ms.mu.RUnlock()
	fn(ms.series)
}

// series lists the counters of one metric ("" = both). Callers hold mu.
func (ms *Store) series(name string) map[string][]promql.Series {
	out := map[string][]promql.Series{}
	want := func(n string) bool { return name == "" || name == n }
	if want(EdgeResponses) {
		for appName, byStatus := range ms.edge {
			for status, c := range byStatus {
				out[EdgeResponses] = append(out[EdgeResponses], counterSeries(c, map[string]string{
					"app": appName, "region": ms.appRegion[appName], "status": strconv.Itoa(status)}))
			}
		}
	}
	if want(AppResponses) {
		for appName, byInstance := range ms.app {
			for instance, byStatus := range byInstance {
				region := ms.instRegion[appName][instance]
				for status, c := range byStatus {
					out[AppResponses] = append(out[AppResponses], counterSeries(c, map[string]string{
						"app": appName, "region": region, "instance": instance, "status": strconv.Itoa(status)}))
				}
			}
		}
	}
	return out
}

// counterSeries exposes a per-minute counter: its cumulative value at t is
// the total minus what was added after t's minute.
func counterSeries(c *counter, labels map[string]string) promql.Series {
	return promql.Series{
		Labels: labels,
		ValueAt: func(t time.Time) float64 {
			return c.total - c.increase(t, t.Add(100*365*24*time.Hour))
		},
		Increase: c.increase,
	}
}

// EdgeTotals is what the edge answered app's clients since the start, by
// status.
func (ms *Store) EdgeTotals(app string) map[int]float64 {
	ms.mu.RLock()
	defer ms.mu.RUnlock()
	out := map[int]float64{}
	for status, c := range ms.edge[app] {
		out[status] = c.total
	}
	return out
}

// AppTotals is what app's machines answered since the start, by instance
// and status.
func (ms *Store) AppTotals(app string) map[string]map[int]float64 {
	ms.mu.RLock()
	defer ms.mu.RUnlock()
	out := map[string]map[int]float64{}
	for inst, byStatus := range ms.app[app] {
		out[inst] = map[int]float64{}
		for status, c := range byStatus {
			out[inst][status] = c.total
		}
	}
	return out
}
