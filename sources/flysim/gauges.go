package flysim

// Memory as a machine's guest reports it in /proc/meminfo, and so as Fly's
// fly_instance_memory_* gauges (bytes) report it: one source for both, so the
// dashboard's exec reading and its Prometheus reading agree.

// guestMemory is a guest's /proc/meminfo figures, in kB.
type guestMemory struct {
	MemTotalKB, MemAvailableKB int64
	SwapTotalKB, SwapFreeKB    int64
}

// kernelVisibleKBPerGB is MemTotal for a 1024 MB Fly guest (BRIEF §1: 985220
// kB); the firmware and kernel keep the rest, and other sizes are scaled
// from it.
const kernelVisibleKBPerGB = 985220

// guestMeminfo derives the guest's figures from its config and profile:
// SwapTotal is swap_size_mb minus the 4 kB swap header, SwapFree is what the
// profile's SwapUsedKB leaves, MemAvailable is MemAvailPct of MemTotal.
func guestMeminfo(memoryMB, swapMB, memAvailPct, swapUsedKB int) guestMemory {
	var g guestMemory
	if memoryMB > 0 {
		g.MemTotalKB = int64(memoryMB) * kernelVisibleKBPerGB / 1024
	}
	pct := min(max(memAvailPct, 0), 100)
	g.MemAvailableKB = g.MemTotalKB * int64(pct) / 100
	if swapMB > 0 {
		g.SwapTotalKB = int64(swapMB)*1024 - 4
		g.SwapFreeKB = min(max(g.SwapTotalKB-int64(swapUsedKB), 0), g.SwapTotalKB)
	}
	return g
}

// memoryOf is machine m's guest memory under its current config. Callers
// hold s.mu.
func memoryOf(m *machine) guestMemory {
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
	return guestMeminfo(memMB, swapMB, p.MemAvailPct, p.SwapUsedKB)
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
