package waketest

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
	plain "github.com/flywake/flywake/sources/snapshot/machine"
)

// Target is one machine the test will put to sleep, as preflight saw it.
type Target struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	Region     string `json:"region,omitempty"`
	State      string `json:"state"` // when the plan was made
	InstanceID string `json:"-"`
	// CanSuspend is true when nothing in the config blocks suspend; the API
	// may still refuse (its own text then lands in suspend_blocked_by).
	CanSuspend bool     `json:"can_suspend"`
	Blockers   []string `json:"suspend_blockers"`
}

// Plan is a Setup resolved against the app's machines: what will happen.
// Build it with Prepare (or Preflight, which is pure) and run it with Run.
type Plan struct {
	Setup        Setup
	ProcessGroup string
	Targets      []Target
	// Kept are the machines that stay running (min_machines_running).
	Kept []string
	// Running counts machines that stay started during the test.
	Running   int
	SoftLimit int
	Requests  int
	Path      string
	URL       string
	Release   string
	Warnings  []string

	env Env
}

// TargetIDs lists the targets' ids, for confirmations.
func (p *Plan) TargetIDs() []string {
	out := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		out[i] = t.ID
	}
	return out
}

// gone states leave a machine out of the test entirely.
func gone(state string) bool {
	return diagnose.Classify(state) == diagnose.Gone
}

// hasService reports whether the machine takes traffic through the proxy.
func hasService(m *fly.Machine) bool {
	c := m.GetConfig()
	return c != nil && len(c.Services) > 0
}

func processGroup(m *fly.Machine) string {
	if g := m.GetConfig().ProcessGroup(); g != "" {
		return g
	}
	return "app"
}

// Preflight resolves s against the app's machines without any I/O: the
// process group, the targets and what blocks their suspend, the request
// count, the path and the warnings.
func Preflight(machines []*fly.Machine, s Setup) (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	s = s.withDefaults()
	p := &Plan{Setup: s, URL: s.BaseURL()}

	group, gwarn, err := pickGroup(machines, s.ProcessGroup)
	if err != nil {
		return nil, err
	}
	p.ProcessGroup = group
	p.Warnings = append(p.Warnings, gwarn...)
	var members []*fly.Machine
	for _, m := range machines {
		if m == nil || gone(m.State) || processGroup(m) != group {
			continue
		}
		if sanitize.Line(m.ID) != m.ID || m.ID == "" {
			// Never act on a machine whose id would reach the screen
			// altered: the id shown would not be the id stopped.
			p.Warnings = append(p.Warnings, fmt.Sprintf("machine %q has an id that is not plain text; left alone", m.ID))
			continue
		}
		members = append(members, m)
	}
	sort.Slice(members, func(i, j int) bool { return members[i].ID < members[j].ID })
	svc := firstService(members)

	targets, kept, err := chooseTargets(members, s, minRunning(members))
	if err != nil {
		return nil, err
	}
	p.Kept = kept
	for _, m := range members {
		if m.State == fly.MachineStateStarted && !contains(targetIDs(targets), m.ID) {
			p.Running++
		}
	}
	for _, m := range targets {
		b := diagnose.SuspendBlockers(m.GetConfig())
		p.Targets = append(p.Targets, Target{ID: m.ID, Name: m.Name, Region: m.Region, State: m.State,
			InstanceID: m.InstanceID, CanSuspend: len(b) == 0, Blockers: nonNil(b)})
	}

	p.SoftLimit = softLimit(svc)
	p.Requests = s.Requests
	if p.Requests == 0 {
		p.Requests = min(max(MinDefaultRequests, p.Running*p.SoftLimit+1), MaxRequests)
	}
	p.Path = s.Path
	if p.Path == "" {
		p.Path = checkPath(svc)
	}
	p.Release = release(members)
	p.Warnings = append(p.Warnings, warnings(targets, s.Mode)...)
	if !s.Representative() {
		p.Warnings = append(p.Warnings, "every request is pinned to machine with fly-force-instance-id: "+
			"this measures a path no user takes, so the result is marked not representative")
	}
	// Names, regions, states, blockers, the group and the check path come
	// from the platform: the plan is shown and saved, so it is made inert.
	sanitize.All(p)
	return p, nil
}

// pickGroup finds the process group that carries the service.
func pickGroup(machines []*fly.Machine, want string) (string, []string, error) {
	counts := map[string]int{}
	for _, m := range machines {
		if m != nil && !gone(m.State) && hasService(m) {
			counts[processGroup(m)]++
		}
	}
	if want != "" {
		if counts[want] == 0 {
			return "", nil, fmt.Errorf("process group %q has no machine with a service", want)
		}
		return want, nil, nil
	}
	if len(counts) == 0 {
		return "", nil, errors.New("no machine of this app has a service: nothing reaches it through the edge, so there is nothing to wake")
	}
	groups := make([]string, 0, len(counts))
	for g := range counts {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool {
		if (groups[i] == "app") != (groups[j] == "app") {
			return groups[i] == "app"
		}
		if counts[groups[i]] != counts[groups[j]] {
			return counts[groups[i]] > counts[groups[j]]
		}
		return groups[i] < groups[j]
	})
	var warn []string
	if len(groups) > 1 {
		warn = append(warn, fmt.Sprintf("several process groups have services (%s); testing %q", strings.Join(groups, ", "), groups[0]))
	}
	return groups[0], warn, nil
}

// chooseTargets applies the default (all but min_machines_running, keeping
// started ones running), --all, or an explicit list.
func chooseTargets(members []*fly.Machine, s Setup, minRun int) (targets []*fly.Machine, kept []string, err error) {
	if len(members) == 0 {
		return nil, nil, errors.New("the service's process group has no machines")
	}
	switch {
	case len(s.Machines) > 0:
		byID := map[string]*fly.Machine{}
		for _, m := range members {
			byID[m.ID] = m
		}
		for _, id := range s.Machines {
			m := byID[id]
			if m == nil {
				return nil, nil, fmt.Errorf("machine %s is not in the service's process group (or is gone)", id)
			}
			if !containsMachine(targets, id) {
				targets = append(targets, m)
			}
		}
	case s.All:
		targets = members
	default:
		for _, m := range members {
			if m.State == fly.MachineStateStarted && len(kept) < minRun && inPrimaryRegion(m) {
				kept = append(kept, m.ID)
				continue
			}
			targets = append(targets, m)
		}
		if len(targets) == 0 {
			return nil, nil, fmt.Errorf("nothing to put to sleep: min_machines_running = %d keeps all %d machines running; pass --all to test them anyway",
				minRun, len(members))
		}
	}
	return targets, kept, nil
}

// inPrimaryRegion: whether min_machines_running keeps m running
// (diagnose.InPrimaryRegion).
func inPrimaryRegion(m *fly.Machine) bool {
	c := m.GetConfig()
	return c == nil || diagnose.InPrimaryRegion(c.Env["PRIMARY_REGION"], m.Region)
}

func firstService(ms []*fly.Machine) *fly.MachineService {
	for _, m := range ms {
		if c := m.GetConfig(); c != nil && len(c.Services) > 0 {
			return &c.Services[0]
		}
	}
	return nil
}

// minRunning is the group's min_machines_running as its first machine
// with a service has it (diagnose.MinRunning: the first service that sets
// it), 0 when none does.
func minRunning(members []*fly.Machine) int {
	for _, m := range members {
		if hasService(m) {
			if n := diagnose.MinRunning(m.GetConfig()); n != nil {
				return *n
			}
			return 0
		}
	}
	return 0
}

func softLimit(svc *fly.MachineService) int {
	if svc == nil || svc.Concurrency == nil || svc.Concurrency.SoftLimit <= 0 {
		return DefaultSoftLimit
	}
	return svc.Concurrency.SoftLimit
}

// checkPath is the service's HTTP check path, else "/".
func checkPath(svc *fly.MachineService) string {
	if svc != nil {
		for _, c := range svc.Checks {
			if c.Type != nil && strings.EqualFold(*c.Type, "http") && c.HTTPPath != nil && strings.HasPrefix(*c.HTTPPath, "/") {
				return *c.HTTPPath
			}
		}
	}
	return "/"
}

// release is the group's current release (diagnose.CurrentRelease).
func release(ms []*fly.Machine) string {
	versions := make([]string, 0, len(ms))
	for _, m := range ms {
		versions = append(versions, plain.Release(m.GetConfig()))
	}
	return diagnose.CurrentRelease(versions)
}

// warnings says what will make the test misleading or leave a mess.
func warnings(targets []*fly.Machine, mode Mode) []string {
	var out []string
	autostartOff, autostopOff, autostopStop, blocked := 0, 0, 0, 0
	for _, m := range targets {
		c := m.GetConfig()
		if !diagnose.Autostart(c) {
			autostartOff++
		}
		switch diagnose.AutostopMode(c) {
		case "off":
			autostopOff++
		case "stop":
			autostopStop++
		}
		if len(diagnose.SuspendBlockers(c)) > 0 {
			blocked++
		}
	}
	n := len(targets)
	if autostartOff > 0 {
		out = append(out, fmt.Sprintf("autostart is off on %d of %d machines: nothing will wake the machines, so requests can only fail until you start them", autostartOff, n))
	}
	if autostopOff > 0 {
		out = append(out, fmt.Sprintf("autostop is off on %d of %d machines: machines will not go back to sleep after the test; stop them yourself", autostopOff, n))
	}
	if mode != ModeStop && blocked > 0 {
		out = append(out, fmt.Sprintf("suspend is blocked on %d of %d machines by their config: the API will refuse and the test falls back to stop for them", blocked, n))
	}
	if mode != ModeStop && autostopStop > 0 && blocked < n {
		out = append(out, "the service autostops with \"stop\", not \"suspend\": the suspend run shows what switching would give, not what users get today")
	}
	return out
}

func targetIDs(ms []*fly.Machine) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func containsMachine(ms []*fly.Machine, id string) bool { return contains(targetIDs(ms), id) }

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
