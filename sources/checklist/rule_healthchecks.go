package checklist

import (
	"fmt"

	"github.com/flywake/flywake/sources/repo"
)

const healthReminder = "a check runs on a machine that is already up: it cannot see the boot window before that machine existed (see cold start and edge versus origin)"

const healthFix = "Add `[[http_service.checks]]` with `path = '/api/health/'` (a real route through the app), `interval = '15s'`, `timeout = '5s'`; a TCP check only proves the port is open."

// healthChecksRule: checks exist and probe a real route.
func healthChecksRule(e Evidence) Item {
	b := newItem(IDHealthChecks)
	seen := 0
	if localFile(b, e, repo.FlyTomlFile) {
		f := e.Project.FlyToml
		for _, s := range f.Services {
			for _, c := range s.Checks {
				judgeCheck(b, repo.Source(repo.FlyTomlFile, c.Line), c.Kind, c.Path, c.Interval.String(), c.Port)
				seen++
			}
		}
		for _, c := range f.Checks {
			judgeCheck(b, repo.Source(repo.FlyTomlFile, c.Line), c.Kind, c.Path, c.Interval.String(), c.Port)
			seen++
		}
		if seen == 0 && len(f.Services) > 0 {
			b.judge(Warn, f.Source(f.Services[0].Path()), "no health check: the proxy routes to machines that are up but not serving")
		}
	}
	if h := e.HealthChecks; h != nil {
		fromFile := seen > 0
		for _, c := range h.Checks {
			if !fromFile { // fly.toml already described the same checks
				judgeCheck(b, h.Source, c.Kind, c.Path, c.Interval.String(), 0)
			}
			if c.Status == "critical" || c.Status == "warning" {
				b.judge(Warn, h.Source, "check %s is %s", c.Name, c.Status)
			}
			seen++
		}
		if len(h.Checks) == 0 && seen == 0 {
			b.judge(Warn, h.Source, "the machine config has no health check")
		}
	}
	if b.item.Status != NA || seen > 0 {
		b.note("", "%s", healthReminder)
	}
	b.fix(healthFix)
	return b.done()
}

func judgeCheck(b *itemBuilder, source, kind, path, interval string, port int) {
	where := ""
	if port > 0 {
		where = fmt.Sprintf(" on port %d", port)
	}
	every := ""
	if interval != "" && interval != "0s" {
		every = " every " + interval
	}
	switch {
	case kind == "http" && path != "":
		b.judge(Pass, source, "HTTP check GET %s%s%s", path, every, where)
	case kind == "http":
		b.judge(Warn, source, "HTTP check without a path%s: it probes / rather than a route that exercises the app", where)
	default:
		b.judge(Warn, source, "%s check%s%s: an open port is not a working app", kind, every, where)
	}
}
