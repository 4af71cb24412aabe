package machines

import (
	"fmt"
	"strconv"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/rng"
)

// The machine state machine of the docs' "machine states" page: start,
// stop, suspend, restart, a crash or a signal and flyd's restart policy.
// Deploys (update, create, destroy, migration) are in versions.go. Every
// function here is called with the scheduler's lock held.

// PreconditionError is a 412 the Machines API answers with
// {"error":"failed_precondition: ..."}; Text is that whole string.
type PreconditionError struct{ Text string }

func (e *PreconditionError) Error() string { return e.Text }

func precondition(format string, args ...any) error {
	return &PreconditionError{Text: "failed_precondition: " + fmt.Sprintf(format, args...)}
}

// Sources of machine events.
const (
	SourceUser  = "user"
	SourceProxy = "fly-proxy"
	SourceFlyd  = "flyd"
)

// mainPID is the app's main process as Fly's init names it in its logs.
const mainPID = 637

// Teardown is how long the VM takes to go away once its main process ended.
const Teardown = 150 * time.Millisecond

// startMachine implements POST /start (and the proxy's autostart). It returns
// the state the machine was in.
func (s *Store) startMachine(m *Machine, source string) (string, error) {
	prev := m.state
	switch m.state {
	case "started":
		return prev, nil
	case "stopped", "created", "failed":
		if m.image == nil { // its image was never pulled: try again, fail again
			s.launch(m, "starting")
			break
		}
		s.coldBoot(m, source, true)
	case "suspended", "suspending":
		s.resume(m, source)
	case "stopping":
		return prev, precondition("machine still active, refusing to start")
	case "starting", "restarting":
		return prev, precondition("machine still attempting to start")
	case "replacing", "updating":
		return prev, precondition("machine getting replaced, refusing to start")
	default:
		return prev, precondition("unable to start machine from current state: '%s'", m.state)
	}
	return prev, nil
}

// coldBoot boots a machine from its image: the runner's start, then the app's
// own phases, then its first health 200. announce records the "starting"
// event (a crash restart by flyd records only the "started" one, so a crash
// cycle adds exactly two events, as on Fly).
func (s *Store) coldBoot(m *Machine, source string, announce bool) {
	p := &m.app.p
	alive := s.newRun(m)
	if source != SourceFlyd {
		m.restarts = nil // an explicit start resets the restart window
		m.restartCount = 0
	}
	m.serving, m.snapshot = false, false
	m.bootBegin = s.now()
	s.setState(m, "starting")
	if announce {
		s.addEvent(m, "start", "starting", source, nil, 0)
	}
	if source == SourceProxy {
		s.log(m, "proxy", "Starting machine")
	}
	s.log(m, "runner", "Configuring firecracker")
	platform := rng.Between(m.app.rng, p.PlatformBoot.Min, p.PlatformBoot.Max)
	s.sched.After(platform, func() {
		if !alive() {
			return
		}
		s.setState(m, "started")
		s.addEvent(m, "start", "started", SourceFlyd, nil, 0)
		s.log(m, "runner", fmt.Sprintf("Machine started in %s", fmtDur(platform)))
		if source == SourceProxy {
			s.proxyStarted(m, platform)
		}
		s.log(m, "app", " INFO Starting init (commit: 6c3fc2e)...")
		s.log(m, "app", fmt.Sprintf(" INFO Preparing to run: `%s` as root", m.entrypoint()))
		if m.image.crashesNow(m) { // the crash belongs to the image it runs
			s.sched.After(m.image.crashes(), func() {
				if alive() {
					m.versionCrashes++
					s.crash(m)
				}
			})
		}
		s.sched.After(rng.Between(m.app.rng, p.InitTook.Min, p.InitTook.Max), func() { s.runPhases(m, alive, 0) })
	})
}

// publicBoot is how long a public image takes from its entrypoint to
// answering: it has none of the app's own boot work.
var publicBoot = profile.Span{Min: 200 * time.Millisecond, Max: 500 * time.Millisecond}

// bootPhases are what m's image does as it boots, then how long until its
// first health 200: the app's own phases for one of its builds, none for a
// public image.
func (m *Machine) bootPhases() ([]profile.Phase, profile.Span) {
	if m.image != nil && m.image.public {
		return nil, publicBoot
	}
	return m.app.p.Phases, m.app.p.FirstHealth
}

// entrypoint is what init runs.
func (m *Machine) entrypoint() string {
	if m.image != nil && m.image.public {
		return m.image.command(m.cfg)
	}
	return "/app/entrypoint.sh"
}

// runPhases logs the app's boot phases one after another, then serves.
func (s *Store) runPhases(m *Machine, alive func() bool, i int) {
	if !alive() {
		return
	}
	phases, firstHealth := m.bootPhases()
	if i == len(phases) {
		s.sched.After(rng.Between(m.app.rng, firstHealth.Min, firstHealth.Max), func() {
			if !alive() {
				return
			}
			s.beginServing(m)
			if hc, ok := healthCheck(m.cfg); ok {
				if hc.kind == "http" {
					// Fly's checker dials the private address: no Fly-Client-IP ("-").
					s.log(m, "app", logs.Access("-", fmt.Sprintf("[%s]:%d", m.privateIP, hc.port), "GET", hc.path, 200, 15, 3*time.Millisecond))
				}
				s.log(m, "health", fmt.Sprintf("Health check on port %d is now passing.", hc.port))
			}
		})
		return
	}
	ph := phases[i]
	for _, l := range ph.Lines {
		s.log(m, "app", l)
	}
	s.sched.After(rng.Between(m.app.rng, ph.Took.Min, ph.Took.Max), func() {
		if !alive() {
			return
		}
		for _, l := range ph.EndLines {
			s.log(m, "app", l)
		}
		s.runPhases(m, alive, i+1)
	})
}

func (s *Store) beginServing(m *Machine) {
	if !m.proxyStartedAt.IsZero() {
		// The proxy that started it reports when its request got through.
		s.log(m, "proxy", "machine became reachable in "+proxyDur(s.now().Sub(m.proxyStartedAt)))
		m.proxyStartedAt = time.Time{}
	}
	m.serving = true
	m.servingSince = s.now()
	m.bootBegin = time.Time{}
	m.checkAt = s.now()
	m.signalChange()
	s.edge.Serving(m)
}

// resume wakes a suspended machine from its snapshot, or a machine still
// suspending by cancelling the memory copy (its memory is still in place:
// Fly's "interruptible suspend", community t/26623). A snapshot can be lost
// (deploy, host migration): then it cold-boots, and nothing but the latency
// tells, as on Fly.
func (s *Store) resume(m *Machine, source string) {
	p := &m.app.p
	inMemory := m.state == "suspending"
	if !inMemory && (!m.snapshot || (p.SnapshotLossRate > 0 && m.app.rng.Float64() < p.SnapshotLossRate)) {
		s.coldBoot(m, source, true)
		return
	}
	alive := s.newRun(m)
	m.restarts, m.restartCount = nil, 0
	m.bootBegin = s.now()
	s.setState(m, "starting")
	s.addEvent(m, "start", "resuming", source, nil, 0)
	if source == SourceProxy {
		s.log(m, "proxy", "Starting machine")
	}
	took := rng.Between(m.app.rng, p.Resume.Min, p.Resume.Max)
	if inMemory {
		s.log(m, "runner", "Cancelling suspend, resuming machine")
		took /= 2 // nothing to read back: only the vCPUs are thawed
	} else {
		s.log(m, "runner", "Resuming machine from snapshot")
	}
	s.sched.After(took, func() {
		if !alive() {
			return
		}
		m.snapshot = false
		s.setState(m, "started")
		s.addEvent(m, "start", "started", SourceFlyd, nil, 0)
		s.log(m, "runner", fmt.Sprintf("Machine resumed in %s", fmtDur(took)))
		if source == SourceProxy {
			s.proxyStarted(m, took)
		}
		s.beginServing(m)
		// The frozen app answers at once; its check passes on the next probe.
		if hc, ok := healthCheck(m.cfg); ok {
			s.log(m, "health", fmt.Sprintf("Health check on port %d is now passing.", hc.port))
		}
	})
}

// stopMachine implements the proxy's autostop and a stop with the machine's
// own stop_config.
func (s *Store) stopMachine(m *Machine, source, signal string) error {
	return s.stopMachineFor(m, source, signal, 0)
}

// stopMachineFor implements POST /stop {"signal","timeout"}: signal "" and
// timeout 0 fall back to the machine's stop_config (SIGINT, kill_timeout 5 s
// when unset). A main process that has not exited when the timeout runs out
// is killed.
func (s *Store) stopMachineFor(m *Machine, source, signal string, timeout time.Duration) error {
	switch m.state {
	case "stopped", "stopping":
		return nil // Fly answers ok to a stop of a machine that is already down
	case "started", "starting", "restarting", "suspending", "suspended", "failed":
	default:
		return precondition("unable to stop machine from current state: '%s'", m.state)
	}
	alive := s.newRun(m)
	wasSuspended, wasFailed := m.state == "suspended", m.state == "failed"
	m.serving, m.bootBegin, m.goingBy = false, time.Time{}, source
	s.setState(m, "stopping")
	s.addEvent(m, "stop", "stopping", source, nil, 0)
	done := func(killed bool) {
		m.snapshot = false
		m.stoppedAt = s.now()
		s.setState(m, "stopped")
		exit := s.exitEvent(0, true, false)
		if killed {
			exit.ExitCode, exit.GuestExitCode, exit.GuestSignal = 137, 137, 9
		}
		s.addEvent(m, "exit", "stopped", SourceFlyd, exit, 0)
	}
	if wasSuspended || wasFailed {
		// Nothing runs: the snapshot (or the failed VM) is discarded.
		s.sched.After(200*time.Millisecond, func() {
			if alive() {
				done(false)
			}
		})
		return nil
	}
	s.terminate(m, alive, stopSignal(m.cfg, signal), stopTimeout(m.cfg, timeout), done)
	return nil
}

// terminate signals the main process and calls done once the VM is down:
// at once for SIGKILL (killed); after the app's own graceful shutdown; or,
// when it ignores the signal or takes longer than timeout, after the
// timeout and a SIGKILL (killed).
func (s *Store) terminate(m *Machine, alive func() bool, signal string, timeout time.Duration, done func(killed bool)) {
	p := &m.app.p
	s.log(m, "app", fmt.Sprintf(" INFO Sending signal %s to main child process w/ PID %d", signal, mainPID))
	if signal == "SIGKILL" {
		// SIGKILL cannot be caught or delayed: the process ends at once.
		s.sched.After(Teardown, func() {
			if alive() {
				s.log(m, "app", " INFO Main child exited with signal (with signal 'SIGKILL', core dumped? false)")
				s.log(m, "app", " INFO Starting clean up.")
				done(true)
			}
		})
		return
	}
	graceful := rng.Between(m.app.rng, p.StopTook.Min, p.StopTook.Max)
	if m.image.ignoresSignal(signal) || !terminating[signal] {
		graceful = timeout + time.Hour // never on its own
	}
	if graceful <= timeout {
		s.sched.After(graceful, func() {
			if !alive() {
				return
			}
			s.log(m, "app", " INFO Main child exited normally with code: 0")
			s.log(m, "app", " INFO Starting clean up.")
			done(false)
		})
		return
	}
	s.sched.After(timeout, func() {
		if !alive() {
			return
		}
		// The wording of init's kill line is not documented (INF).
		s.logLevel(m, "app", "warn", fmt.Sprintf(" WARN Main child did not exit within %s of %s, sending SIGKILL", timeout, signal))
		s.sched.After(Teardown, func() {
			if !alive() {
				return
			}
			s.log(m, "app", " INFO Main child exited with signal (with signal 'SIGKILL', core dumped? false)")
			s.log(m, "app", " INFO Starting clean up.")
			done(true)
		})
	})
}

// maxKillTimeout is Fly's ceiling on kill_timeout (fly.toml reference).
const maxKillTimeout = 300 * time.Second

// stopSignal is the signal a stop sends: the request's, else stop_config's,
// else SIGINT.
func stopSignal(cfg *fly.MachineConfig, requested string) string {
	if requested != "" {
		return requested
	}
	if cfg != nil && cfg.StopConfig != nil && cfg.StopConfig.Signal != nil && *cfg.StopConfig.Signal != "" {
		return *cfg.StopConfig.Signal
	}
	return "SIGINT"
}

// stopTimeout is how long a stop waits for the main process: the request's
// timeout, else stop_config's (kill_timeout), else 5 s; at most 300 s.
func stopTimeout(cfg *fly.MachineConfig, requested time.Duration) time.Duration {
	d := 5 * time.Second
	switch {
	case requested > 0:
		d = requested
	case cfg != nil && cfg.StopConfig != nil && cfg.StopConfig.Timeout != nil && cfg.StopConfig.Timeout.Duration > 0:
		d = cfg.StopConfig.Timeout.Duration
	}
	return min(d, maxKillTimeout)
}

// SuspendBlockers are the reasons Fly refuses to suspend a machine, in the
// order the API reports them (the docs' suspend page).
func SuspendBlockers(cfg *fly.MachineConfig) []string {
	var out []string
	if cfg.Init.SwapSizeMB != nil && *cfg.Init.SwapSizeMB > 0 {
		out = append(out, "Machines with swap cannot be suspended")
	}
	if cfg.Guest != nil && cfg.Guest.MemoryMB > 2048 {
		out = append(out, "Machines with more than 2 GB of memory cannot be suspended")
	}
	if cfg.Schedule != "" {
		out = append(out, "scheduled Machines cannot be suspended")
	}
	return out
}

// suspendMachine implements POST /suspend and the proxy's autosuspend.
func (s *Store) suspendMachine(m *Machine, source string) error {
	if b := SuspendBlockers(m.cfg); len(b) > 0 {
		return precondition("%s", b[0])
	}
	switch m.state {
	case "suspended", "suspending":
		return nil
	case "started":
	default:
		return precondition("unable to suspend machine from current state: '%s'", m.state)
	}
	p := &m.app.p
	alive := s.newRun(m)
	m.serving, m.goingBy = false, source
	s.setState(m, "suspending")
	s.addEvent(m, "suspend", "suspending", source, nil, 0)
	s.sched.After(rng.Between(m.app.rng, p.SuspendTook.Min, p.SuspendTook.Max), func() {
		if !alive() {
			return
		}
		m.snapshot = true
		m.stoppedAt = s.now()
		s.setState(m, "suspended")
		s.addEvent(m, "suspend", "suspended", SourceFlyd, nil, 0)
	})
	return nil
}

// restartMachine implements POST /restart: a running machine goes
// restarting (its main process is stopped as a stop would, signal and
// timeout included), then boots again; a machine that is not running is
// simply started.
func (s *Store) restartMachine(m *Machine, source, signal string, timeout time.Duration) error {
	switch m.state {
	case "stopped", "created", "suspended", "failed":
		_, err := s.startMachine(m, source)
		return err
	case "started", "starting":
	default:
		return precondition("unable to restart machine from current state: '%s'", m.state)
	}
	alive := s.newRun(m)
	m.serving, m.bootBegin = false, time.Time{}
	s.setState(m, "restarting")
	s.addEvent(m, "restart", "restarting", source, nil, 0)
	s.terminate(m, alive, stopSignal(m.cfg, signal), stopTimeout(m.cfg, timeout), func(killed bool) {
		exit := s.exitEvent(0, true, true)
		if killed {
			exit.ExitCode, exit.GuestExitCode, exit.GuestSignal = 137, 137, 9
		}
		s.addEvent(m, "exit", "stopped", SourceFlyd, exit, 0)
		s.coldBoot(m, source, true)
	})
	return nil
}

// crash ends the app with exit code 1 (after logging its traceback); the
// restart policy decides what follows.
func (s *Store) crash(m *Machine) {
	lines := m.app.p.ServerLines
	if m.image != nil && m.image.crashLines != nil {
		lines = m.image.crashLines
	}
	for _, l := range lines {
		s.logLevel(m, "app", "error", l)
	}
	s.log(m, "app", " INFO Main child exited normally with code: 1")
	s.log(m, "app", " INFO Starting clean up.")
	s.exited(m, 1, -1)
}

// exited handles the main process ending by itself (a crash, a signal) with
// code (and guestSignal, -1 for none), by the machine's restart policy:
// on-failure (the default) restarts a non-zero exit up to max_retries times
// within 5 minutes, then gives up (machine stopped); always restarts every
// exit; no never restarts.
func (s *Store) exited(m *Machine, code, guestSignal int) {
	p := &m.app.p
	alive := s.newRun(m)
	m.serving, m.bootBegin = false, time.Time{}
	policy, retries := restartPolicy(m.cfg, p.RestartRetries)
	window := s.now().Add(-5 * time.Minute)
	kept := m.restarts[:0]
	for _, t := range m.restarts {
		if t.After(window) {
			kept = append(kept, t)
		}
	}
	m.restarts = kept
	exit := s.exitEvent(code, false, false)
	exit.GuestSignal = guestSignal
	restart := false
	switch policy {
	case fly.MachineRestartPolicyAlways:
		restart = true
	case fly.MachineRestartPolicyNo:
	default:
		restart = code != 0 && len(m.restarts) < retries
	}
	if !restart {
		m.stoppedAt = s.now()
		s.setState(m, "stopped")
		s.addEvent(m, "exit", "stopped", SourceFlyd, exit, m.restartCount)
		switch {
		case policy == fly.MachineRestartPolicyNo:
			s.log(m, "runner", "machine restart policy set to 'no', not restarting")
		case code != 0:
			s.log(m, "runner", fmt.Sprintf("machine has reached its max restart count of %d", retries))
		default:
			s.log(m, "runner", fmt.Sprintf("machine exited with exit code %d, not restarting", code))
		}
		return
	}
	m.restarts = append(m.restarts, s.now())
	m.restartCount++
	s.setState(m, "restarting")
	exit.Restarting = true
	s.addEvent(m, "exit", "stopped", SourceFlyd, exit, m.restartCount)
	s.sched.After(rng.Between(m.app.rng, p.RestartDelay.Min, p.RestartDelay.Max), func() {
		if alive() {
			s.coldBoot(m, SourceFlyd, false)
		}
	})
}

// restartPolicy reads config.restart; on-failure with the profile's retries
// when unset.
func restartPolicy(cfg *fly.MachineConfig, fallback int) (fly.MachineRestartPolicy, int) {
	policy, retries := fly.MachineRestartPolicyOnFailure, fallback
	if cfg != nil && cfg.Restart != nil {
		if cfg.Restart.Policy != "" {
			policy = cfg.Restart.Policy
		}
		if cfg.Restart.MaxRetries > 0 {
			retries = cfg.Restart.MaxRetries
		}
	}
	if retries <= 0 {
		retries = 10
	}
	return policy, retries
}

func (s *Store) exitEvent(code int, requested, restarting bool) *fly.MachineExitEvent {
	return &fly.MachineExitEvent{ExitCode: code, GuestExitCode: code, GuestSignal: -1, Signal: -1,
		RequestedStop: requested, Restarting: restarting, ExitedAt: s.now().UTC()}
}

// proxyStarted logs what Fly's proxy says once a machine it started is up
// ("machine started in 995.344449ms": its start call's time, a little more
// than the runner's), and remembers when, for "machine became reachable
// in" once the app answers (the docs' autostart log sequence).
func (s *Store) proxyStarted(m *Machine, took time.Duration) {
	s.log(m, "proxy", "machine started in "+proxyDur(took+proxyCallOverhead))
	m.proxyStartedAt = s.now()
}

// proxyCallOverhead is what the proxy's start call adds to the runner's
// start (the docs' capture: runner 864ms, proxy 995.344449ms).
const proxyCallOverhead = 131344449 * time.Nanosecond

// proxyDur renders a duration as Fly's proxy logs it (Rust's Debug form):
// "995.344449ms", "1.198962695s", trailing zeros dropped.
func proxyDur(d time.Duration) string {
	unit, div := "s", float64(time.Second)
	if d < time.Second {
		unit, div = "ms", float64(time.Millisecond)
	}
	v := strconv.FormatFloat(float64(d)/div, 'f', -1, 64)
	return v + unit
}

// fmtDur renders like Fly's runner: "864ms", "1.042s".
func fmtDur(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}
