// Package machine is the one model of a machine that everything above the
// client reads: plain values copied once from fly-go's (FromFly), every
// string made inert, nothing a reader must nil-check but Config. Raw fly-go
// machines stop here: sources/snapshot builds the app's model from these,
// the crash judge (sources/verdict) and the wake test read them.
package machine

import (
	"slices"
	"sort"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/words"
)

// Machine is one machine as it was listed.
type Machine struct {
	ID, Name, State, Region string
	ProcessGroup            string // "" when the config names none
	Release                 string // fly_release_version, "" unknown
	Version                 string // the API's version (an instance id)
	InstanceID              string
	Image                   string // registry/repository:tag as the platform reports it
	ImageDigest             string // "sha256:…", "" unknown
	HostStatus              string // "ok", "unknown", "unreachable"; "" unreported
	Cordoned                bool   // the edge routes no requests to it
	CreatedAt, UpdatedAt    time.Time

	Checks []Check // as listed
	Events []Event // as listed (the platform's order: newest first)
	Config *Config // nil: no config reported
	// Dropped counts the null checks and events the entry held, left out.
	Dropped int

	Phase diagnose.Phase
}

// Check is one health check's last result.
type Check struct {
	Name, Status, Output string
	UpdatedAt            time.Time
}

// Passing reports whether the check passes.
func (c Check) Passing() bool { return c.Status == "passing" }

// Event is one of the machine's recent events.
type Event struct {
	Type, Status, Source string
	At                   time.Time // the event's time (an exit's time when it has none)
	Crash                bool      // an exit the machine did not ask for (diagnose.IsCrash)
	OOMKilled            bool
	ExitCode             int
	Restarting           bool // an exit the platform is restarting the machine after
	ExitRead             bool // an exit event with its exit payload (code, OOM kill) reported and readable
}

// Config is what the panes and rules read from a machine's config.
type Config struct {
	// Incomplete: the host was unreachable and the platform rebuilt this
	// from incomplete_config; it may be partial or old.
	Incomplete bool

	Image           string
	CPUKind         string
	CPUs, MemoryMB  int
	SwapMB          int // 0: none
	Schedule        string
	Autostop        string // "off", "stop", "suspend": the most aggressive service's
	Autostart       bool   // some service lets the proxy start the machine
	SuspendBlockers []string
	Services        []Service
	Checks          []ConfigCheck // top-level checks, by name
	RestartPolicy   string
	RestartRetries  int
	Entrypoint      []string
	Cmd             []string
	Exec            []string
	Metadata        map[string]string
	// PrimaryRegion is the env's PRIMARY_REGION (fly deploy sets it on
	// every machine): where min_machines_running holds. "" unknown.
	PrimaryRegion string
	// MinRunning is the machine's min_machines_running
	// (diagnose.MinRunning); nil when no service sets it.
	MinRunning *int
}

// Service is one service of the config.
type Service struct {
	Protocol      string
	InternalPort  int
	Autostop      string // "off", "stop", "suspend"
	AutostartSet  bool
	Autostart     bool
	MinRunningSet bool
	MinRunning    int
	Concurrency   *Concurrency // nil: none configured
	Checks        []ConfigCheck
}

// Concurrency is a service's concurrency block.
type Concurrency struct {
	Type                 string
	SoftLimit, HardLimit int
}

// ConfigCheck is one configured check (a service's or a top-level one).
type ConfigCheck struct {
	Name                  string // top-level checks only
	Type                  string
	Port                  int // 0: unset
	Path                  string
	Interval, GracePeriod time.Duration
}

// FromFly copies what flywake reads out of fm, cleaning every string: a
// name, an id, a state is a Field, a check's output a Line. fm must not
// be nil.
func FromFly(fm *fly.Machine) Machine {
	m, _ := fromFly(fm, nil, nil, nil)
	return m
}

// kept is prev when s, a scratch slice, holds what it does (a machine's
// checks or events unchanged since the last listing: nothing to allocate
// or for a reader to tell apart), else a copy of s. Nil when s is empty.
func kept[T comparable](s, prev []T) []T {
	switch {
	case len(s) == 0:
		return nil
	case slices.Equal(s, prev):
		return prev
	}
	return slices.Clone(s)
}

// Kept is what a conversion keeps of the entry it read beside the machine
// made of it, so that the next conversion of the same machine
// (Configs.FromFlyKept) reuses what it parsed of a value the entry sends
// byte for byte as before: the text of its two timestamps. The zero Kept
// reuses nothing.
type Kept struct {
	createdAt, updatedAt string // as the entry had them
}

// fromFly is FromFly, converting the config through cs (nil: afresh) and
// keeping prev's checks and events where fm's convert to the same (prev
// may be nil; it is used only with cs), and prev's times where was, what
// prev's conversion kept (nil: nothing), holds the text fm has. It
// returns what to keep of fm.
func fromFly(fm *fly.Machine, cs *Configs, prev *Machine, was *Kept) (Machine, Kept) {
	line := sanitize.Field
	m := Machine{
		ID: line(fm.ID), Name: line(fm.Name), State: line(fm.State), Region: line(fm.Region),
		Version: line(fm.Version), InstanceID: line(fm.InstanceID),
		ImageDigest: line(fm.ImageRef.Digest), HostStatus: line(string(fm.HostStatus)),
	}
	if prev == nil {
		was = nil
	}
	if was != nil && fm.CreatedAt != "" && fm.CreatedAt == was.createdAt {
		m.CreatedAt = prev.CreatedAt // time.Parse is a function of the text
	} else {
		m.CreatedAt = parseTime(fm.CreatedAt)
	}
	if was != nil && fm.UpdatedAt != "" && fm.UpdatedAt == was.updatedAt {
		m.UpdatedAt = prev.UpdatedAt
	} else {
		m.UpdatedAt = parseTime(fm.UpdatedAt)
	}
	if fm.ImageRef.Repository != "" {
		m.Image = cs.imageOf(fm.ImageRef)
	}
	var checks []Check
	var events []Event
	if cs != nil {
		checks, events = cs.checks[:0], cs.events[:0] // scratch: kept only when new
	} else {
		if len(fm.Checks) > 0 {
			checks = make([]Check, 0, len(fm.Checks)) // one allocation, not a growing slice
		}
		if len(fm.Events) > 0 {
			events = make([]Event, 0, len(fm.Events))
		}
	}
	for _, c := range fm.Checks {
		if c == nil {
			m.Dropped++
			continue
		}
		ch := Check{Name: line(c.Name), Status: line(string(c.Status)), Output: sanitize.Line(c.Output)}
		if c.UpdatedAt != nil {
			ch.UpdatedAt = datable(*c.UpdatedAt)
		}
		checks = append(checks, ch)
	}
	for _, e := range fm.Events {
		if e == nil {
			m.Dropped++
			continue
		}
		events = append(events, EventFromFly(e))
	}
	m.Checks, m.Events = checks, events
	if cs != nil {
		cs.checks, cs.events = checks, events
		var wasChecks []Check
		var wasEvents []Event
		if prev != nil {
			wasChecks, wasEvents = prev.Checks, prev.Events
		}
		m.Checks, m.Events = kept(checks, wasChecks), kept(events, wasEvents)
	}
	if len(m.Checks) == 0 {
		m.Checks = nil // only nulls: as if none were listed
	}
	if len(m.Events) == 0 {
		m.Events = nil
	}
	if cfg := fm.GetConfig(); cfg != nil {
		var was *Config
		if prev != nil {
			was = prev.Config
		}
		e := cs.config(cfg, fm.Config == nil, was)
		m.Config, m.ProcessGroup, m.Release = e.cfg, e.processGroup, e.release
	}
	m.Phase = diagnose.Classify(m.State)
	return m, Kept{createdAt: fm.CreatedAt, updatedAt: fm.UpdatedAt}
}

// EventFromFly copies one event (not nil), cleaning its strings: a
// machine's events, or one the recording kept after the platform dropped it.
func EventFromFly(e *fly.MachineEvent) Event {
	line := sanitize.Field
	ev := Event{Type: line(e.Type), Status: line(e.Status), Source: line(e.Source), At: datable(diagnose.EventTime(e)), Crash: diagnose.IsCrash(e)}
	if ee := diagnose.ExitEventOf(e); ee != nil {
		ev.OOMKilled, ev.ExitCode, ev.Restarting = ee.OOMKilled, ee.ExitCode, ee.Restarting
		ev.ExitRead = ee.OOMKilled || diagnose.ExitCodeReadable(ee.ExitCode)
	}
	return ev
}

// Release is the release a machine's config names (its
// fly_release_version metadata; "" none): the one place it is read.
func Release(cfg *fly.MachineConfig) string {
	if cfg == nil {
		return ""
	}
	return cfg.Metadata[fly.MachineConfigMetadataKeyFlyReleaseVersion]
}

func newConfig(cfg *fly.MachineConfig, incomplete bool) *Config {
	line := sanitize.Field
	c := &Config{
		Incomplete: incomplete, Image: line(cfg.Image), Schedule: line(cfg.Schedule),
		Autostop: diagnose.AutostopMode(cfg), Autostart: diagnose.Autostart(cfg),
		SuspendBlockers: sanitize.Lines(diagnose.SuspendBlockers(cfg)),
		Entrypoint:      cleanAll(cfg.Init.Entrypoint), Cmd: cleanAll(cfg.Init.Cmd), Exec: cleanAll(cfg.Init.Exec),
		PrimaryRegion: line(cfg.Env["PRIMARY_REGION"]), MinRunning: diagnose.MinRunning(cfg),
	}
	if g := cfg.Guest; g != nil {
		c.CPUKind, c.CPUs, c.MemoryMB = line(g.CPUKind), g.CPUs, g.MemoryMB
	}
	if s := cfg.Init.SwapSizeMB; s != nil && *s > 0 {
		c.SwapMB = *s
	}
	if r := cfg.Restart; r != nil {
		c.RestartPolicy, c.RestartRetries = line(string(r.Policy)), r.MaxRetries
	}
	if len(cfg.Metadata) > 0 {
		c.Metadata = make(map[string]string, len(cfg.Metadata))
		for k, v := range cfg.Metadata {
			c.Metadata[line(k)] = line(v)
		}
	}
	for _, s := range cfg.Services {
		svc := Service{Protocol: line(s.Protocol), InternalPort: s.InternalPort, Autostop: fly.MachineAutostopOff.String()}
		if s.Autostop != nil && *s.Autostop <= fly.MachineAutostopSuspend {
			svc.Autostop = s.Autostop.String()
		}
		if s.Autostart != nil {
			svc.AutostartSet, svc.Autostart = true, *s.Autostart
		}
		if s.MinMachinesRunning != nil {
			svc.MinRunningSet, svc.MinRunning = true, *s.MinMachinesRunning
		}
		if cc := s.Concurrency; cc != nil {
			svc.Concurrency = &Concurrency{Type: line(cc.Type), SoftLimit: cc.SoftLimit, HardLimit: cc.HardLimit}
		}
		for _, ck := range s.Checks {
			svc.Checks = append(svc.Checks, configCheck("", ck.Type, ck.Port, ck.HTTPPath, ck.Interval, ck.GracePeriod))
		}
		c.Services = append(c.Services, svc)
	}
	names := make([]string, 0, len(cfg.Checks))
	for n := range cfg.Checks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ck := cfg.Checks[n]
		c.Checks = append(c.Checks, configCheck(line(n), ck.Type, ck.Port, ck.HTTPPath, ck.Interval, ck.GracePeriod))
	}
	return c
}

func configCheck(name string, typ *string, port *int, path *string, interval, grace *fly.Duration) ConfigCheck {
	c := ConfigCheck{Name: name}
	if typ != nil {
		c.Type = sanitize.Field(*typ)
	}
	if port != nil {
		c.Port = *port
	}
	if path != nil {
		c.Path = sanitize.Line(*path)
	}
	if interval != nil {
		c.Interval = interval.Duration
	}
	if grace != nil {
		c.GracePeriod = grace.Duration
	}
	return c
}

func cleanAll(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return sanitize.Lines(append([]string(nil), ss...))
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return datable(t)
}

// datable is t, or the zero time (unknown) when it is no date at all
// (words.Datable): an event at the end of int64 milliseconds.
func datable(t time.Time) time.Time {
	if !words.Datable(t) {
		return time.Time{}
	}
	return t
}

// InPrimaryRegion reports whether min_machines_running holds for m
// (diagnose.InPrimaryRegion).
func (m Machine) InPrimaryRegion() bool {
	return m.Config == nil || diagnose.InPrimaryRegion(m.Config.PrimaryRegion, m.Region)
}

// HostDown: the platform could not reach the machine's host, so its config
// comes from incomplete_config and its state may be old.
func (m Machine) HostDown() bool { return m.HostStatus != "" && m.HostStatus != "ok" }

// CheckCounts is how many of the machine's checks pass, of how many.
func (m Machine) CheckCounts() (passing, total int) {
	for _, c := range m.Checks {
		if c.Passing() {
			passing++
		}
	}
	return passing, len(m.Checks)
}

// NewestEvent is the first event listed (the platform lists newest first).
func (m Machine) NewestEvent() (Event, bool) {
	if len(m.Events) == 0 {
		return Event{}, false
	}
	return m.Events[0], true
}
