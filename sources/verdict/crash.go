package verdict

import (
	"fmt"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/sources/words"
)

// One machine's crash looks (the judge keeps one tracker per machine): the
// platform keeps only the newest few events per machine, so each look
// compares the newest crash's time with the previous look's (see
// diagnose.CrashKind), never a count.

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
// demo's crashy-api dies 2.5 s after each start): "no newer crash since the
// previous look" is read as Steady.
func (t *CrashTracker) Look(m *machine.Machine, releaseSince, now time.Time) diagnose.CrashVerdict {
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
	v := diagnose.CrashVerdict{Looks: t.looks}

	if m == nil || len(m.Events) == 0 {
		v.Kind = diagnose.CrashUnknown
		v.Reason = "no machine events to judge by"
		return v
	}

	newest, newestExit := newestCrashSince(m.Events, releaseSince)
	v.NewestCrash = newest

	if gaveUp(m, newestExit, releaseSince) {
		v.Kind = diagnose.GaveUp
		v.Reason = fmt.Sprintf("gave up restarting: %s %s ago and the machine is stopped",
			DescribeExit(newestExit), words.Duration(now.Sub(newestExit.At), words.Whole))
		t.newestCrash = newest
		return v
	}

	previous := t.newestCrash
	t.newestCrash = newest
	switch {
	case newest.IsZero():
		v.Kind = diagnose.Steady
		v.Reason = "no crash since the deploy"
	case !previous.IsZero() && newest.After(previous):
		v.Kind = diagnose.CrashLooping
		v.Reason = diagnose.CrashLoopReason
	case previous.Equal(newest):
		v.Kind = diagnose.Steady
		v.Reason = fmt.Sprintf("crashed %s ago, nothing new since the previous look", words.Duration(now.Sub(newest), words.Whole))
	default:
		v.Kind = diagnose.Watching
		v.Reason = fmt.Sprintf("crashed %s ago, since the deploy%s", words.Duration(now.Sub(newest), words.Whole), diagnose.LookingAgain)
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
func ReleaseSince(m *machine.Machine) time.Time {
	if m == nil {
		return time.Time{}
	}
	var newest time.Time
	for _, e := range m.Events {
		if e.Type != "launch" && e.Type != "update" {
			continue
		}
		if e.At.After(newest) {
			newest = e.At
		}
	}
	if !newest.IsZero() {
		return newest
	}
	return m.CreatedAt
}

// VisibleCrashes counts crash events after since in the event list. It is for
// display only ("2 crashes in the last 5 events"): the list is truncated, so
// this number cannot tell whether the machine is still crashing.
func VisibleCrashes(m *machine.Machine, since time.Time) int {
	if m == nil {
		return 0
	}
	n := 0
	for _, e := range m.Events {
		if e.Crash && e.At.After(since) {
			n++
		}
	}
	return n
}

// newestCrashSince returns the time of the newest crash after since, and the
// newest exit event (crash or not) after since. It does not trust list order.
func newestCrashSince(events []machine.Event, since time.Time) (time.Time, *machine.Event) {
	var newestCrash time.Time
	var newestExit *machine.Event
	for i := range events {
		e := &events[i]
		if e.Type != "exit" {
			continue
		}
		t := e.At
		if !t.After(since) {
			continue
		}
		if newestExit == nil || t.After(newestExit.At) {
			newestExit = e
		}
		if e.Crash && t.After(newestCrash) {
			newestCrash = t
		}
	}
	return newestCrash, newestExit
}

// gaveUp: the newest exit since the release was a crash the platform chose
// not to restart, and nothing started the machine since.
func gaveUp(m *machine.Machine, newestExit *machine.Event, since time.Time) bool {
	if m.State != "stopped" || newestExit == nil || !newestExit.Crash || newestExit.Restarting {
		return false
	}
	exitAt := newestExit.At
	for _, e := range m.Events {
		if e.Type == "start" && e.At.After(exitAt) {
			return false
		}
	}
	return exitAt.After(since)
}

// DescribeExit is how an exit reads: "exit code 1", "killed out of memory
// (exit code 137)".
func DescribeExit(e *machine.Event) string {
	if e.OOMKilled {
		return fmt.Sprintf("killed out of memory (exit code %d)", e.ExitCode)
	}
	return fmt.Sprintf("exit code %d", e.ExitCode)
}
