package checklist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/words"
)

const suspendFix = "Set auto_stop_machines = 'suspend' (needs no swap and at most 2 GB of memory), and make connections survive a freeze: open database connections per request and use a cache client that degrades on a dead connection."

// sleepWakeRule: for each service as Fly will apply it, whether the proxy
// stops its machines and whether anything wakes them (autostart, and the
// machines min_machines_running keeps up); then what blocks suspend, and
// swap configured versus ever used on the deployed machines.
func sleepWakeRule(e Evidence) Item {
	b := newItem(IDSleepWake)
	c, ok := configOf(b, e)
	if !ok {
		return b.done()
	}
	svcs, _ := c.services()
	m := c.machines(svcs)
	m.changes(b, c)
	if len(svcs) == 0 {
		b.judge(NA, c.src0(), "no service: the proxy neither stops nor wakes these machines")
		return b.done()
	}
	var sleeper *service // the service whose autostop the wake judgement is about
	mode := "off"
	for i, s := range svcs {
		// A service that stops outweighs one that suspends: its wakes are cold boots.
		if sm := judgeSleep(b, c, s); sm != "off" && (sleeper == nil || sm == "stop") {
			sleeper, mode = &svcs[i], sm
		}
	}
	if sleeper == nil {
		return b.done()
	}
	blockers := m.blockers()
	if m.swapMB > 0 {
		sleepSwap(b, m, e)
	} else {
		swapRemoved(b, m, e)
	}
	src := c.src(*sleeper, "auto_stop_machines")
	switch {
	case mode == "suspend" && len(blockers) > 0:
		b.judge(Warn, src, "suspend falls back to stop: %s", strings.Join(blockers, "; "))
		b.fix(suspendFix)
	case mode == "suspend":
		b.judge(Pass, src, "machines suspend when idle and resume from a snapshot in a few hundred ms")
	case len(blockers) > 0:
		b.judge(Warn, src, "auto_stop_machines = 'stop': every wake is a cold boot; suspend is blocked by: %s", strings.Join(blockers, "; "))
		b.fix(suspendFix)
	default:
		b.judge(Warn, src, "auto_stop_machines = 'stop': every wake is a cold boot; nothing blocks 'suspend', which resumes in a few hundred ms")
		b.fix(suspendFix)
	}
	return b.done()
}

// judgeSleep judges one service's autostop, autostart and
// min_machines_running with Fly's defaults (off, on, 0), records what the
// deploy changes, and returns its autostop mode.
func judgeSleep(b *itemBuilder, c config, s service) string {
	sl := s.sleep()
	of := ""
	if s.label != "" {
		of = s.label + ": "
	}
	if d := s.deployed; d != nil {
		ds := deployedSleep(*d)
		c.changed(b, s, "auto_stop_machines", ds.autoStop, sl.autoStop)
		c.changed(b, s, "auto_start_machines", yesNo(ds.autoStart), yesNo(sl.autoStart))
		c.changed(b, s, "min_machines_running", fmt.Sprint(ds.minRunning), fmt.Sprint(sl.minRunning))
	}
	if sl.autoStop == "off" {
		unset := ""
		if s.project != nil && !c.set(s, "auto_stop_machines") {
			unset = " (not set: Fly's default)"
		}
		b.judge(Pass, c.src(s, "auto_stop_machines"), "%sautostop is off%s: machines keep running, there is no wake to wait for", of, unset)
		return sl.autoStop
	}
	if !sl.autoStart {
		b.judge(Fail, c.src(s, "auto_start_machines"), "%sauto_start_machines = false while autostop is '%s': once stopped, nothing wakes the machines again (an outage after the next idle period or deploy)", of, sl.autoStop)
		b.fix("Set auto_start_machines = true.")
	}
	if sl.minRunning == 0 {
		what := "min_machines_running = 0"
		if s.project != nil && !c.set(s, "min_machines_running") {
			what = "min_machines_running is not set (Fly's default is 0)"
		} else if s.project == nil && s.deployed.MinRunning == nil {
			what = "min_machines_running is not set (0)"
		}
		wait := "a cold boot"
		if sl.autoStop == "suspend" {
			wait = "a resume (a cold boot when the snapshot is gone)"
		}
		b.judge(Warn, c.src(s, "min_machines_running"), "%s%s with autostop '%s': every machine may sleep, so the first request after a quiet spell waits for %s",
			of, what, sl.autoStop, wait)
		b.fix("Set min_machines_running = 1 (it holds in the primary region) so one machine is always up for the first request.")
	}
	return sl.autoStop
}

// machineConfig is the machine-level part of sleep and wake: swap and
// memory as the project sets them (0: unset), beside the deployed group's.
type machineConfig struct {
	c              config
	swapMB         int
	swapSrc        string
	memoryMB       int // 0: the project does not set it (the deploy keeps the deployed size)
	memorySrc      string
	deployed       *DeployedGroup
	deployedBlocks []string // blockers the project cannot change (a schedule, a GPU)
}

// machines is that config for the group of the first judged service (the
// app's default group when there is none).
func (c config) machines(svcs []service) machineConfig {
	m := machineConfig{c: c}
	if len(svcs) > 0 {
		m.deployed = svcs[0].group
	}
	if c.f == nil {
		if g := m.deployed; g != nil {
			m.swapMB, m.memoryMB = g.SwapMB, g.MemoryMB
			m.swapSrc = c.deployedSource("machine config of " + g.Machine)
			m.memorySrc = m.swapSrc
		}
		return m
	}
	if m.deployed == nil {
		m.deployed = c.dep.group(c.f.DefaultProcessGroup())
	}
	m.swapMB, m.swapSrc = c.f.SwapSizeMB, c.f.Source("swap_size_mb")
	m.memoryMB, m.memorySrc = c.f.VMMemoryMB, c.f.Source("vm")
	if g := m.deployed; g != nil {
		for _, r := range g.SuspendBlockers {
			if l := strings.ToLower(r); !strings.Contains(l, "swap") && !strings.Contains(l, "memory") {
				m.deployedBlocks = append(m.deployedBlocks, r+" ("+c.deployedSource("")+")")
			}
		}
	}
	return m
}

// changes records swap and memory the deploy changes.
func (m machineConfig) changes(b *itemBuilder, c config) {
	g := m.deployed
	if c.f == nil || g == nil {
		return
	}
	mb := func(n int) string {
		if n <= 0 {
			return "none"
		}
		return count(n) + " MB"
	}
	if g.SwapMB != m.swapMB {
		b.item.Changes = append(b.item.Changes, Change{Setting: "swap_size_mb", Deployed: mb(g.SwapMB), Project: mb(m.swapMB), Source: m.swapSrc})
	}
	if m.memoryMB > 0 && g.MemoryMB > 0 && g.MemoryMB != m.memoryMB {
		b.item.Changes = append(b.item.Changes, Change{Setting: "[[vm]] memory", Deployed: mb(g.MemoryMB), Project: mb(m.memoryMB), Source: m.memorySrc})
	}
}

// blockers are why the machines cannot be suspended once deployed.
func (m machineConfig) blockers() []string {
	if m.c.f == nil && m.deployed != nil {
		return m.deployed.SuspendBlockers
	}
	var out []string
	if m.swapMB > 0 {
		out = append(out, fmt.Sprintf("swap_size_mb = %d (machines with swap cannot be suspended)", m.swapMB))
	}
	if m.memoryMB > diagnose.SuspendMaxMemoryMB {
		out = append(out, fmt.Sprintf("%s MB of memory (suspend needs at most 2 GB)", count(m.memoryMB)))
	}
	return append(out, m.deployedBlocks...)
}

// sleepSwap judges swap that blocks suspend against whether the deployed
// machines ever used theirs.
func sleepSwap(b *itemBuilder, m machineConfig, e Evidence) {
	sw := e.Swap
	if m.c.f != nil && m.deployed != nil && m.deployed.SwapMB == 0 {
		b.judge(Warn, m.swapSrc, "%s MB of swap blocks suspend; the deployed machines have no swap, so none shows whether it would be used", count(m.swapMB))
		return
	}
	if sw == nil || sw.UsedKB == nil {
		b.item.NeedsRunningMachine = true
		b.judge(Warn, m.swapSrc, "%s MB of swap blocks suspend; whether it was ever used needs a running machine (/proc/meminfo)", count(m.swapMB))
		return
	}
	ids, used := swapUse(sw)
	probed := max(sw.MachinesProbed, len(ids))
	if used == 0 {
		b.judge(Fail, m.swapSrc, "%s MB of swap configured, 0 kB used on %s probed (%s): insurance against an event that never happened, and it blocks suspend",
			count(m.swapMB), words.Count(probed, "machine", "machines"), platformSource(e, sw.Source))
		b.fix("Remove swap_size_mb (it was never used; keep the memory guard in the app server, e.g. granian --workers-max-rss).")
		return
	}
	b.judge(Warn, platformSource(e, sw.Source), "swap is in use (%s): it blocks suspend, and removing it needs more memory first", swapList(sw, ids))
	b.fix("Size memory so swap stays unused before removing swap_size_mb.")
}

// swapRemoved: a project without swap replacing a deployed release that
// has some, in use or not.
func swapRemoved(b *itemBuilder, m machineConfig, e Evidence) {
	sw := e.Swap
	if m.c.f == nil || m.deployed == nil || m.deployed.SwapMB == 0 || sw == nil || sw.UsedKB == nil {
		return
	}
	ids, used := swapUse(sw)
	if used == 0 {
		b.note(platformSource(e, sw.Source), "the deploy removes %s MB of swap that no probed machine ever used", count(m.deployed.SwapMB))
		return
	}
	b.judge(Warn, platformSource(e, sw.Source), "the deploy removes swap that is in use (%s): size memory first, or the machines run out of it", swapList(sw, ids))
	b.fix("Size memory so swap stays unused before removing swap_size_mb.")
}

func swapUse(sw *SwapUse) (ids []string, usedKB int) {
	for id, kb := range sw.UsedKB {
		ids = append(ids, id)
		usedKB += kb
	}
	slices.Sort(ids)
	return ids, usedKB
}

func swapList(sw *SwapUse, ids []string) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%s kB on %s", count(sw.UsedKB[id]), id))
	}
	return strings.Join(parts, ", ")
}
