package snapshot

import (
	"fmt"
	"sort"
	"time"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/words"
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
	ev.Deployed = a.machineEvidence().deployed
	if cfgM != nil {
		sw := &checklist.SwapUse{}
		for id, p := range a.Meminfo {
			if p.Err != "" {
				continue
			}
			if sw.UsedKB == nil {
				sw.UsedKB = map[string]int{}
			}
			sw.UsedKB[id] = int(p.Value.SwapUsedKB())
			sw.MachinesProbed++
		}
		if sw.MachinesProbed > 0 {
			sw.Source = fmt.Sprintf("exec /proc/meminfo on %s", words.Count(sw.MachinesProbed, "machine", "machines"))
			ev.Swap = sw
		}
		if cw := a.CloseWait(); len(cw) > 0 {
			ev.Sockets = &checklist.Sockets{CloseWait: cw, Source: fmt.Sprintf("/proc/net/tcp{,6} on %s", words.Count(len(cw), "machine", "machines"))}
		}
		ev.HealthChecks = a.machineEvidence().checks
	}
	// The APIs that failed: what the items reading them could not check.
	ev.Unread = map[checklist.Input]checklist.Unread{}
	if a.LogsErr != "" {
		ev.Unread[checklist.InputLogs] = checklist.Unread{Cause: orError(a.LogsCause), Detail: a.LogsErr}
	}
	if eo := a.Metrics; eo != nil && eo.Err != "" {
		ev.Unread[checklist.InputMetrics] = checklist.Unread{Cause: orError(eo.Cause), Detail: eo.Err}
	}
	if u, ok := a.execUnread(); ok {
		ev.Unread[checklist.InputExec] = u
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

// machineEvidence is what the checklist reads of the machines alone,
// worked out once while they stand (a listing of 10,000 unchanged machines
// walks none of them for it).
func (a *App) machineEvidence() *derived {
	d := a.derived()
	if !d.evidenceOK {
		d.deployed, d.checks, d.releases, d.evidenceOK = a.deployed(), a.checkStatuses(), a.releaseCount(), true
	}
	return d
}

// releaseCount is how many releases the machines with a config run.
func (a *App) releaseCount() int {
	releases := map[string]bool{}
	for _, m := range a.Machines {
		if m.Config != nil {
			releases[m.Release] = true
		}
	}
	return len(releases)
}

// deployed is one machine's config for each process group of the current
// release (the machines of a group share it; a serving machine speaks for
// its group first), in the order the groups first appear.
func (a *App) deployed() *checklist.Deployed {
	rel := a.CurrentRelease()
	d := &checklist.Deployed{}
	index := map[string]int{}
	for _, m := range a.Machines {
		if m.Config == nil || (rel != "" && m.Release != rel) {
			continue
		}
		name := m.ProcessGroup
		if name == "" {
			name = "app"
		}
		i, seen := index[name]
		if seen && (len(d.Groups[i].Services) > 0 || !m.serves()) {
			continue
		}
		g := deployedGroup(name, m)
		if seen {
			d.Groups[i] = g
			continue
		}
		index[name] = len(d.Groups)
		d.Groups = append(d.Groups, g)
	}
	if len(d.Groups) == 0 {
		return nil
	}
	return d
}

func deployedGroup(name string, m Machine) checklist.DeployedGroup {
	cfg := m.Config
	g := checklist.DeployedGroup{Name: name, Machine: m.ID, SwapMB: cfg.SwapMB, MemoryMB: cfg.MemoryMB, SuspendBlockers: cfg.SuspendBlockers}
	for _, s := range cfg.Services {
		ds := checklist.DeployedService{InternalPort: s.InternalPort, AutoStop: s.Autostop}
		if s.AutostartSet {
			v := s.Autostart
			ds.AutoStart = &v
		}
		if s.MinRunningSet {
			v := s.MinRunning
			ds.MinRunning = &v
		}
		if c := s.Concurrency; c != nil {
			ds.Concurrency = diagnose.Concurrency{Type: c.Type, Soft: c.SoftLimit, Hard: c.HardLimit, Configured: true}
		}
		for _, c := range s.Checks {
			ds.Checks = append(ds.Checks, checklist.HealthCheck{Kind: c.Type, Path: c.Path, Interval: c.Interval})
		}
		g.Services = append(g.Services, ds)
	}
	for _, c := range cfg.Checks {
		g.Checks = append(g.Checks, checklist.HealthCheck{Name: c.Name, Kind: c.Type, Path: c.Path, Interval: c.Interval})
	}
	return g
}

// checkStatuses are the checks the platform reports on the started
// machines of the current release (a stopped machine's check says nothing
// about the app); nil when none reports any.
func (a *App) checkStatuses() *checklist.HealthChecks {
	rel := a.CurrentRelease()
	h := &checklist.HealthChecks{}
	machines := 0
	for _, m := range a.Machines {
		if len(m.Checks) == 0 || m.State != "started" || (rel != "" && m.Config != nil && m.Release != rel) {
			continue
		}
		machines++
		for _, c := range m.Checks {
			h.Checks = append(h.Checks, checklist.HealthCheck{Name: c.Name, Machine: m.ID, Status: c.Status})
		}
	}
	if machines == 0 {
		return nil
	}
	h.Source = "check status on " + words.Count(machines, "started machine", "started machines")
	return h
}

// execUnread is the exec API's failure when a probe failed because the API
// did and no probe of the same kind read anything: the image probe and
// the socket tables the checklist reads.
func (a *App) execUnread() (checklist.Unread, bool) {
	var u checklist.Unread
	failed := func(kind string, ok bool, cause diagnose.Cause, err string) {
		if !ok && cause != "" && u.Cause == "" {
			u = checklist.Unread{Cause: cause, Detail: kind + ": " + err}
		}
	}
	if _, p, ok := a.BytecodeFor(); ok {
		failed("the bytecode probe", p.Err == "", p.APIFailed, p.Err)
	}
	read, cause, err := false, diagnose.Cause(""), ""
	for _, p := range a.Sockets {
		read = read || p.Err == ""
		if p.APIFailed != "" && cause == "" {
			cause, err = p.APIFailed, p.Err
		}
	}
	failed("the socket tables", read, cause, err)
	return u, u.Cause != ""
}

func orError(c diagnose.Cause) diagnose.Cause {
	if c == "" {
		return diagnose.CauseError
	}
	return c
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
	if !a.LogsRead {
		return nil // no logs read (read ones without a boot still count: "no boots")
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
	rw.Releases = max(1, a.machineEvidence().releases)
	for k := range kinds {
		rw.Kinds = append(rw.Kinds, k)
	}
	sort.Strings(rw.Kinds)
	return rw
}

func (a *App) crashEvidence() *checklist.Crash {
	// The release judge's crash picture, as every surface shows it.
	c := a.Rollout.Crashes()
	out := &checklist.Crash{Source: "machine events (newest crash time between looks)", Machines: c.Judged,
		Looping: len(c.Looping) > 0, GaveUp: len(c.GaveUp) > 0, Known: c.Steady > 0 || c.Crashing(),
		Unread: len(c.Unread), UnreadReason: c.UnreadReason()}
	switch {
	case out.Looping:
		out.Reason = diagnose.CrashLoopReason
	case out.GaveUp:
		for _, m := range a.Rollout.Judged() {
			if m.Crash.Kind == diagnose.GaveUp {
				out.Reason = m.Crash.Reason
				break
			}
		}
	}
	return out
}
