package machines

import (
	"math/rand/v2"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// Event is one entry of a machine's event list. Fly's API adds an "id" that
// fly-go's struct drops; we keep it for clients that read /events.
type Event struct {
	ID           string
	Type         string
	Status       string
	Source       string
	Time         time.Time
	Exit         *fly.MachineExitEvent
	RestartCount int
}

// Machine is one simulated Fly Machine. Its fields are guarded by the
// scheduler's lock; the proxy reads them through its methods.
type Machine struct {
	app        *App
	id         string
	name       string
	region     string
	instanceID string
	privateIP  string
	state      string
	release    int
	cfg        *fly.MachineConfig // set only through setConfig
	svc        Service            // serviceOf(cfg), kept by setConfig
	hasSvc     bool
	image      *image // what it runs: decides how the app behaves (images.go)
	createdAt  time.Time
	updatedAt  time.Time
	events     []Event // newest first, trimmed to Options.EventsKept
	eventSeq   uint64  // events ever recorded: a waiter reads the ones since it began

	// changed is closed (and replaced) on every state change, so waiters
	// (the wait endpoint, the edge holding a request) wake without polling.
	changed chan struct{}
	// run counts incarnations: a new start, stop, suspend or crash begins a
	// new run, and callbacks scheduled for an older run do nothing.
	run uint64

	serving      bool      // the app answers requests (after its first health 200, or on resume)
	servingSince time.Time // when serving began
	bootBegin    time.Time // current boot's start, zero when not booting
	// proxyStartedAt: the proxy started this run and is waiting for it to
	// answer (it logs "machine became reachable in" then); zero otherwise.
	proxyStartedAt time.Time
	stoppedAt      time.Time // for the edge's "recently stopped" rule
	snapshot       bool      // a suspend snapshot exists
	restarts       []time.Time
	restartCount   int
	// versionCrashes counts the crashes of the current version's image
	// (ImageBehavior.CrashTimes).
	versionCrashes int
	checkAt        time.Time
	lease          *lease
	cordoned       bool         // the edge routes nothing to it
	goingBy        string       // who is stopping or suspending it (its state says whether one is)
	versions       []oldVersion // earlier versions, newest first (versions.go)
	versionAt      time.Time    // when the current version was made
	migratedTo     string       // a migration's new host, told by the next start

}

type lease struct {
	nonce       string
	owner       string
	description string
	expires     time.Time // wall time
	version     string
}

// App is one simulated Fly app and its machines, in creation order.
type App struct {
	p        profile.App
	rng      *rand.Rand // the app's identities and lifecycle draws (stream "app/<name>")
	fs       *guest.FS  // its image filesystem, built on the first exec
	id       string
	machines []*Machine
	byID     map[string]*Machine
	digest   string   // image digest of the current release
	images   []*image // pushed to the app's registry, oldest first
	current  *image   // the current release's image
	volumes  []*volume
	releases []*release // oldest first (releases.go)
	secrets  []*secret  // by name (secrets.go)
	// secretsVersion counts the API's changes to the secrets.
	secretsVersion uint64
	// deployedAt is when the current release rolled out (platform time).
	deployedAt time.Time
	createdAt  time.Time
}

func (m *Machine) signalChange() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// eventsKept trims and records an event, newest first.
func (s *Store) addEvent(m *Machine, typ, status, source string, exit *fly.MachineExitEvent, restartCount int) {
	ev := Event{ID: rng.ULID(s.ids, s.now()), Type: typ, Status: status, Source: source, Time: s.now(), Exit: exit, RestartCount: restartCount}
	m.events = append([]Event{ev}, m.events...)
	m.eventSeq++
	if keep := s.opts.EventsKept; len(m.events) > keep {
		m.events = m.events[:keep]
	}
}

// setState moves a machine to state and wakes everyone waiting on it.
func (s *Store) setState(m *Machine, state string) {
	if m.state == state {
		return
	}
	m.state = state
	m.updatedAt = s.now()
	m.signalChange()
}

// newRun starts a new incarnation and returns a guard for its callbacks.
func (s *Store) newRun(m *Machine) func() bool {
	m.run++
	m.proxyStartedAt = time.Time{}
	r := m.run
	return func() bool { return m.run == r }
}

func (s *Store) log(m *Machine, provider, msg string) { s.logLevel(m, provider, "info", msg) }

func (s *Store) logLevel(m *Machine, provider, level, msg string) {
	s.logLine(logs.Line{App: m.app.p.Name, Machine: m.id, Region: m.region, Provider: provider, Level: level, Message: msg})
}

// logLine stamps ln with the platform's time and a line id (from the ids
// stream machine events draw from too) and keeps it.
func (s *Store) logLine(ln logs.Line) {
	now := s.now()
	ln.ID, ln.Time = rng.ULID(s.ids, now), now
	s.logs.Add(ln)
}
