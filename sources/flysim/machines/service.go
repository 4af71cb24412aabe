package machines

import (
	"fmt"
	"maps"
	"slices"

	fly "github.com/superfly/fly-go"
)

// What a machine's own config says to the proxy and the health checker: its
// HTTP service (the one behind the app's 80/443, the edge's ports) and its
// checks. The app's profile seeded the demo's first configs; from then on
// each machine's config decides, as on Fly.

// Fly's defaults for a service without a concurrency block.
const (
	defaultSoftLimit = 20
	defaultHardLimit = 25
)

// Service is a machine's HTTP service as the proxy applies it.
type Service struct {
	Port       int // internal_port
	Autostop   fly.MachineAutostop
	Autostart  bool
	MinRunning int // min_machines_running
	Type       string
	Soft, Hard int // Hard 0: no hard limit
}

// Service is the service the edge routes to on m, if its config has one:
// the first that listens on 80 or 443, else the first.
func (m *Machine) Service() (Service, bool) { return m.svc, m.hasSvc }

// setConfig gives m a new config and works its service out once: the edge
// asks for it on every routing decision, thousands of times a simulated
// hour.
func (m *Machine) setConfig(cfg *fly.MachineConfig) {
	m.cfg = cfg
	m.svc, m.hasSvc = serviceOf(cfg)
}

func serviceOf(cfg *fly.MachineConfig) (Service, bool) {
	if cfg == nil || len(cfg.Services) == 0 {
		return Service{}, false
	}
	svc := &cfg.Services[0]
	for i := range cfg.Services {
		if onEdgePorts(&cfg.Services[i]) {
			svc = &cfg.Services[i]
			break
		}
	}
	out := Service{Port: svc.InternalPort, Type: "connections", Soft: defaultSoftLimit, Hard: defaultHardLimit}
	if svc.Autostop != nil {
		out.Autostop = *svc.Autostop
	}
	if svc.Autostart != nil {
		out.Autostart = *svc.Autostart
	}
	if svc.MinMachinesRunning != nil {
		out.MinRunning = *svc.MinMachinesRunning
	}
	if c := svc.Concurrency; c != nil {
		if c.Type != "" {
			out.Type = c.Type
		}
		out.Soft, out.Hard = c.SoftLimit, c.HardLimit
		if out.Soft <= 0 {
			out.Soft = defaultSoftLimit
		}
	}
	return out, true
}

func onEdgePorts(svc *fly.MachineService) bool {
	for _, p := range svc.Ports {
		if p.Port != nil && (*p.Port == 80 || *p.Port == 443) {
			return true
		}
	}
	return false
}

// check is one health check of a machine's config.
type check struct {
	name, kind string // kind: http | tcp
	port       int
	path       string
}

// checksOf are cfg's health checks: each service's (named as Fly names
// them, servicecheck-NN-<type>-<port>), then the top-level ones by name.
func checksOf(cfg *fly.MachineConfig) []check {
	if cfg == nil {
		return nil
	}
	var out []check
	for _, svc := range cfg.Services {
		for i, c := range svc.Checks {
			k := check{kind: deref(c.Type, "tcp"), port: svc.InternalPort, path: deref(c.HTTPPath, "/")}
			if c.Port != nil {
				k.port = *c.Port
			}
			k.name = fmt.Sprintf("servicecheck-%02d-%s-%d", i, k.kind, k.port)
			out = append(out, k)
		}
	}
	for _, name := range sortedKeys(cfg.Checks) {
		c := cfg.Checks[name]
		k := check{name: name, kind: deref(c.Type, "tcp"), path: deref(c.HTTPPath, "/")}
		if c.Port != nil {
			k.port = *c.Port
		}
		out = append(out, k)
	}
	return out
}

// healthCheck is the check whose first pass the app's log shows as it
// comes up: the first HTTP one, else the first.
func healthCheck(cfg *fly.MachineConfig) (check, bool) {
	checks := checksOf(cfg)
	for _, c := range checks {
		if c.kind == "http" {
			return c, true
		}
	}
	if len(checks) > 0 {
		return checks[0], true
	}
	return check{}, false
}

func deref(p *string, fallback string) string {
	if p == nil || *p == "" {
		return fallback
	}
	return *p
}

// processGroup is the machine's fly_process_group ("app" when unset).
func processGroup(cfg *fly.MachineConfig) string {
	if cfg != nil && cfg.Metadata["fly_process_group"] != "" {
		return cfg.Metadata["fly_process_group"]
	}
	return "app"
}

// ProcessGroup is m's process group.
func (m *Machine) ProcessGroup() string { return processGroup(m.cfg) }

// PrimaryRegion is the app's primary region as m's config tells it
// (PRIMARY_REGION, which flyctl sets), else the app's.
func (m *Machine) PrimaryRegion() string {
	if m.cfg != nil && m.cfg.Env["PRIMARY_REGION"] != "" {
		return m.cfg.Env["PRIMARY_REGION"]
	}
	return m.app.p.Region
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
