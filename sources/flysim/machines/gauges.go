package machines

import "github.com/flywake/flywake/sources/flysim/guest"

// Gauge is one fly_instance_* sample of a running machine, in Fly's units.
type Gauge struct {
	Metric, App, Region, Instance string
	Value                         float64
}

// Gauges are the fly_instance_* samples of the machines running now (Fly
// only scrapes running guests). It takes the lock.
func (s *Store) Gauges() []Gauge {
	s.sched.Lock()
	defer s.sched.Unlock()
	var out []Gauge
	for _, name := range s.appOrder {
		for _, m := range s.apps[name].machines {
			if m.state != "started" {
				continue
			}
			for metric, v := range instanceGauges(m) {
				out = append(out, Gauge{Metric: metric, App: name, Region: m.region, Instance: m.id, Value: v})
			}
		}
	}
	return out
}

// memoryOf is machine m's guest memory under its current config. Callers
// hold the lock.
func memoryOf(m *Machine) guest.Memory {
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
func instanceGauges(m *Machine) map[string]float64 {
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
