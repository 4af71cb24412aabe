package checklist

import (
	"fmt"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/repo"
	"github.com/flywake/flywake/sources/words"
)

const healthReminder = "a check runs on a machine that is already up: it cannot see the boot window before that machine existed (see cold start and edge versus origin)"

const healthFix = "Add `[[http_service.checks]]` with `path = '/api/health/'` (a real route through the app), `interval = '15s'`, `timeout = '5s'`; a TCP check only proves the port is open."

// healthChecksRule: the checks each service (and the machines) will have
// as Fly applies them, on a real route; what the deploy changes; and the
// checks that fail on the deployed machines now.
func healthChecksRule(e Evidence) Item {
	b := newItem(IDHealthChecks)
	if c, ok := configOf(b, e); ok {
		judgeConfiguredChecks(b, c)
	}
	if h := e.HealthChecks; h != nil {
		failingChecks(b, h, platformSource(e, h.Source))
	}
	if b.item.Status != NA {
		b.note("", "%s", healthReminder)
	}
	b.fix(healthFix)
	return b.done()
}

// failingChecks warns once per check and status, naming the machines.
func failingChecks(b *itemBuilder, h *HealthChecks, source string) {
	type key struct{ name, status string }
	var order []key
	on := map[key][]string{}
	for _, c := range h.Checks {
		if c.Status != "critical" && c.Status != "warning" {
			continue
		}
		k := key{c.Name, c.Status}
		if _, seen := on[k]; !seen {
			order = append(order, k)
		}
		if c.Machine != "" {
			on[k] = append(on[k], c.Machine)
		} else if on[k] == nil {
			on[k] = []string{}
		}
	}
	for _, k := range order {
		where := ""
		if ms := on[k]; len(ms) > 0 {
			where = " on " + strings.Join(ms, ", ")
		}
		b.judge(Warn, source, "check %s is %s%s", k.name, k.status, where)
	}
}

// check is one configured check as the rule compares it.
type check struct {
	kind, path string
	interval   time.Duration
	port       int
	src        string
}

// describe is a check in the words both sides share ("HTTP GET
// /api/health/ every 15s"), the port left out: the deployed config often
// has none where fly.toml takes the service's.
func (c check) describe() string {
	out := strings.ToUpper(c.kind)
	if c.kind == "http" {
		out += " GET " + c.path
		if c.path == "" {
			out += "/"
		}
	}
	if c.interval > 0 {
		out += " every " + words.Duration(c.interval, words.Whole)
	}
	return out
}

func describeAll(cs []check) string {
	if len(cs) == 0 {
		return "none"
	}
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.describe())
	}
	return strings.Join(parts, "; ")
}

func judgeConfiguredChecks(b *itemBuilder, c config) {
	svcs, _ := c.services()
	seen := 0
	for _, s := range svcs {
		checks := serviceChecks(c, s)
		for _, ch := range checks {
			judgeCheck(b, ch)
		}
		seen += len(checks)
		if s.deployed != nil {
			c.changed(b, s, "checks", describeAll(deployedChecks(c, s.deployed.Checks, s.group)), describeAll(checks))
		}
	}
	top := topChecks(c)
	for _, ch := range top {
		judgeCheck(b, ch)
	}
	seen += len(top)
	if g := machineGroup(c, svcs); c.f != nil && g != nil {
		if d, p := describeAll(deployedChecks(c, g.Checks, g)), describeAll(top); d != p {
			b.item.Changes = append(b.item.Changes, Change{Setting: "[checks]", Deployed: d, Project: p, Source: c.f.Source("checks")})
		}
	}
	if seen == 0 && len(svcs) > 0 {
		what := "no health check"
		if c.f == nil {
			what = "the machine config has no health check"
		}
		b.judge(Warn, c.src(svcs[0], ""), "%s: the proxy routes to machines that are up but not serving", what)
	}
}

// serviceChecks are the checks of a service as the rule judges them.
func serviceChecks(c config, s service) []check {
	if s.project == nil {
		return deployedChecks(c, s.deployed.Checks, s.group)
	}
	var out []check
	for _, ch := range s.project.Checks {
		out = append(out, check{kind: ch.Kind, path: ch.Path, interval: ch.Interval, port: ch.Port, src: repo.Source(repo.FlyTomlFile, ch.Line)})
	}
	return out
}

func deployedChecks(c config, hs []HealthCheck, g *DeployedGroup) []check {
	var out []check
	for _, h := range hs {
		out = append(out, check{kind: h.Kind, path: h.Path, interval: h.Interval, src: c.deployedSource("machine config of " + g.Machine)})
	}
	return out
}

// topChecks are the top-level [checks] of the judged group(s).
func topChecks(c config) []check {
	if c.f == nil {
		var out []check
		for i := range c.dep.Groups {
			g := &c.dep.Groups[i]
			out = append(out, deployedChecks(c, g.Checks, g)...)
		}
		return out
	}
	var out []check
	for _, ch := range c.f.Checks {
		if len(c.f.Groups(ch.Processes)) == 0 {
			continue // goes to no machine (a project warning says so)
		}
		out = append(out, check{kind: ch.Kind, path: ch.Path, interval: ch.Interval, port: ch.Port, src: repo.Source(repo.FlyTomlFile, ch.Line)})
	}
	return out
}

func machineGroup(c config, svcs []service) *DeployedGroup {
	if len(svcs) > 0 && svcs[0].group != nil {
		return svcs[0].group
	}
	if c.f != nil {
		return c.dep.group(c.f.DefaultProcessGroup())
	}
	return nil
}

func judgeCheck(b *itemBuilder, c check) {
	where := ""
	if c.port > 0 {
		where = fmt.Sprintf(" on port %d", c.port)
	}
	every := ""
	if c.interval > 0 {
		every = " every " + words.Duration(c.interval, words.Whole)
	}
	switch {
	case c.kind == "http" && c.path != "":
		b.judge(Pass, c.src, "HTTP check GET %s%s%s", c.path, every, where)
	case c.kind == "http":
		b.judge(Warn, c.src, "HTTP check without a path%s: it probes / rather than a route that exercises the app", where)
	default:
		b.judge(Warn, c.src, "%s check%s%s: an open port is not a working app", c.kind, every, where)
	}
}
