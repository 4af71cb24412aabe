package flysim

import (
	"time"
)

// metricStore holds the counters behind the Prometheus API in one-minute
// buckets of platform time, bounded to Retention so soaks stay flat.
//
// Edge series (fly_edge_http_responses_count) count every response the edge
// sent a client, proxy errors included; app series
// (fly_app_http_responses_count) count only responses a machine produced —
// the gap between them is the requests that died in between (BRIEF §1).
type metricStore struct {
	retention time.Duration
	edge      map[string]map[int]*counter            // app → status
	app       map[string]map[string]map[int]*counter // app → instance → status
}

// counter is a cumulative count sampled per minute.
type counter struct {
	minutes map[int64]float64 // unix minute → increments in that minute
	total   float64
	oldest  int64
}

func newMetricStore(retention time.Duration) *metricStore {
	return &metricStore{retention: retention, edge: map[string]map[int]*counter{}, app: map[string]map[string]map[int]*counter{}}
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

func (ms *metricStore) addEdge(app string, status int, t time.Time, n float64) {
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

func (ms *metricStore) addApp(app, instance string, status int, t time.Time, n float64) {
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
