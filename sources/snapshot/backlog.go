package snapshot

import (
	"slices"

	"github.com/flywake/flywake/sources/diagnose"
)

// BacklogMachines is, per machine, what the backlog verdict weighs: the
// concurrency its service applies and its sockets by state, when a probe of
// its current boot read them (a stopped machine's sockets went with it).
func (a *App) BacklogMachines() []diagnose.BacklogMachine {
	out := make([]diagnose.BacklogMachine, 0, len(a.Machines))
	for _, m := range a.Machines {
		out = append(out, a.BacklogOf(m))
	}
	return out
}

// BacklogOf is what the backlog verdict weighs for m (one entry of
// BacklogMachines): status reports it beside the machine's alerts.
func (a *App) BacklogOf(m Machine) diagnose.BacklogMachine {
	bm := diagnose.BacklogMachine{ID: m.ID, State: m.State, Served: m.serves(), Conc: concurrencyOf(m.Config)}
	p, ok := a.Sockets[m.ID]
	if !ok || m.State != "started" || p.Key != bootKey(m) {
		return bm
	}
	bm.ProbedAt = p.At
	if p.Err != "" {
		bm.ProbeErr = p.Err
		return bm
	}
	bm.Sockets = p.Value
	if bm.Sockets == nil {
		bm.Sockets = map[string]int{}
	}
	return bm
}

// serves reports whether the proxy routes requests to m (it has a service).
func (m Machine) serves() bool { return m.Config != nil && len(m.Config.Services) > 0 }

// concurrencyOf is the first service's concurrency block that sets one (a
// process group's services share their machine's limits).
func concurrencyOf(c *Config) diagnose.Concurrency {
	if c == nil {
		return diagnose.Concurrency{}
	}
	for _, s := range c.Services {
		if cc := s.Concurrency; cc != nil {
			return diagnose.Concurrency{Type: cc.Type, Soft: cc.SoftLimit, Hard: cc.HardLimit, Configured: true}
		}
	}
	return diagnose.Concurrency{}
}

// BacklogVerdict is the Backlog pane's line.
func (a *App) BacklogVerdict() diagnose.Verdict {
	return diagnose.BacklogVerdict(a.BacklogMachines())
}

// Alerts are m's alerts (Machine.Alerts) and, when its sockets show a
// backlog, a "backlog" alert at the Backlog pane's level: what the ALERT
// column draws and `status --json` reports.
func (a *App) Alerts(m Machine) []Alert {
	out := m.Alerts()
	switch bm := a.BacklogOf(m); bm.Level() {
	case diagnose.Fail, diagnose.Warn:
		out = append(out, Alert{"backlog", bm.Level(), "backlog"})
		// Most severe first, as Machine.Alerts orders them.
		slices.SortStableFunc(out, func(x, y Alert) int { return diagnose.WorstFirst(x.Level, y.Level) })
	}
	return out
}

// BacklogLevel grades one machine's socket backlog (Unknown: not probed in
// this boot); the Machines pane badges Warn and Fail.
func (a *App) BacklogLevel(id string) (diagnose.Level, int) {
	m, ok := a.Machine(id)
	if !ok {
		return diagnose.Unknown, -1
	}
	bm := a.BacklogOf(m)
	return bm.Level(), bm.CloseWait()
}
