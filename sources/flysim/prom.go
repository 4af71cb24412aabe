package flysim

import (
	"strconv"
	"time"

	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/promql"
)

// The org's Prometheus API (promql.API) over the platform's series.

// Counter and gauge names flysim serves.
const (
	promEdgeResponses = "fly_edge_http_responses_count"
	promAppResponses  = "fly_app_http_responses_count"
)

// promAPI serves /prometheus/{org}/api/v1/query and query_range.
func (s *Sim) promAPI() *promql.API {
	return &promql.API{Org: s.opts.Org, Now: s.now, Read: func(fn func(promql.Source)) {
		s.mu.Lock()
		defer s.mu.Unlock()
		fn(s.promSeries)
	}}
}

// promSeries lists the org's series of one metric ("" = all). Callers hold
// s.mu; the returned closures read the stores and must run under it too.
func (s *Sim) promSeries(name string) map[string][]promql.Series {
	out := map[string][]promql.Series{}
	want := func(n string) bool { return name == "" || name == n }
	if want(promEdgeResponses) {
		for appName, byStatus := range s.metrics.edge {
			for status, c := range byStatus {
				out[promEdgeResponses] = append(out[promEdgeResponses], counterSeries(c, map[string]string{
					"app": appName, "region": s.appRegion(appName), "status": strconv.Itoa(status)}))
			}
		}
	}
	if want(promAppResponses) {
		for appName, byInstance := range s.metrics.app {
			for instance, byStatus := range byInstance {
				region := s.machineRegion(appName, instance)
				for status, c := range byStatus {
					out[promAppResponses] = append(out[promAppResponses], counterSeries(c, map[string]string{
						"app": appName, "region": region, "instance": instance, "status": strconv.Itoa(status)}))
				}
			}
		}
	}
	for _, appName := range s.appOrder {
		for _, m := range s.apps[appName].machines {
			if m.state != "started" {
				continue // Fly only scrapes running guests
			}
			for metric, v := range instanceGauges(m) {
				if want(metric) {
					val := v
					out[metric] = append(out[metric], promql.Series{
						Labels:  map[string]string{"app": appName, "region": m.region, "instance": m.id},
						ValueAt: func(time.Time) float64 { return val },
					})
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

func (s *Sim) appRegion(appName string) string {
	if a := s.apps[appName]; a != nil {
		return a.p.Region
	}
	return ""
}

func (s *Sim) machineRegion(appName, id string) string {
	if a := s.apps[appName]; a != nil {
		if m := a.byID[id]; m != nil {
			return m.region
		}
		return a.p.Region
	}
	return ""
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
