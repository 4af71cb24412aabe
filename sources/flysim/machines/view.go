package machines

import (
	"path"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/profile"
)

// What the proxy in front of the machines (and the platform's tests) read
// of the store and ask of it. Callers hold the scheduler's lock: these run
// inside the proxy's events.

// Apps are the org's apps, in creation order.
func (s *Store) Apps() []*App {
	out := make([]*App, len(s.appOrder))
	for i, name := range s.appOrder {
		out[i] = s.apps[name]
	}
	return out
}

// App is the app named name, or nil.
func (s *Store) App(name string) *App { return s.apps[name] }

// Name is the app's name.
func (a *App) Name() string { return a.p.Name }

// Profile is how the app was seeded (read-only).
func (a *App) Profile() *profile.App { return &a.p }

// Machines are the app's machines in creation order, destroyed ones
// included (read-only).
func (a *App) Machines() []*Machine { return a.machines }

// Machine is the app's machine id, or nil.
func (a *App) Machine(id string) *Machine { return a.byID[id] }

// ID is the machine's id.
func (m *Machine) ID() string { return m.id }

// App is the machine's app.
func (m *Machine) App() *App { return m.app }

// Region is where the machine runs.
func (m *Machine) Region() string { return m.region }

// State is the machine's state as the API reports it.
func (m *Machine) State() string { return m.state }

// Serving reports whether its app answers requests.
func (m *Machine) Serving() bool { return m.serving }

// StoppedAt is when it last stopped or suspended.
func (m *Machine) StoppedAt() time.Time { return m.stoppedAt }

// Cordoned reports whether the proxy may route nothing to it.
func (m *Machine) Cordoned() bool { return m.cordoned }

// Config is its current config (shared: never modify it).
func (m *Machine) Config() *fly.MachineConfig { return m.cfg }

// Run counts its incarnations: a request begun in one run is cut off
// when another begins.
func (m *Machine) Run() uint64 { return m.run }

// Changed is closed at its next change of state (or of what it serves).
func (m *Machine) Changed() <-chan struct{} { return m.changed }

// PublicImage names the public image m runs (nginx), if it runs one rather
// than one of its org's builds.
func (m *Machine) PublicImage() (string, bool) {
	if m.image == nil || !m.image.public {
		return "", false
	}
	return path.Base(m.image.repository), true
}

// Leaving reports whether a user is stopping or suspending it.
func (m *Machine) Leaving() bool {
	return (m.state == "stopping" || m.state == "suspending") && m.goingBy == SourceUser
}

// RestartCount is how many times flyd restarted it in its current window.
func (m *Machine) RestartCount() int { return m.restartCount }

// Start starts (or resumes) m, as POST /start does, and returns the state
// it was in.
func (s *Store) Start(m *Machine, source string) (string, error) { return s.startMachine(m, source) }

// Stop stops m with its own stop_config.
func (s *Store) Stop(m *Machine, source string) error { return s.stopMachine(m, source, "") }

// Suspend suspends m; a *PreconditionError says why it cannot be.
func (s *Store) Suspend(m *Machine, source string) error { return s.suspendMachine(m, source) }

// Log records a line of m's, from provider (app, runner, proxy, health).
func (s *Store) Log(m *Machine, provider, level, msg string) { s.logLevel(m, provider, level, msg) }

// LogLine stamps ln with the platform's time and a line id (from the ids
// stream machine events draw from too) and keeps it.
func (s *Store) LogLine(ln logs.Line) { s.logLine(ln) }

// The store's own calls for the platform's callers take the lock.

// Names are the apps' names in creation order.
func (s *Store) Names() []string {
	s.sched.Lock()
	defer s.sched.Unlock()
	return append([]string(nil), s.appOrder...)
}

// Has reports whether the org has an app named name.
func (s *Store) Has(name string) bool {
	s.sched.Lock()
	defer s.sched.Unlock()
	return s.apps[name] != nil
}

// Events are its kept events, newest first (read-only).
func (m *Machine) Events() []Event { return m.events }
