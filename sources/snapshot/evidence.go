package snapshot

import (
	"fmt"
	"sort"
	"time"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// Evidence turns what the model knows into the checklist's inputs. project
// may be nil (no project directory); its load errors are passed through.
func (a *App) Evidence(now time.Time, project *repo.Project, projectErrs []error) checklist.Evidence {
	ev := checklist.Evidence{Project: project, ProjectErrors: projectErrs, Release: a.CurrentRelease()}
	cfgM := a.serviceMachine()

	cs := a.ColdStarts(now)
	crashes := ""
	if cs.CrashRestarts > 0 {
		crashes = fmt.Sprintf("; %d crash restarts counted apart", cs.CrashRestarts)
	}
	switch {
	case cs.Served > 0:
		ev.ColdStart = &checklist.ColdStart{
			P50: cs.P50, P95: cs.P95, Max: cs.Max, Boots: cs.Served, PerDay: cs.PerDay, CrashRestarts: cs.CrashRestarts,
			Dominant: cs.Dominant.Name, DominantDur: cs.Dominant.Duration, DominantReleaseWork: cs.Dominant.ReleaseWork,
			Source: fmt.Sprintf("logs (24 h): %d cold boots%s", cs.Served, crashes),
		}
	case cs.Resumes.Served > 0:
		// A suspended app wakes by resuming: that is the wait its users see.
		r := cs.Resumes
		ev.ColdStart = &checklist.ColdStart{
			P50: r.P50, P95: r.P95, Max: r.Max, Boots: r.Served, PerDay: r.Count, CrashRestarts: cs.CrashRestarts,
			Dominant: diagnose.PhaseResume, DominantDur: r.P50,
			Source: fmt.Sprintf("logs (24 h): %d resumes from suspend, no cold boot%s", r.Served, crashes),
		}
	case cs.CrashRestarts > 0:
		ev.ColdStart = &checklist.ColdStart{
			CrashRestarts: cs.CrashRestarts,
			Source:        fmt.Sprintf("logs (24 h): %d crash restarts, no cold boot", cs.CrashRestarts),
		}
	}
	if rw := a.releaseWorkLogs(now); rw != nil {
		ev.ReleaseWork = rw
	}
	if d, p, ok := a.BytecodeFor(); ok && p.Err == "" {
		r := p.Value
		ev.Bytecode = &checklist.Bytecode{
			NotPython: r.NotPython, Python: r.Python, SitePy: r.SitePackages.Py, SitePyc: r.SitePackages.Pyc,
			ForeignPyc: r.SitePackages.ForeignPyc + r.App.ForeignPyc, ForeignTags: append(append([]string{}, r.SitePackages.ForeignTags...), r.App.ForeignTags...),
			DontWriteBytecode: r.DontWriteBytecode, Source: "exec bytecode probe on image " + ShortDigest(d),
		}
	}
	if cfgM != nil {
		cfg := cfgM.Config
		sw := &checklist.SleepWake{
			AutoStop: cfg.Autostop, SuspendBlockers: cfg.SuspendBlockers, SwapConfiguredMB: cfg.SwapMB,
			Source: "machine config of " + cfgM.ID,
		}
		if s := cfg.Services[0]; s.AutostartSet {
			v := s.Autostart
			sw.AutoStart = &v
		}
		if s := cfg.Services[0]; s.MinRunningSet {
			v := s.MinRunning
			sw.MinRunning = &v
		}
		for id, p := range a.Meminfo {
			if p.Err != "" {
				continue
			}
			if sw.SwapUsedKB == nil {
				sw.SwapUsedKB = map[string]int{}
			}
			sw.SwapUsedKB[id] = int(p.Value.SwapUsedKB())
			sw.MachinesProbed++
		}
		if sw.MachinesProbed > 0 {
			sw.Source += fmt.Sprintf("; exec /proc/meminfo on %d machines", sw.MachinesProbed)
		}
		ev.SleepWake = sw

		conc := &checklist.Concurrency{FromConfig: true, Source: "machine config of " + cfgM.ID}
		if c := cfg.Services[0].Concurrency; c != nil {
			conc.Type, conc.SoftLimit = c.Type, c.SoftLimit
			if c.HardLimit > 0 {
				h := c.HardLimit
				conc.HardLimit = &h
			}
		}
		if cw := a.CloseWait(); len(cw) > 0 {
			conc.CloseWait = cw
			conc.Source += fmt.Sprintf("; /proc/net/tcp{,6} on %d machines", len(cw))
		}
		ev.Concurrency = conc

		hc := &checklist.HealthChecks{Source: "machine config of " + cfgM.ID}
		for _, svc := range cfg.Services {
			for i, c := range svc.Checks {
				hc.Checks = append(hc.Checks, checklist.HealthCheck{
					Name: fmt.Sprintf("servicecheck-%02d", i), Kind: c.Type, Path: c.Path, Interval: c.Interval,
				})
			}
		}
		for _, c := range cfg.Checks {
			hc.Checks = append(hc.Checks, checklist.HealthCheck{Name: c.Name, Kind: c.Type, Path: c.Path})
		}
		ev.HealthChecks = hc
	}
	if eo := a.Metrics; eo != nil && eo.Err == "" {
		ev.EdgeOrigin = &checklist.EdgeOrigin{
			Hour:   &checklist.StatusCounts{Edge: eo.Edge1h, App: eo.App1h},
			Day:    &checklist.StatusCounts{Edge: eo.Edge24h, App: eo.App24h},
			Source: "Prometheus: fly_edge_http_responses_count vs fly_app_http_responses_count",
		}
	}
	ev.Crash = a.crashEvidence()
	return ev
}

// serviceMachine is the machine whose config speaks for the app: the first
// one with services (all machines of a process group share it).
func (a *App) serviceMachine() *Machine {
	for i := range a.Machines {
		if a.Machines[i].serves() {
			return &a.Machines[i]
		}
	}
	return nil
}

func (a *App) releaseWorkLogs(now time.Time) *checklist.ReleaseWorkLogs {
	if a.Boots == nil {
		return nil // no logs read
	}
	rw := &checklist.ReleaseWorkLogs{Window: "24 h", Source: "logs (24 h)"}
	kinds := map[string]bool{}
	crashes := 0
	for _, b := range a.Boots {
		if !b.Complete || b.Begin.Before(now.Add(-24*time.Hour)) {
			continue
		}
		if b.Resume {
			rw.Resumes++
			continue
		}
		rw.Boots++
		if b.CrashRestart() {
			crashes++
		}
		work := false
		for _, ph := range b.Phases {
			if ph.ReleaseWork {
				work = true
				kinds[ph.Name] = true
			}
		}
		if work {
			rw.BootsWithWork++
		}
	}
	if crashes > 0 { // item 1 counts them apart: say how these boots add up
		rw.Source = fmt.Sprintf("logs (24 h): %d cold boots and %d crash restarts", rw.Boots-crashes, crashes)
	}
	releases := map[string]bool{}
	for _, m := range a.Machines {
		if m.Config != nil {
			releases[m.Release] = true
		}
	}
	rw.Releases = max(1, len(releases))
	for k := range kinds {
		rw.Kinds = append(rw.Kinds, k)
	}
	sort.Strings(rw.Kinds)
	return rw
}

func (a *App) crashEvidence() *checklist.Crash {
	c := &checklist.Crash{Source: "machine events (newest crash time between looks)"}
	rel := a.CurrentRelease()
	for _, m := range a.Machines {
		if rel != "" && m.Config != nil && m.Release != rel {
			continue
		}
		c.Machines++
		switch m.Crash.Kind {
		case diagnose.CrashLooping:
			c.Looping, c.Known = true, true
			c.Reason = diagnose.CrashLoopReason
		case diagnose.GaveUp:
			c.GaveUp, c.Known = true, true
			if c.Reason == "" {
				c.Reason = m.Crash.Reason
			}
		case diagnose.Steady:
			c.Known = true
		}
	}
	return c
}
