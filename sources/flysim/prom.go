package flysim

import (
	"time"

	"github.com/flywake/flywake/sources/flysim/promql"
)

// The org's Prometheus API (promql.API): the response counters from the
// metrics store, the memory gauges of the machines running now.

// promAPI serves /prometheus/{org}/api/v1/query and query_range.
func (s *Sim) promAPI() *promql.API {
	return &promql.API{Org: s.opts.Org, Now: s.now, Read: func(fn func(promql.Source)) {
		gauges := s.gauges()
		s.metrics.Read(func(counters promql.Source) {
			fn(func(name string) map[string][]promql.Series {
				out := counters(name)
				for metric, series := range gauges {
					if name == "" || name == metric {
						out[metric] = series
					}
				}
				return out
			})
		})
	}}
}

// gauges are the fly_instance_* series of the machines running now, by
// metric name.
func (s *Sim) gauges() map[string][]promql.Series {
	out := map[string][]promql.Series{}
	for _, g := range s.store.Gauges() {
		val := g.Value
		out[g.Metric] = append(out[g.Metric], promql.Series{
			Labels:  map[string]string{"app": g.App, "region": g.Region, "instance": g.Instance},
			ValueAt: func(time.Time) float64 { return val },
		})
	}
	return out
}
