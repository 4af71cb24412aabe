package flysim

import (
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/proxy"
)

// What the platform's subsystems offer its callers, under the names they
// know: the machines (package machines), the proxy (package proxy), the
// guest (package guest).

type (
	// ImageBehavior is how an app built from a pushed image behaves.
	ImageBehavior = machines.ImageBehavior
	// PreconditionError is a 412 the Machines API answers with.
	PreconditionError = machines.PreconditionError
	// Churner drives one app's machines through every state (Sim.Churn).
	Churner = machines.Churner
	// TrafficStats counts an app's background requests by fate.
	TrafficStats = proxy.TrafficStats
)

// Sources of machine events.
const (
	SourceUser  = machines.SourceUser
	SourceProxy = machines.SourceProxy
	SourceFlyd  = machines.SourceFlyd
)

// Churn actions, as counted by Churner.Counts.
const (
	ChurnStart   = machines.ChurnStart
	ChurnStop    = machines.ChurnStop
	ChurnSuspend = machines.ChurnSuspend
	ChurnCrash   = machines.ChurnCrash
	ChurnRestart = machines.ChurnRestart
	ChurnDeploy  = machines.ChurnDeploy
	ChurnBusy    = machines.ChurnBusy
)

// The demo deploy's two releases, in every app's registry.
const (
	DemoHealthyTag  = machines.DemoHealthyTag
	DemoCrashingTag = machines.DemoCrashingTag
	DemoCrashAfter  = machines.DemoCrashAfter
)

// Headers the edge reads and answers.
const (
	MachineIDHeader     = proxy.MachineIDHeader
	ForceInstanceHeader = proxy.ForceInstanceHeader
	PreferRegionHeader  = proxy.PreferRegionHeader
)

// BytecodeProbePrefix is how the guest recognises the bytecode probe
// (diagnose.BytecodeProbeCommand()).
const BytecodeProbePrefix = guest.BytecodeProbePrefix

// SuspendBlockers are the reasons Fly refuses to suspend a machine with
// cfg, in the order the API reports them.
func SuspendBlockers(cfg *fly.MachineConfig) []string { return machines.SuspendBlockers(cfg) }

// Churn starts churning app: about every `every` of platform time (jittered
// ±50 %) one machine picked at random is started, stopped, suspended,
// crashed or restarted, whichever its state allows, and now and then the
// whole app is redeployed. Call Stop to end it.
func (s *Sim) Churn(app string, every time.Duration) (*Churner, error) {
	return s.store.Churn(app, every)
}

// Prewarm lives d of platform time at once, before Start, the way the history
// is lived: a soak's churn fills the logs and event lists to their bounds
// without waiting. It fails once the platform runs.
func (s *Sim) Prewarm(d time.Duration) error {
	s.sched.Lock()
	running := s.started
	s.sched.Unlock()
	if running {
		return fmt.Errorf("flysim: Prewarm after Start")
	}
	if d > 0 {
		s.sched.FastForward(s.now().Add(d))
	}
	return nil
}

// AdvanceTo lives a frozen platform (Options.Frozen) through to platform
// time t at once, and holds it there: a one-shot look that needs a second
// look a settle later (status --demo on a machine that crashed once) takes
// it at a fixed platform time, so the same seed prints the same figures. A
// time already passed does nothing; it fails on a platform whose clock runs.
func (s *Sim) AdvanceTo(t time.Time) error {
	if !s.opts.Frozen {
		return fmt.Errorf("flysim: AdvanceTo on a platform whose clock runs")
	}
	if t.After(s.now()) {
		s.sched.FastForward(t)
	}
	return nil
}

// PushImage adds an image tagged tag to app's repository, as `fly deploy`
// pushes one before it updates the machines, and returns its reference for
// a machine config ("registry.fly.io/<image>:<tag>"). A later push of the
// same tag replaces what the tag points to.
func (s *Sim) PushImage(app, tag string, b ImageBehavior) (string, error) {
	return s.store.PushImage(app, tag, b)
}

// Migrate moves app's machine id to another host, as Fly does when it
// drains one: the old version reads "migrated" and the machine boots again
// on the new host if it ran.
func (s *Sim) Migrate(app, id string) error { return s.store.Migrate(app, id) }

// HoldLease takes the lease of app's machine id as someone else would (a
// deploy in another terminal): owner and description as given, ttl of wall
// time. It returns the nonce.
func (s *Sim) HoldLease(app, id, owner, description string, ttl time.Duration) (string, error) {
	return s.store.HoldLease(app, id, owner, description, ttl)
}

// Lease reports app's machine id lease holder and wall-clock expiry; ok is
// false when the machine is not leased.
func (s *Sim) Lease(app, id string) (owner string, expires time.Time, ok bool) {
	return s.store.Lease(app, id)
}

// EdgeURL is the base URL of app's edge (its https://<app>.fly.dev), or ""
// before Start or for an unknown app.
func (s *Sim) EdgeURL(app string) string { return s.px.EdgeURL(app) }

// Edges maps every app to its edge URL (empty before Start).
func (s *Sim) Edges() map[string]string { return s.px.Edges() }

// AutostopNow runs the proxy's autostop pass on app at once (Fly runs it
// "every few minutes", Options.AutostopInterval) and returns the machines
// it stopped or suspended.
func (s *Sim) AutostopNow(app string) ([]string, error) { return s.px.AutostopNow(app) }

// Traffic returns an app's background-load counters (a copy).
func (s *Sim) Traffic(app string) (TrafficStats, error) { return s.px.Traffic(app) }
