package guest

// Memory as a machine's guest reports it in /proc/meminfo, and so as Fly's
// fly_instance_memory_* gauges (bytes) report it: one source for both, so the
// dashboard's exec reading and its Prometheus reading agree.

// Memory is a guest's /proc/meminfo figures, in kB.
type Memory struct {
	MemTotalKB, MemAvailableKB int64
	SwapTotalKB, SwapFreeKB    int64
}

// kernelVisibleKBPerGB is MemTotal for a 1024 MB Fly guest (as measured on Fly: 985220
// kB); the firmware and kernel keep the rest, and other sizes are scaled
// from it.
const kernelVisibleKBPerGB = 985220

// Meminfo derives the guest's figures from its config and profile:
// SwapTotal is swap_size_mb minus the 4 kB swap header, SwapFree is what the
// profile's SwapUsedKB leaves, MemAvailable is MemAvailPct of MemTotal.
func Meminfo(memoryMB, swapMB, memAvailPct, swapUsedKB int) Memory {
	var g Memory
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
