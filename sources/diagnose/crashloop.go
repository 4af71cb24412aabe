package diagnose

import (
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"
)

// The platform keeps only the newest few events per machine (five, per the
// seed). A machine that crashes after every start fills that window with the
// same mix of crashes and starts, so a count of crashes stays flat while new
// crashes keep happening. Everything here therefore compares the timestamp of
// the newest crash between looks and never counts — not even the exit
// event's restart_count (flyctl's isConstantlyRestarting reads it): one rule,
// which needs nothing the platform may or may not fill in.

// CrashKind is the outcome of one look at a machine after a deploy.
type CrashKind int

const (
	// CrashUnknown: no events to judge by.
	CrashUnknown CrashKind = iota
	// Steady: no crash since the release began, or none new since the previous look.
	Steady
	// Watching: a crash since the release was seen for the first time; look again.
	Watching
	// CrashLooping: the newest crash is later than at the previous look.
	CrashLooping
	// GaveUp: the platform stopped restarting the machine after a crash.
	GaveUp
)

// String names the kind for display.
func (k CrashKind) String() string {
	switch k {
	case Steady:
		return "steady"
	case Watching:
		return "watching"
	case CrashLooping:
		return "crash-looping"
	case GaveUp:
		return "gave up"
	default:
		return "unknown"
	}
}

// Level grades the kind: a loop or a give-up fails a deploy.
func (k CrashKind) Level() Level {
	switch k {
	case Steady:
		return Pass
	case Watching:
		return Warn
	case CrashLooping, GaveUp:
		return Fail
	default:
		return Unknown
	}
}

// LookingAgain ends a Watching verdict's reason: the next look tells a
// crash loop from one crash. A one-shot look that ends without it (status)
// says so instead.
const LookingAgain = "; looking again"

// CrashLoopReason is the sentence a deploy fails with when the machine kept crashing.
const CrashLoopReason = "the machine has crashed repeatedly since the deploy and is still restarting"

// CrashVerdict is the result of one look. Its Reason speaks of ages at the
// look (NewestCrash holds the time), so two looks at the same moment of a
// seeded platform read the same.
type CrashVerdict struct {
	Kind CrashKind
	// NewestCrash is the time of the newest crash since the release (zero: none seen).
	NewestCrash time.Time
	// Looks counts the looks at this release, this one included.
	Looks  int
	Reason string
}

// CrashTracker remembers what the previous look saw for one machine.
// The zero value is ready to use.
type CrashTracker struct {
	instance    string    // the machine version the looks are about
	release     time.Time // when that version began
	looks       int
	newestCrash time.Time
}

// Look judges m once. releaseSince is when the release began; zero lets the
// tracker guess with ReleaseSince(m) at the first look of the machine's
// version (its instance id) and keep that guess for every later look of the
// same version: the launch event the guess reads falls out of a five-event
// list after two crash cycles, and a guess that moved would start the looks
// over just when they matter. A different releaseSince, or a new version,
// starts over. Space looks further apart than the app takes to crash (the
// seed's app died 2.5 s after each start): "no newer crash since the
// previous look" is read as Steady.
func (t *CrashTracker) Look(m *fly.Machine, releaseSince, now time.Time) CrashVerdict {
	instance := ""
	if m != nil {
		instance = m.InstanceID
	}
	if releaseSince.IsZero() {
		if t.looks > 0 && instance == t.instance {
			releaseSince = t.release
		} else {
			releaseSince = ReleaseSince(m)
		}
	}
	if !releaseSince.Equal(t.release) || instance != t.instance {
		*t = CrashTracker{instance: instance, release: releaseSince}
	}
	t.looks++
	v := CrashVerdict{Looks: t.looks}

	if m == nil || len(m.Events) == 0 {
		v.Kind = CrashUnknown
		v.Reason = "no machine events to judge by"
		return v
	}

	newest, newestExit := newestCrashSince(m.Events, releaseSince)
	v.NewestCrash = newest

	if gaveUp(m, newestExit, releaseSince) {
		ee := ExitEventOf(newestExit)
		v.Kind = GaveUp
		v.Reason = fmt.Sprintf("gave up restarting: %s %s ago and the machine is stopped",
			describeExit(ee), roundDuration(now.Sub(EventTime(newestExit))))
		t.newestCrash = newest
		return v
	}

	previous := t.newestCrash
	t.newestCrash = newest
	switch {
	case newest.IsZero():
		v.Kind = Steady
		v.Reason = "no crash since the deploy"
	case !previous.IsZero() && newest.After(previous):
		v.Kind = CrashLooping
		v.Reason = CrashLoopReason
	case previous.Equal(newest):
		v.Kind = Steady
		v.Reason = fmt.Sprintf("crashed %s ago, nothing new since the previous look", roundDuration(now.Sub(newest)))
	default:
		v.Kind = Watching
		v.Reason = fmt.Sprintf("crashed %s ago, since the deploy%s", roundDuration(now.Sub(newest)), LookingAgain)
	}
	return v
}

// Since is when the release the looks are about began (zero before the
// first look).
func (t *CrashTracker) Since() time.Time { return t.release }

// ReleaseSince guesses when the current release of m began: the newest
// launch or update event, else created_at. It is a fallback; a caller that
// knows when it started the deploy should pass that time instead, because the
// launch event falls out of a five-event list after two crash cycles.
func ReleaseSince(m *fly.Machine) time.Time {
	if m == nil {
		return time.Time{}
	}
	var newest time.Time
	for _, e := range m.Events {
		if e == nil || (e.Type != "launch" && e.Type != "update") {
			continue
		}
		if t := EventTime(e); t.After(newest) {
			newest = t
		}
	}
	if !newest.IsZero() {
		return newest
	}
	if t, err := time.Parse(time.RFC3339Nano, m.CreatedAt); err == nil {
		return t
	}
	return time.Time{}
}

// VisibleCrashes counts crash events after since in the event list. It is for
// display only ("2 crashes in the last 5 events"): the list is truncated, so
// this number cannot tell whether the machine is still crashing.
func VisibleCrashes(m *fly.Machine, since time.Time) int {
	if m == nil {
		return 0
	}
	n := 0
	for _, e := range m.Events {
		if IsCrash(e) && EventTime(e).After(since) {
			n++
		}
	}
	return n
}

// IsCrash reports whether e is an exit the machine did not ask for: not a
// requested stop, and a nonzero exit code or an OOM kill.
func IsCrash(e *fly.MachineEvent) bool {
	if e == nil || e.Type != "exit" {
		return false
	}
	ee := ExitEventOf(e)
	return ee != nil && !ee.RequestedStop && (ee.ExitCode != 0 || ee.OOMKilled)
}

// ExitEventOf reads the exit payload from either nesting fly-go knows,
// preferring MonitorEvent like fly-go's GetExitCode.
func ExitEventOf(e *fly.MachineEvent) *fly.MachineExitEvent {
	if e == nil || e.Request == nil {
		return nil
	}
	if me := e.Request.MonitorEvent; me != nil && me.ExitEvent != nil {
		return me.ExitEvent
	}
	return e.Request.ExitEvent
}

// EventTime is the event's timestamp, or the exit time when the timestamp is missing.
func EventTime(e *fly.MachineEvent) time.Time {
	if e == nil {
		return time.Time{}
	}
	if e.Timestamp != 0 {
		return e.Time()
	}
	if ee := ExitEventOf(e); ee != nil {
		return ee.ExitedAt
	}
	return time.Time{}
}

// newestCrashSince returns the time of the newest crash after since, and the
// newest exit event (crash or not) after since. It does not trust list order.
func newestCrashSince(events []*fly.MachineEvent, since time.Time) (time.Time, *fly.MachineEvent) {
	var newestCrash time.Time
	var newestExit *fly.MachineEvent
	for _, e := range events {
		if e == nil || e.Type != "exit" {
			continue
		}
		t := EventTime(e)
		if !t.After(since) {
			continue
		}
		if newestExit == nil || t.After(EventTime(newestExit)) {
			newestExit = e
		}
		if IsCrash(e) && t.After(newestCrash) {
			newestCrash = t
		}
	}
	return newestCrash, newestExit
}

// gaveUp: the newest exit since the release was a crash the platform chose
// not to restart, and nothing started the machine since.
func gaveUp(m *fly.Machine, newestExit *fly.MachineEvent, since time.Time) bool {
	if m.State != fly.MachineStateStopped || !IsCrash(newestExit) {
		return false
	}
	if ExitEventOf(newestExit).Restarting {
		return false
	}
	exitAt := EventTime(newestExit)
	for _, e := range m.Events {
		if e != nil && e.Type == "start" && EventTime(e).After(exitAt) {
			return false
		}
	}
	return exitAt.After(since)
}

func describeExit(ee *fly.MachineExitEvent) string {
	if ee == nil {
		return "exited"
	}
	if ee.OOMKilled {
		return fmt.Sprintf("killed out of memory (exit code %d)", ee.ExitCode)
	}
	return fmt.Sprintf("exit code %d", ee.ExitCode)
}

// roundDuration keeps reasons readable: whole seconds above a second.
func roundDuration(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
