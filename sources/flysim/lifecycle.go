package flysim

import (
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"
)

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

// startMachine implements POST /start (and the proxy's autostart). It returns
// the state the machine was in. Callers hold s.mu.
func (s *Sim) startMachine(m *machine, source string) (string, error) {
	prev := m.state
	switch m.state {
	case "started":
		return prev, nil
	case "stopped", "created":
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
func (s *Sim) coldBoot(m *machine, source string, announce bool) {
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
	platform := between(s.rng, p.PlatformBoot.Min, p.PlatformBoot.Max)
	s.after(platform, func() {
		if !alive() {
			return
		}
		s.setState(m, "started")
		s.addEvent(m, "start", "started", SourceFlyd, nil, 0)
		s.log(m, "runner", fmt.Sprintf("Machine started in %s", fmtDur(platform)))
		s.log(m, "app", " INFO Starting init (commit: 6c3fc2e)...")
		s.log(m, "app", " INFO Preparing to run: `/app/entrypoint.sh` as root")
		if p.CrashAfter > 0 && m.release >= p.Release { // the crash belongs to the current release
			s.after(p.CrashAfter, func() {
				if alive() {
					s.crash(m)
				}
			})
		}
		s.after(between(s.rng, p.InitTook.Min, p.InitTook.Max), func() { s.runPhases(m, alive, 0) })
	})
}

// runPhases logs the app's boot phases one after another, then serves.
func (s *Sim) runPhases(m *machine, alive func() bool, i int) {
	if !alive() {
		return
	}
	p := &m.app.p
	if i == len(p.Phases) {
		s.after(between(s.rng, p.FirstHealth.Min, p.FirstHealth.Max), func() {
			if !alive() {
				return
			}
			s.beginServing(m)
			s.log(m, "app", fmt.Sprintf(`"GET %s HTTP/1.1" 200 15 3ms`, p.HealthPath))
			s.log(m, "health", fmt.Sprintf("Health check on port %d is now passing.", p.InternalPort))
		})
		return
	}
	ph := p.Phases[i]
	for _, l := range ph.Lines {
		s.log(m, "app", l)
	}
	s.after(between(s.rng, ph.Took.Min, ph.Took.Max), func() {
		if !alive() {
			return
		}
		for _, l := range ph.EndLines {
			s.log(m, "app", l)
		}
		s.runPhases(m, alive, i+1)
	})
}

func (s *Sim) beginServing(m *machine) {
	m.serving = true
	m.servingSince = s.now()
	m.bootBegin = time.Time{}
	m.checkAt = s.now()
	m.signalChange()
	s.onServing(m)
}

// resume wakes a suspended (or still suspending) machine from its snapshot.
// A snapshot can be lost (deploy, host migration): then it cold-boots, and
// nothing but the latency tells, as on Fly.
func (s *Sim) resume(m *machine, source string) {
	p := &m.app.p
	if !m.snapshot || (p.SnapshotLossRate > 0 && s.rng.Float64() < p.SnapshotLossRate) {
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
	s.log(m, "runner", "Resuming machine from snapshot")
	took := between(s.rng, p.Resume.Min, p.Resume.Max)
	s.after(took, func() {
		if !alive() {
			return
		}
		m.snapshot = false
		s.setState(m, "started")
		s.addEvent(m, "start", "started", SourceFlyd, nil, 0)
		s.log(m, "runner", fmt.Sprintf("Machine resumed in %s", fmtDur(took)))
		s.beginServing(m)
		// The frozen app answers at once; its check passes on the next probe.
		s.log(m, "health", fmt.Sprintf("Health check on port %d is now passing.", p.InternalPort))
	})
}

// stopMachine implements POST /stop and the proxy's autostop.
func (s *Sim) stopMachine(m *machine, source, signal string) error {
	switch m.state {
	case "stopped", "stopping", "created":
		return nil // Fly answers ok to a stop of a machine that is already down
	case "destroyed", "destroying", "replaced", "migrated":
		return precondition("unable to stop machine from current state: '%s'", m.state)
	}
	p := &m.app.p
	alive := s.newRun(m)
	wasSuspended := m.state == "suspended"
	m.serving, m.bootBegin = false, time.Time{}
	s.setState(m, "stopping")
	s.addEvent(m, "stop", "stopping", source, nil, 0)
	took := between(s.rng, p.StopTook.Min, p.StopTook.Max)
	if wasSuspended {
		took = 200 * time.Millisecond // nothing runs: the snapshot is discarded
	} else {
		if signal == "" {
			signal = "SIGINT"
		}
		s.log(m, "app", fmt.Sprintf(" INFO Sending signal %s to main child process w/ PID 637", signal))
	}
	s.after(took, func() {
		if !alive() {
			return
		}
		m.snapshot = false
		m.stoppedAt = s.now()
		s.setState(m, "stopped")
		s.addEvent(m, "exit", "stopped", SourceFlyd, s.exitEvent(0, true, false), 0)
		if !wasSuspended {
			s.log(m, "app", " INFO Main child exited normally with code: 0")
			s.log(m, "app", " INFO Starting clean up.")
		}
	})
	return nil
}

// SuspendBlockers are the reasons Fly refuses to suspend a machine, in the
// order the API reports them (reference/fly-platform.md §3).
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
func (s *Sim) suspendMachine(m *machine, source string) error {
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
	m.serving = false
	s.setState(m, "suspending")
	s.addEvent(m, "suspend", "suspending", source, nil, 0)
	s.after(between(s.rng, p.SuspendTook.Min, p.SuspendTook.Max), func() {
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

// crash ends the app with exit code 1; restart policy on-failure restarts it
// up to RestartRetries times within 5 minutes, then gives up (machine stopped).
func (s *Sim) crash(m *machine) {
	p := &m.app.p
	alive := s.newRun(m)
	m.serving, m.bootBegin = false, time.Time{}
	for _, l := range p.ServerLines {
		s.logLevel(m, "app", "error", l)
	}
	s.log(m, "app", " INFO Main child exited normally with code: 1")
	s.log(m, "app", " INFO Starting clean up.")
	window := s.now().Add(-5 * time.Minute)
	kept := m.restarts[:0]
	for _, t := range m.restarts {
		if t.After(window) {
			kept = append(kept, t)
		}
	}
	m.restarts = kept
	if len(m.restarts) >= p.RestartRetries {
		m.stoppedAt = s.now()
		s.setState(m, "stopped")
		s.addEvent(m, "exit", "stopped", SourceFlyd, s.exitEvent(1, false, false), m.restartCount)
		s.log(m, "runner", fmt.Sprintf("machine has reached its max restart count of %d", p.RestartRetries))
		return
	}
	m.restarts = append(m.restarts, s.now())
	m.restartCount++
	s.setState(m, "restarting")
	s.addEvent(m, "exit", "stopped", SourceFlyd, s.exitEvent(1, false, true), m.restartCount)
	s.after(between(s.rng, p.RestartDelay.Min, p.RestartDelay.Max), func() {
		if alive() {
			s.coldBoot(m, SourceFlyd, false)
		}
	})
}

func (s *Sim) exitEvent(code int, requested, restarting bool) *fly.MachineExitEvent {
	return &fly.MachineExitEvent{ExitCode: code, GuestExitCode: code, GuestSignal: -1, Signal: -1,
		RequestedStop: requested, Restarting: restarting, ExitedAt: s.now().UTC()}
}

// fmtDur renders like Fly's runner: "864ms", "1.042s".
func fmtDur(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}
