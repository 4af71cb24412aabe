package machines

import (
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/rng"
)

// Machine versions, deploys and the end of a machine (the docs' "machine
// states" page, version diagram): an update makes a new version (a new
// instance_id) and the old one reads "replaced"; a host migration makes a
// new version and the old one reads "migrated"; create, a failed launch
// (launch_failed → destroyed) and destroy. Callers hold the lock.

// oldVersion is an earlier version of a machine, in the terminal state it
// ended in.
type oldVersion struct {
	id      string
	cfg     *fly.MachineConfig
	image   *image
	state   string    // replaced | migrated
	created time.Time // when it was made
}

// maxVersionsKept bounds a machine's version history (a long churn soak
// redeploys hundreds of times).
const maxVersionsKept = 20

// retireVersion files m's current version under state before it changes.
func (s *Store) retireVersion(m *Machine, state string) {
	v := oldVersion{id: m.instanceID, cfg: m.cfg, image: m.image, state: state, created: m.versionAt}
	m.versions = append([]oldVersion{v}, m.versions...)
	if len(m.versions) > maxVersionsKept {
		m.versions = m.versions[:maxVersionsKept]
	}
}

// version finds one of m's versions by id: its state as seen through that
// version, and its config.
func (m *Machine) version(id string) (state string, cfg *fly.MachineConfig, im *image, ok bool) {
	if id == m.instanceID {
		return m.state, m.cfg, m.image, true
	}
	for _, v := range m.versions {
		if v.id == id {
			return v.state, v.cfg, v.image, true
		}
	}
	return "", nil, nil, false
}

// pullTook is how long a host takes to fetch an image it has not run.
func (s *Store) pullTook() time.Duration {
	return rng.Between(s.rng, 300*time.Millisecond, 900*time.Millisecond)
}

// launchOptions are the parts of a create or update request that steer the
// launch.
type launchOptions struct {
	skipLaunch bool
	cordoned   bool
}

// createMachine adds a machine to a, as POST /machines does: created, then
// (unless skipLaunch) "creating" while its image is pulled and booted. An
// image the registry does not have fails the launch: launch_failed, then
// destroyed, as the docs' version diagram draws it.
func (s *Store) createMachine(a *App, name, region string, cfg *fly.MachineConfig, opt launchOptions) *Machine {
	now := s.now()
	s.ips++
	m := &Machine{
		app: a, id: rng.MachineID(s.rng), name: name, region: region, instanceID: rng.ULID(s.rng, now), versionAt: now,
		privateIP: fmt.Sprintf("fdaa:0:18:a7b:%x:%x:%x:2", 100+s.ips, s.rng.IntN(0xffff), s.rng.IntN(0xffff)),
		state:     "created", createdAt: now, updatedAt: now, changed: make(chan struct{}),
		cordoned: opt.cordoned, release: releaseOf(cfg, a.p.Release),
	}
	m.setConfig(cfg)
	if m.name == "" {
		m.name = rng.MachineName(s.rng)
	}
	m.image = s.resolveImage(cfg.Image)
	m.events = []Event{{ID: rng.ULID(s.ids, now), Type: "launch", Status: "created", Source: SourceUser, Time: now}}
	a.machines = append(a.machines, m)
	a.byID[m.id] = m
	if !opt.skipLaunch {
		s.launch(m, "creating")
	}
	return m
}

// launch pulls m's image in state pulling ("creating" or "updating"), then
// boots it; an unknown image ends in launch_failed (a new machine) or
// failed (an update).
func (s *Store) launch(m *Machine, pulling string) {
	alive := s.newRun(m)
	s.setState(m, pulling)
	s.log(m, "runner", "Pulling container image "+m.cfg.Image)
	s.sched.After(s.pullTook(), func() {
		if !alive() {
			return
		}
		if m.image == nil {
			s.failLaunch(m, pulling == "creating")
			return
		}
		s.log(m, "runner", fmt.Sprintf("Successfully prepared image %s", m.cfg.Image))
		s.coldBoot(m, SourceUser, true)
	})
}

// failLaunch ends a launch whose image could not be pulled.
func (s *Store) failLaunch(m *Machine, newMachine bool) {
	s.logLevel(m, "runner", "error", fmt.Sprintf("failed to get manifest %s: not found", m.cfg.Image))
	if !newMachine {
		// A failed update leaves a machine that can be updated again,
		// stopped or destroyed.
		s.setState(m, "failed")
		s.addEvent(m, "launch", "failed", SourceFlyd, nil, 0)
		return
	}
	alive := s.newRun(m)
	s.setState(m, "launch_failed")
	s.addEvent(m, "launch", "launch_failed", SourceFlyd, nil, 0)
	s.sched.After(time.Second, func() {
		if alive() {
			s.destroyed(m)
		}
	})
}

// updateMachine applies POST /machines/{id}: a new version with cfg. The
// machine goes "replacing" (its running process is stopped as a stop would,
// stop_config included), then "updating" while the new image is pulled,
// then boots, unless skipLaunch keeps a machine that was not running
// stopped (or created).
func (s *Store) updateMachine(m *Machine, cfg *fly.MachineConfig, opt launchOptions) error {
	switch m.state {
	case "destroyed", "destroying", "launch_failed", "creating":
		return precondition("unable to update machine from current state: '%s'", m.state)
	case "replacing", "updating":
		return precondition("machine getting replaced, refusing to update")
	}
	wasUp := m.state == "started" || m.state == "starting" || m.state == "restarting" || m.state == "suspending"
	wasCreated := m.state == "created"
	s.retireVersion(m, "replaced")
	m.instanceID, m.versionAt = rng.ULID(s.rng, s.now()), s.now()
	m.setConfig(cfg)
	m.image = s.resolveImage(cfg.Image)
	m.versionCrashes = 0
	m.release = releaseOf(cfg, m.release)
	m.cordoned = m.cordoned || opt.cordoned
	// A lease survives the update: the deploy that took it still holds it.
	alive := s.newRun(m)
	m.serving, m.snapshot, m.bootBegin = false, false, time.Time{}
	s.setState(m, "replacing")
	s.addEvent(m, "update", "replacing", SourceUser, nil, 0)
	next := func(killed bool) {
		if !alive() {
			return
		}
		if wasUp { // the replaced version's process ends
			exit := s.exitEvent(0, true, false)
			if killed {
				exit.ExitCode, exit.GuestExitCode, exit.GuestSignal = 137, 137, 9
			}
			s.addEvent(m, "exit", "stopped", SourceFlyd, exit, 0)
		}
		if opt.skipLaunch && !wasUp {
			s.afterPull(m, func() {
				if m.image == nil {
					s.failLaunch(m, false)
					return
				}
				m.stoppedAt = s.now()
				if wasCreated {
					s.setState(m, "created")
				} else {
					s.setState(m, "stopped")
				}
			})
			return
		}
		s.launch(m, "updating")
	}
	if wasUp {
		s.terminate(m, alive, stopSignal(m.versions[0].cfg, ""), stopTimeout(m.versions[0].cfg, 0), next)
	} else {
		s.sched.After(200*time.Millisecond, func() { next(false) })
	}
	return nil
}

// afterPull runs fn once m's new image is pulled (state updating).
func (s *Store) afterPull(m *Machine, fn func()) {
	alive := s.newRun(m)
	s.setState(m, "updating")
	s.sched.After(s.pullTook(), func() {
		if alive() {
			fn()
		}
	})
}

// releaseOf reads fly_release_version from a config's metadata.
func releaseOf(cfg *fly.MachineConfig, fallback int) int {
	var n int
	if cfg != nil {
		if _, err := fmt.Sscan(cfg.Metadata["fly_release_version"], &n); err == nil {
			return n
		}
	}
	return fallback
}

// destroyMachine applies DELETE /machines/{id}: only a machine that is not
// running unless force (or kill, fly-go's spelling) is set; a running one is
// killed first.
func (s *Store) destroyMachine(m *Machine, force bool) error {
	switch m.state {
	case "destroyed", "destroying":
		return precondition("unable to destroy machine from current state: '%s'", m.state)
	case "stopped", "suspended", "created", "failed", "launch_failed":
	default:
		if !force {
			return precondition("unable to destroy machine from current state: '%s', stop it first or pass force=true", m.state)
		}
	}
	alive := s.newRun(m)
	running := m.serving || m.state == "started" || m.state == "starting"
	m.serving, m.snapshot, m.bootBegin = false, false, time.Time{}
	s.setState(m, "destroying")
	s.addEvent(m, "destroy", "destroying", SourceUser, nil, 0)
	took := 300 * time.Millisecond
	if running {
		s.log(m, "app", fmt.Sprintf(" INFO Sending signal SIGKILL to main child process w/ PID %d", mainPID))
		took += Teardown
	}
	s.sched.After(took, func() {
		if alive() {
			s.destroyed(m)
		}
	})
	return nil
}

// destroyed is the end: the machine stays readable (GET, wait, list with
// include_deleted) but takes no part in anything.
func (s *Store) destroyed(m *Machine) {
	s.newRun(m)
	s.detach(m)
	m.serving, m.lease, m.cordoned = false, nil, false
	m.stoppedAt = s.now()
	s.setState(m, "destroyed")
	s.addEvent(m, "destroy", "destroyed", SourceFlyd, nil, 0)
}

// Migrate moves app's machine id to another host, as Fly does when it drains
// one: the old version reads "migrated", the machine gets a new version
// (event launch/created/flyd, which flyctl marks migrated=true) and loses
// its suspend snapshot; a running machine boots again on the new host, and
// the next start reports the move.
func (s *Store) Migrate(app, id string) error {
	s.sched.Lock()
	defer s.sched.Unlock()
	a := s.apps[app]
	if a == nil || a.byID[id] == nil {
		return fmt.Errorf("flysim: no machine %s in app %q", id, app)
	}
	m := a.byID[id]
	switch m.state {
	case "started", "stopped", "suspended", "created":
	default:
		return fmt.Errorf("flysim: machine %s is %s; migrate a settled machine", id, m.state)
	}
	s.sched.Instant(func() { s.migrate(m) }) // one time for its events and the boot it schedules
	return nil
}

// migrate moves m to another host. Callers hold the lock.
func (s *Store) migrate(m *Machine) {
	wasUp := m.state == "started"
	s.retireVersion(m, "migrated")
	m.instanceID, m.versionAt = rng.ULID(s.rng, s.now()), s.now()
	m.migratedTo = rng.Hex(s.rng, 4)
	s.newRun(m)
	m.snapshot = false
	if m.state == "suspended" {
		s.setState(m, "stopped")
	}
	m.updatedAt = s.now()
	m.signalChange()
	s.addEvent(m, "launch", "created", SourceFlyd, nil, 0)
	if wasUp {
		s.coldBoot(m, SourceFlyd, true)
	}
}

// DrainHosts has Fly drain a host now and then, about every `every` of
// platform time from begin on, moving one stopped machine of the org to
// another host: its old version reads migrated, its events say
// launch/created by flyd and its next start reports the move, as on Fly.
// (Only stopped machines move, so a drain never reboots one.) The
// choices are drawn from a stream of their own. Callers hold the lock.
func (s *Store) DrainHosts(begin time.Time, every time.Duration) {
	draw := rng.Stream(s.opts.Seed, "host drains")
	var next func()
	next = func() {
		var stopped []*Machine
		for _, name := range s.appOrder {
			for _, m := range s.apps[name].machines {
				if m.state == "stopped" {
					stopped = append(stopped, m)
				}
			}
		}
		if len(stopped) > 0 {
			s.migrate(stopped[draw.IntN(len(stopped))])
		}
		s.sched.After(rng.Between(draw, every/2, every*3/2), next)
	}
	s.sched.At(begin.Add(rng.Between(draw, every/2, every*3/2)), next)
}
