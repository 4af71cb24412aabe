package flysim

import (
	"time"

	"github.com/flywake/flywake/sources/flysim/guest"
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
	s.sched.Lock()
	defer s.sched.Unlock()
	out := map[string][]promql.Series{}
	for _, appName := range s.appOrder {
		for _, m := range s.apps[appName].machines {
			if m.state != "started" {
				continue // Fly only scrapes running guests
			}
			for metric, v := range instanceGauges(m) {
				val := v
				out[metric] = append(out[metric], promql.Series{
					Labels:  map[string]string{"app": appName, "region": m.region, "instance": m.id},
					ValueAt: func(time.Time) float64 { return val },
				})
			}
		}
	}
	return out
}

// memoryOf is machine m's guest memory under its current config. Callers
// hold s.mu.
func memoryOf(m *machine) guest.Memory {
	memMB, swapMB := 0, 0
	if m.cfg != nil {
		if m.cfg.Guest != nil {
			memMB = m.cfg.Guest.MemoryMB
		}
		if m.cfg.Init.SwapSizeMB != nil {
			swapMB = *m.cfg.Init.SwapSizeMB
		}
	}
	p := &m.app.p
	return guest.Meminfo(memMB, swapMB, p.MemAvailPct, p.SwapUsedKB)
}

// instanceGauges are the fly_instance_* series of one started machine, in
// Fly's units (bytes; fly_instance_up is 1).
func instanceGauges(m *machine) map[string]float64 {
	g := memoryOf(m)
	const kB = 1024
	return map[string]float64{
		"fly_instance_up":                   1,
		"fly_instance_memory_mem_total":     float64(g.MemTotalKB * kB),
		"fly_instance_memory_mem_available": float64(g.MemAvailableKB * kB),
		"fly_instance_memory_swap_total":    float64(g.SwapTotalKB * kB),
		"fly_instance_memory_swap_free":     float64(g.SwapFreeKB * kB),
	}
}
