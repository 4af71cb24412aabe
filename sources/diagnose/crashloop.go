package diagnose

import (
	"time"

	fly "github.com/superfly/fly-go"
)

// The platform keeps only the newest few events per machine (five on Fly,
// as flysim keeps them). A machine that crashes after every start fills that window with the
// same mix of crashes and starts, so a count of crashes stays flat while new
// crashes keep happening. A machine's looks (sources/verdict's CrashTracker)
// therefore compare the timestamp of the newest crash and never count — not even the exit
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

// IsCrash reports whether e is an exit the machine did not ask for: not a
// requested stop, and a nonzero exit code or an OOM kill.
func IsCrash(e *fly.MachineEvent) bool {
	if e == nil || e.Type != "exit" {
		return false
	}
	ee := ExitEventOf(e)
	return ee != nil && !ee.RequestedStop && (ee.OOMKilled || ee.ExitCode != 0 && ExitCodeReadable(ee.ExitCode))
}

// ExitCodeReadable reports whether code is one a process can exit with:
// an exit status is a byte (0–255), and -1 a kill by a signal. Anything
// else (9223372036854775807) is no exit code: the exit cannot be judged,
// and is neither a crash nor a clean stop.
func ExitCodeReadable(code int) bool { return code >= -1 && code <= 255 }

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
