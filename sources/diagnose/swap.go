package diagnose

import (
	"fmt"

	"github.com/flywake/flywake/sources/words"
)

// Swap on a Fly machine blocks suspend. The demo's sleepy-api carries 2 GB
// of swap that never holds a page: removing it is what makes suspend
// possible. This
// verdict weighs what swap costs (no suspend) against what it is doing now.

// SwapFacts is what flywake knows about one machine's swap.
type SwapFacts struct {
	Machine       string
	ConfiguredMB  int // config.init.swap_size_mb (0: none)
	GuestMemoryMB int
	Meminfo       *Meminfo // nil: not probed (machine not running, or exec failed)
	OOMKills      int      // OOM exits seen in the machine's events
}

// SwapVerdict gives one line for the swap pane across an app's machines.
// SwapFree == SwapTotal only shows that nothing is swapped out at the moment
// of the probe, so the line says "in use", never "ever used".
func SwapVerdict(facts []SwapFacts) Verdict {
	if len(facts) == 0 {
		return Verdict{Unknown, "no machines"}
	}
	withSwap, probed := 0, 0 // counts: the facts themselves are not needed again
	oom, inUse := 0, 0
	var maxUsedKB int64
	minMB, maxMB := 0, 0
	for _, f := range facts {
		oom += max(0, f.OOMKills)
		mb := f.ConfiguredMB
		if mb <= 0 && f.Meminfo != nil {
			mb = int(f.Meminfo.SwapTotalKB / 1024)
		}
		if mb <= 0 && (f.Meminfo == nil || f.Meminfo.SwapTotalKB == 0) {
			continue
		}
		withSwap++
		if withSwap == 1 || mb < minMB {
			minMB = mb
		}
		maxMB = max(maxMB, mb)
		if f.Meminfo == nil {
			continue
		}
		probed++
		if used := f.Meminfo.SwapUsedKB(); used > 0 {
			inUse++
			maxUsedKB = max(maxUsedKB, used)
		}
	}

	if withSwap == 0 {
		if oom > 0 {
			return Verdict{Warn, fmt.Sprintf("no swap configured; %s: memory is short", words.Count(oom, "OOM kill", "OOM kills"))}
		}
		return Verdict{Pass, "no swap configured"}
	}

	size := fmt.Sprintf("%d MB", maxMB)
	if minMB != maxMB {
		size = fmt.Sprintf("%d–%d MB", minMB, maxMB)
	}
	head := fmt.Sprintf("%s swap on %d/%d machines", size, withSwap, len(facts))

	switch {
	case probed == 0:
		return Verdict{Unknown, head + ", usage unknown: no running machine to probe"}
	case inUse > 0:
		return Verdict{Warn, fmt.Sprintf("swap in use on %s (up to %s): add memory before removing it",
			words.Count(inUse, "machine", "machines"), formatKB(maxUsedKB))}
	case oom > 0:
		return Verdict{Warn, fmt.Sprintf("%s, 0 kB in use now but %s: check memory before removing it",
			head, words.Count(oom, "OOM kill", "OOM kills"))}
	}
	coverage := "all probed"
	if probed < withSwap {
		coverage = fmt.Sprintf("%d of %d probed", probed, withSwap)
	}
	return Verdict{Warn, fmt.Sprintf("%s, 0 kB in use (%s), no OOM kills — it only blocks suspend", head, coverage)}
}

// formatKB shows small amounts in kB and the rest in whole MB.
func formatKB(kb int64) string {
	if kb < 1024 {
		return fmt.Sprintf("%d kB", kb)
	}
	return fmt.Sprintf("%d MB", (kb+512)/1024)
}
