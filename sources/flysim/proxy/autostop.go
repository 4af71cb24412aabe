package proxy

import (
	"errors"
	"fmt"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/machines"
)

// Autostop / autosuspend by Fly's documented rule, each machine by its own
// service's autostop and min_machines_running (the docs' autostop
// page): every pass ("every few minutes", Options.AutostopInterval), per app
// and region, at most ONE machine is stopped or suspended. With more than one
// running machine: excess = running − (machines at or over the soft limit + 1),
// and one goes when excess ≥ 1; with one running machine, it goes when its
// load is 0. Never below min_machines_running — which Fly applies in the
// primary region only: elsewhere every machine may go.

func (px *Proxy) autostopPass() {
	for _, ae := range px.order {
		px.autostopApp(ae.a)
	}
	px.sched.After(px.opts.AutostopInterval, px.autostopPass)
}

// AutostopNow runs the autostop pass on app at once, as the proxy's next
// pass would, and returns the machines it stopped or suspended (none when
// the rule keeps every machine running). Tests make an autostop happen
// when they want one this way.
func (px *Proxy) AutostopNow(app string) ([]string, error) {
	px.sched.Lock()
	defer px.sched.Unlock()
	ae := px.byApp[app]
	if ae == nil {
		return nil, fmt.Errorf("flysim: no app %q", app)
	}
	return px.autostopApp(ae.a), nil
}

// autostopApp applies the rule to each of a's regions; it returns the
// machines it put to sleep.
func (px *Proxy) autostopApp(a *machines.App) []string {
	var slept []string
	var regions []string
	byRegion := map[string][]*machines.Machine{}
	for _, m := range a.Machines() {
		if _, ok := byRegion[m.Region()]; !ok {
			regions = append(regions, m.Region())
		}
		byRegion[m.Region()] = append(byRegion[m.Region()], m)
	}
	for _, region := range regions {
		group := byRegion[region]
		var running []*machines.Machine
		loads := map[*machines.Machine]float64{}
		may := map[*machines.Machine]bool{} // its service autostops
		over, minRunning := 0, 0
		for _, m := range group {
			svc, ok := m.Service()
			if ok && region == m.PrimaryRegion() {
				minRunning = max(minRunning, svc.MinRunning)
			}
			if m.State() != "started" || !m.Serving() {
				continue
			}
			running = append(running, m)
			loads[m] = px.proxyLoad(m)
			if ok && loads[m] >= float64(svc.Soft) {
				over++
			}
			may[m] = ok && svc.Autostop != fly.MachineAutostopOff
		}
		victim := autostopVictim(running, may, loads, over, minRunning)
		if victim == nil {
			continue
		}
		px.autostop(victim, len(running)-1, len(group))
		slept = append(slept, victim.ID())
	}
	return slept
}

// autostopVictim applies the rule to one region's running machines and
// returns the machine to put to sleep (the least loaded of those whose
// service autostops, the newest of equals) or nil.
func autostopVictim(running []*machines.Machine, may map[*machines.Machine]bool, loads map[*machines.Machine]float64, over, minRunning int) *machines.Machine {
	if len(running) == 0 || len(running) <= minRunning {
		return nil
	}
	if len(running) == 1 {
		// "load of 0" as the proxy counts it: nothing in flight right now.
		if loads[running[0]] >= 0.5 || !may[running[0]] {
			return nil
		}
		return running[0]
	}
	if len(running)-(over+1) < 1 {
		return nil
	}
	var victim *machines.Machine
	for _, m := range running {
		if may[m] && (victim == nil || loads[m] <= loads[victim]) {
			victim = m
		}
	}
	return victim
}

// autostop stops m, or suspends it when its service says so (and stops it
// when it cannot be suspended, as Fly does).
func (px *Proxy) autostop(m *machines.Machine, left, total int) {
	svc, _ := m.Service()
	app := m.App().Name()
	tail := fmt.Sprintf("%d out of %d machines left running (region=%s, process group=%s)", left, total, m.Region(), m.ProcessGroup())
	if svc.Autostop == fly.MachineAutostopSuspend {
		px.store.Log(m, "proxy", "info", fmt.Sprintf("App %s has excess capacity, autosuspending machine %s. %s", app, m.ID(), tail))
		err := px.store.Suspend(m, machines.SourceProxy)
		if err == nil {
			return
		}
		var pe *machines.PreconditionError
		if !errors.As(err, &pe) {
			return
		}
		// Fly stops a machine it cannot suspend (swap, >2 GB, schedule).
		px.store.Log(m, "proxy", "warn", fmt.Sprintf("failed to suspend machine %s: %s; stopping it instead", m.ID(), pe.Text))
	}
	px.store.Log(m, "proxy", "info", fmt.Sprintf("App %s has excess capacity, autostopping machine %s. %s", app, m.ID(), tail))
	_ = px.store.Stop(m, machines.SourceProxy)
}
