package checklist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/words"
)

// suspendMaxMemoryMB is the documented ceiling for suspendable machines.
const suspendMaxMemoryMB = 2048

// sleepConfig is the autostop setup the rule judges, from the deployed
// machine config when known, else from fly.toml.
type sleepConfig struct {
	autoStop, autoStopSrc string
	autoStart             *bool
	autoStartSrc          string
	swapMB                int
	swapSrc               string
	memoryMB              int
	memorySrc             string
}

// sleepWakeRule: autostop mode, whether anything wakes the machines, what
// blocks suspend, and swap configured versus ever used.
func sleepWakeRule(e Evidence) Item {
	b := newItem(IDSleepWake)
	var f *repo.FlyToml
	if localFile(b, e, repo.FlyTomlFile) {
		f = e.Project.FlyToml
	}
	sw := e.SleepWake
	if f == nil && (sw == nil || sw.AutoStop == "") {
		if e.Project == nil || sw != nil {
			b.raise(Unknown)
		}
		return b.done()
	}
	c := resolveSleepConfig(f, sw)
	b.note(c.autoStopSrc, "auto_stop_machines = '%s'", c.autoStop)
	if c.autoStop == "off" {
		b.judge(Pass, c.autoStopSrc, "autostop is off: machines keep running, there is no wake to wait for")
		return b.done()
	}
	if c.autoStart != nil && !*c.autoStart {
		b.judge(Fail, c.autoStartSrc, "auto_start_machines = false while autostop is '%s': once stopped, nothing wakes the machines again (an outage after the next idle period or deploy)", c.autoStop)
		b.fix("Set auto_start_machines = true.")
	}
	blockers := suspendBlockers(c, sw)
	if c.swapMB > 0 {
		sleepSwap(b, c, sw)
	}
	switch {
	case c.autoStop == "suspend" && len(blockers) > 0:
		b.judge(Warn, c.autoStopSrc, "suspend falls back to stop: %s", strings.Join(blockers, "; "))
	case c.autoStop == "suspend":
		b.judge(Pass, c.autoStopSrc, "machines suspend when idle and resume from a snapshot in a few hundred ms")
	case len(blockers) > 0:
		b.judge(Warn, c.autoStopSrc, "every wake is a cold boot; suspend is blocked by: %s", strings.Join(blockers, "; "))
	default:
		b.judge(Warn, c.autoStopSrc, "every wake is a cold boot; nothing blocks auto_stop_machines = 'suspend', which resumes in a few hundred ms")
	}
	b.fix("Set auto_stop_machines = 'suspend' (needs no swap and at most 2 GB of memory), and make connections survive a freeze: open database connections per request and use a cache client that degrades on a dead connection.")
	return b.done()
}

func resolveSleepConfig(f *repo.FlyToml, sw *SleepWake) sleepConfig {
	var c sleepConfig
	if f != nil {
		c.swapMB, c.swapSrc = f.SwapSizeMB, f.Source("swap_size_mb")
		c.memoryMB, c.memorySrc = f.VMMemoryMB, repo.FlyTomlFile
		for _, s := range f.Services {
			if s.AutoStop == repo.AutoStopUnset && c.autoStop != "" {
				continue
			}
			c.autoStop, c.autoStopSrc = string(s.AutoStop), f.Source(s.Path()+".auto_stop_machines")
			c.autoStart, c.autoStartSrc = s.AutoStart, f.Source(s.Path()+".auto_start_machines")
			if s.AutoStop != repo.AutoStopUnset {
				break
			}
		}
	}
	if sw != nil && sw.AutoStop != "" {
		c.autoStop, c.autoStopSrc = sw.AutoStop, sw.Source
		c.autoStart, c.autoStartSrc = sw.AutoStart, sw.Source
	}
	// The deployed value wins when it differs; an equal one keeps the fly.toml line.
	if sw != nil && sw.SwapConfiguredMB > 0 && sw.SwapConfiguredMB != c.swapMB {
		c.swapMB, c.swapSrc = sw.SwapConfiguredMB, sw.Source
	}
	if c.autoStop == "" {
		c.autoStop = "off" // the platform default
	}
	return c
}

func suspendBlockers(c sleepConfig, sw *SleepWake) []string {
	var out []string
	if c.swapMB > 0 {
		out = append(out, fmt.Sprintf("swap_size_mb = %d (machines with swap cannot be suspended)", c.swapMB))
	}
	if c.memoryMB > suspendMaxMemoryMB {
		out = append(out, fmt.Sprintf("%s MB of memory (suspend needs at most 2 GB)", count(c.memoryMB)))
	}
	if sw != nil {
		for _, r := range sw.SuspendBlockers {
			if !slices.Contains(out, r) && !(c.swapMB > 0 && strings.Contains(strings.ToLower(r), "swap")) {
				out = append(out, r)
			}
		}
	}
	return out
}

// sleepSwap judges swap that blocks suspend against whether it was ever used.
func sleepSwap(b *itemBuilder, c sleepConfig, sw *SleepWake) {
	if sw == nil || sw.SwapUsedKB == nil {
		b.item.NeedsRunningMachine = true
		b.judge(Warn, c.swapSrc, "%s MB of swap blocks suspend; whether it was ever used needs a running machine (/proc/meminfo)", count(c.swapMB))
		return
	}
	ids := make([]string, 0, len(sw.SwapUsedKB))
	used := 0
	for id, kb := range sw.SwapUsedKB {
		ids = append(ids, id)
		used += kb
	}
	slices.Sort(ids)
	probed := max(sw.MachinesProbed, len(ids))
	if used == 0 {
		b.judge(Fail, c.swapSrc, "%s MB of swap configured, 0 kB used on %s probed: insurance against an event that never happened, and it blocks suspend",
			count(c.swapMB), words.Count(probed, "machine", "machines"))
		b.fix("Remove swap_size_mb (it was never used; keep the memory guard in the app server, e.g. granian --workers-max-rss).")
		return
	}
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%s kB on %s", count(sw.SwapUsedKB[id]), id))
	}
	b.judge(Warn, sw.Source, "swap is in use (%s): it blocks suspend, and removing it needs more memory first", strings.Join(parts, ", "))
	b.fix("Size memory so swap stays unused before removing swap_size_mb.")
}
