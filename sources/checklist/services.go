package checklist

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// config is whose configuration an item judges: the project's fly.toml,
// as Fly will apply it, beside the deployed release it replaces; or the
// deployed release alone when no project file answers the item.
type config struct {
	f   *repo.FlyToml // nil: the deployed release's config is judged
	dep *Deployed     // nil: nothing deployed is known
	rel string        // "v57"; "" unknown
}

// configOf decides it, and says so on the item (its Judges, and a note
// when a project without fly.toml leaves the deployed config to judge).
// ok is false when there is nothing to judge: fly.toml could not be read
// (the item is unknown and could not read it), the project has no fly.toml
// and nothing is deployed (n/a), or nothing is known at all (unknown).
func configOf(b *itemBuilder, e Evidence) (c config, ok bool) {
	c = config{dep: e.Deployed, rel: releaseName(e.Release)}
	switch {
	case e.Project == nil && len(fileErrors(e, "")) > 0, e.Project.Has(repo.FlyTomlFile):
		if !localFile(b, e, repo.FlyTomlFile) {
			return c, false
		}
		c.f = e.Project.FlyToml
		b.item.Judges = JudgesProject
		return c, true
	case c.dep != nil && len(c.dep.Groups) > 0:
		b.item.Judges = JudgesDeployed
		if e.Project != nil && len(e.Project.Present) > 0 { // with no file at all, the report's header says it
			b.note("", "no fly.toml in the project directory: the deployed config is judged")
		}
		return c, true
	}
	localFile(b, e, repo.FlyTomlFile)
	return c, false
}

// deployedSource names a fact from the deployed release: "deployed v57 ·
// machine config of 13a0dd9ce69eb3".
func (c config) deployedSource(what string) string {
	rel := "deployed"
	if c.rel != "" {
		rel += " " + c.rel
	}
	if what == "" {
		return rel
	}
	return rel + " · " + what
}

// platformSource names a platform fact (a probe, logs) the same way; ""
// stays "" so a fact without a source keeps none.
func platformSource(e Evidence, what string) string {
	if what == "" {
		return ""
	}
	return config{rel: releaseName(e.Release)}.deployedSource(what)
}

// service is one service as an item judges it.
type service struct {
	label string // "[http_service]", "internal_port 8000 (group web)"; "" when it is the only one

	project *repo.Service // nil: the deployed one is judged
	path    string        // its fly.toml key prefix ("http_service", "services.1")

	deployed *DeployedService // the deployed counterpart; nil when none
	group    *DeployedGroup   // the deployed group it is in
}

// services lists the services the config applies, each with the deployed
// one it replaces (same process group, same internal port, or the group's
// only service), and the project's services that reach no machine (a
// processes list naming no group of the app), which are not judged.
func (c config) services() (out []service, orphans []string) {
	if c.f == nil {
		return c.deployedServices(), nil
	}
	for i := range c.f.Services {
		s := &c.f.Services[i]
		sv := service{project: s, path: s.Path()}
		if len(c.f.Services) > 1 {
			sv.label = serviceLabel(*s)
		}
		groups := c.f.Groups(s.Processes)
		if len(groups) == 0 {
			orphans = append(orphans, serviceLabel(*s))
			continue
		}
		for _, g := range groups {
			if dg := c.dep.group(g); dg != nil {
				if ds := dg.match(s.InternalPort, len(c.f.Services) == 1); ds != nil {
					sv.deployed, sv.group = ds, dg
					break
				}
			}
		}
		out = append(out, sv)
	}
	return out, orphans
}

func (c config) deployedServices() []service {
	var out []service
	n := 0
	for _, g := range c.dep.Groups {
		n += len(g.Services)
	}
	for gi := range c.dep.Groups {
		g := &c.dep.Groups[gi]
		for si := range g.Services {
			sv := service{deployed: &g.Services[si], group: g}
			if n > 1 {
				sv.label = fmt.Sprintf("internal_port %d", g.Services[si].InternalPort)
				if len(c.dep.Groups) > 1 {
					sv.label += " (group " + g.Name + ")"
				}
			}
			out = append(out, sv)
		}
	}
	return out
}

func serviceLabel(s repo.Service) string {
	if s.Kind == "http_service" {
		return "[http_service]"
	}
	return fmt.Sprintf("[[services]] #%d (internal_port %d)", s.Index+1, s.InternalPort)
}

// group is the deployed group named g, or nil.
func (d *Deployed) group(g string) *DeployedGroup {
	if d == nil {
		return nil
	}
	for i := range d.Groups {
		if d.Groups[i].Name == g {
			return &d.Groups[i]
		}
	}
	return nil
}

// match is the group's service on internal port port, else (when the
// project has one service too) its only one: a port the deploy changes.
func (g *DeployedGroup) match(port int, onlyOne bool) *DeployedService {
	for i := range g.Services {
		if g.Services[i].InternalPort == port {
			return &g.Services[i]
		}
	}
	if onlyOne && len(g.Services) == 1 {
		return &g.Services[0]
	}
	return nil
}

// src is where a fact about key of the service comes from: the project's
// line for it (the block's line when the key is absent), or the deployed
// machine config.
func (c config) src(s service, key string) string {
	if s.project == nil {
		return c.deployedSource("machine config of " + s.group.Machine)
	}
	if key != "" && c.f.Line(s.path+"."+key) > 0 {
		return c.f.Source(s.path + "." + key)
	}
	if i := strings.LastIndexByte(key, '.'); i > 0 && c.f.Line(s.path+"."+key[:i]) > 0 {
		return c.f.Source(s.path + "." + key[:i])
	}
	return c.f.Source(s.path)
}

// set reports whether the project writes key in the service.
func (c config) set(s service, key string) bool {
	return s.project != nil && c.f.Line(s.path+"."+key) > 0
}

// changed records one setting the deploy changes, when the service has a
// deployed counterpart whose value differs.
func (c config) changed(b *itemBuilder, s service, key, deployed, project string) {
	if s.project == nil || s.deployed == nil || deployed == project {
		return
	}
	setting := settingName(key)
	if s.label != "" {
		setting = s.label + " " + setting
	}
	b.item.Changes = append(b.item.Changes, Change{Setting: setting, Deployed: deployed, Project: project, Source: c.src(s, key)})
}

// settingName is a key as a change names it: its own name ("hard_limit"),
// "concurrency type" for the one that would not say which.
func settingName(key string) string {
	name := key[strings.LastIndexByte(key, '.')+1:]
	if key == "concurrency.type" {
		return "concurrency type"
	}
	return name
}

// concurrency is the service's concurrency as Fly applies it.
func (s service) concurrency() diagnose.Concurrency {
	if s.project == nil {
		return s.deployed.Concurrency
	}
	pc := s.project.Concurrency
	if pc == nil {
		return diagnose.Concurrency{}
	}
	return diagnose.Concurrency{Type: pc.Type, Soft: pc.SoftLimit, Hard: pc.HardLimit, Configured: true}
}

// sleep is the service's autostop setup with Fly's defaults applied:
// autostop off, autostart on, min_machines_running 0.
type sleep struct {
	autoStop   string
	autoStart  bool
	minRunning int
}

func (s service) sleep() sleep {
	if s.project == nil {
		return deployedSleep(*s.deployed)
	}
	p := s.project
	out := sleep{autoStop: string(p.AutoStop), autoStart: true}
	if out.autoStop == "" {
		out.autoStop = string(repo.AutoStopOff)
	}
	if p.AutoStart != nil {
		out.autoStart = *p.AutoStart
	}
	if p.MinMachinesRunning != nil {
		out.minRunning = *p.MinMachinesRunning
	}
	return out
}

func deployedSleep(d DeployedService) sleep {
	out := sleep{autoStop: d.AutoStop, autoStart: true}
	if out.autoStop == "" {
		out.autoStop = string(repo.AutoStopOff)
	}
	if d.AutoStart != nil {
		out.autoStart = *d.AutoStart
	}
	if d.MinRunning != nil {
		out.minRunning = *d.MinRunning
	}
	return out
}

func yesNo(b bool) string { return strconv.FormatBool(b) }
