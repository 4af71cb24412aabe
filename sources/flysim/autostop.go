package flysim

import (
	"errors"
	"fmt"
)

// Autostop / autosuspend by Fly's documented rule (reference/fly-platform.md
// §4.1): every pass ("every few minutes", Options.AutostopInterval), per app
// and region, at most ONE machine is stopped or suspended. With more than one
// running machine: excess = running − (machines at or over the soft limit + 1),
// and one goes when excess ≥ 1; with one running machine, it goes when its
// load is 0. Never below min_machines_running — which Fly applies in the
// primary region only (§3.1): elsewhere every machine may go.

func (s *Sim) autostopPass() {
	for _, name := range s.appOrder {
		s.autostopApp(s.apps[name])
	}
	s.sched.After(s.opts.AutostopInterval, s.autostopPass)
}

func (s *Sim) autostopApp(a *app) {
	p := &a.p
	if p.Autostop != "stop" && p.Autostop != "suspend" {
		return
	}
	var regions []string
	byRegion := map[string][]*machine{}
	for _, m := range a.machines {
		if _, ok := byRegion[m.region]; !ok {
			regions = append(regions, m.region)
		}
		byRegion[m.region] = append(byRegion[m.region], m)
	}
	for _, region := range regions {
		group := byRegion[region]
		var running []*machine
		loads := map[*machine]float64{}
		over := 0
		for _, m := range group {
			if m.state != "started" || !m.serving {
				continue
			}
			running = append(running, m)
			loads[m] = s.proxyLoad(m)
			if loads[m] >= float64(p.SoftLimit) {
				over++
			}
		}
		minRunning := 0
		if region == p.Region {
			minRunning = p.MinRunning
		}
		victim := autostopVictim(running, loads, over, minRunning)
		if victim == nil {
			continue
		}
		s.autostop(victim, len(running)-1, len(group))
	}
}

// autostopVictim applies the rule to one region's running machines and
// returns the machine to put to sleep (the least loaded, the newest of equals)
// or nil.
func autostopVictim(running []*machine, loads map[*machine]float64, over, minRunning int) *machine {
	if len(running) == 0 || len(running) <= minRunning {
		return nil
	}
	if len(running) == 1 {
		// "load of 0" as the proxy counts it: nothing in flight right now.
		if loads[running[0]] >= 0.5 {
			return nil
		}
		return running[0]
	}
	if len(running)-(over+1) < 1 {
		return nil
	}
	var victim *machine
	for _, m := range running {
		if victim == nil || loads[m] <= loads[victim] {
			victim = m
		}
	}
	return victim
}

func (s *Sim) autostop(m *machine, left, total int) {
	p := &m.app.p
	tail := fmt.Sprintf("%d out of %d machines left running (region=%s, process group=%s)", left, total, m.region, p.ProcessGroup)
	if p.Autostop == "suspend" {
		s.log(m, "proxy", fmt.Sprintf("App %s has excess capacity, autosuspending machine %s. %s", p.Name, m.id, tail))
		err := s.suspendMachine(m, SourceProxy)
		if err == nil {
			return
		}
		var pe *PreconditionError
		if !errors.As(err, &pe) {
			return
		}
		// Fly stops a machine it cannot suspend (swap, >2 GB, schedule).
		s.logLevel(m, "proxy", "warn", fmt.Sprintf("failed to suspend machine %s: %s; stopping it instead", m.id, pe.Text))
	}
	s.log(m, "proxy", fmt.Sprintf("App %s has excess capacity, autostopping machine %s. %s", p.Name, m.id, tail))
	_ = s.stopMachine(m, SourceProxy, "")
}
