package verdict

import (
	"fmt"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// Status is where one machine stands in the judgement of a release.
type Status int

const (
	// StatusOld: the machine runs an older release (a rolling deploy not
	// there yet, or one that halted); it is not judged.
	StatusOld Status = iota + 1
	// StatusGone: destroyed, or being destroyed.
	StatusGone
	// StatusPending: on the release, but not yet seen settled on it
	// (replacing, updating, starting).
	StatusPending
	// StatusLooking: looked at; another look is due.
	StatusLooking
	// StatusLive: stayed up across the looks (and its checks pass).
	StatusLive
	// StatusIdle: stopped or suspended with no crash since the release
	// began (left stopped by the deploy, or stopped by autostop).
	StatusIdle
	// StatusFailed: crash-looping, given up, or the platform could not run it.
	StatusFailed
)

// String is the status's word, as JSON writes it.
func (s Status) String() string {
	switch s {
	case StatusOld:
		return "old"
	case StatusGone:
		return "gone"
	case StatusPending:
		return "pending"
	case StatusLooking:
		return "looking"
	case StatusLive:
		return "live"
	case StatusIdle:
		return "idle"
	case StatusFailed:
		return "failed"
	}
	return "unknown"
}

// MarshalText writes the word.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Outcome is the judgement of the whole release.
type Outcome int

const (
	// Undecided: keep looking (the judge says what it waits for).
	Undecided Outcome = iota
	// Live: every machine of the release that runs stayed up.
	Live
	// Failed: a machine of the release crashed repeatedly, was given up on,
	// or could not be started: roll back.
	Failed
	// CannotJudge: the gate could not tell (the API failed, the time ran
	// out, nothing of the release runs).
	CannotJudge
)

// String is the outcome's word, as JSON writes it.
func (o Outcome) String() string {
	switch o {
	case Live:
		return "live"
	case Failed:
		return "failed"
	case CannotJudge:
		return "unknown"
	}
	return "undecided"
}

// MarshalText writes the word.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Exit codes of `flywake verdict` (the README's "post-deploy verdict").
const (
	ExitLive        = 0
	ExitUsage       = 1
	ExitFailed      = 2
	ExitCannotJudge = 3
)

// ExitCode maps the outcome to the command's exit status; an undecided
// judgement (the time ran out) could not judge.
func (o Outcome) ExitCode() int {
	switch o {
	case Live:
		return ExitLive
	case Failed:
		return ExitFailed
	}
	return ExitCannotJudge
}

// Look is what one look at a machine saw.
type Look struct {
	At    time.Time
	State string
	// NewestCrash is the newest crash since the release began (zero: none):
	// what looks are compared by.
	NewestCrash time.Time
	// VisibleCrashes counts the crashes since the release began in the
	// event list at this look. Shown, never judged by: the platform keeps
	// only the newest few events, so the count stays flat in a crash loop.
	VisibleCrashes int
	// Events is how many events the list held.
	Events int
	Kind   diagnose.CrashKind
}

// Crash is one crash of the machine's event list.
type Crash struct {
	At        time.Time
	ExitCode  int
	OOMKilled bool
}

// Machine is one machine as the judge sees it. Every string is inert
// (sources/sanitize): it comes from the platform.
type Machine struct {
	ID, Name, Region, State string
	Release                 string // the release it runs ("" unknown)
	// From is the release it ran before, when the judge saw it change
	// (a deploy replacing it while it watched); "" otherwise.
	From   string
	Status Status
	// Crash is the crash verdict of its newest look.
	Crash diagnose.CrashVerdict
	// Looks are the newest looks (at most maxLooks), oldest first;
	// LookCount counts them all.
	Looks     []Look
	LookCount int
	// Crashes are the crashes since the release began that the newest
	// look's event list held, newest first.
	Crashes []Crash
	// FirstCrash is the earliest crash since the release began that any
	// look saw (zero: none).
	FirstCrash time.Time
	// ChecksPassing of Checks health checks passed at the newest listing.
	ChecksPassing, Checks int
	// Reason says why it has its status, in one sentence.
	Reason string
	// Unread says what of its entry the last listing could not read (or
	// that the listing skipped it, or that it names no release while not
	// steady); "" when nothing. An unread machine was not looked at then.
	Unread string
}

// ExitCodes are the exit codes of Crashes, newest first.
func (m Machine) ExitCodes() []int {
	out := make([]int, 0, len(m.Crashes))
	for _, c := range m.Crashes {
		out = append(out, c.ExitCode)
	}
	return out
}

// Await is a machine to long-poll before the next look: it is on its way
// somewhere (booting the release), and a look only counts once it settled.
type Await struct {
	ID         string // as the API named it (not for display)
	InstanceID string
}

// Result is the judgement after one listing.
type Result struct {
	// Release is the release judged ("" when no machine names one).
	Release string
	Outcome Outcome
	// Reason is one sentence: the crash-loop sentence when that is
	// why the release failed.
	Reason string
	// Machines are every listed machine: the release's first, in listing
	// order, then the others.
	Machines []Machine
	// Awaiting are the release's machines to long-poll before looking
	// again (none once the outcome is decided); NextLook is when the next
	// look at a settled machine still being looked at is due (zero: none
	// is), decided or not.
	Awaiting []Await
	NextLook time.Time
	// Rollout: machines moved between releases while the judge watched, or
	// they run more than one release: a deploy is (or was) under way.
	Rollout bool
	// Unread is what the listing held that could not be read and could
	// hide a failure of the release; while it is not empty the outcome is
	// Failed (a failure seen stands) or CannotJudge, never Live.
	Unread []Unread
}

// Machine finds a machine of the result by its (display) id.
func (r Result) Machine(id string) (Machine, bool) {
	for _, m := range r.Machines {
		if m.ID == id {
			return m, true
		}
	}
	return Machine{}, false
}

// Judged are the machines of the release (neither older nor gone).
func (r Result) Judged() []Machine {
	var out []Machine
	for _, m := range r.Machines {
		if m.Status != StatusOld && m.Status != StatusGone {
			out = append(out, m)
		}
	}
	return out
}

// Count is how many machines have status s.
func (r Result) Count(s Status) int {
	n := 0
	for _, m := range r.Machines {
		if m.Status == s {
			n++
		}
	}
	return n
}

// ReleaseName is "release v43", or "the current release".
func (r Result) ReleaseName() string {
	if r.Release == "" {
		return "the current release"
	}
	return "release v" + r.Release
}

func describeCrash(c Crash) string {
	if c.OOMKilled {
		return fmt.Sprintf("killed out of memory (exit code %d)", c.ExitCode)
	}
	return fmt.Sprintf("exit code %d", c.ExitCode)
}

// clock is a timestamp as every report prints it: UTC, to the millisecond
// (crashes 2.5 s apart must read apart).
func clock(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
