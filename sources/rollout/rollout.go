// Package rollout holds the plain values of a demo deploy — the release
// rolled out, the plan its confirmation names, one machine's step — so
// that what shows a rollout (the deploy overlay, `flywake deploy`) reads
// them without the data layer (sources/watch) that runs it.
package rollout

import (
	"fmt"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// CrashAfter is how long after a start the crashing release exits.
const CrashAfter = 2500 * time.Millisecond

// Release names a release a demo deploy can roll out.
type Release string

const (
	// Healthy runs like the app's own release (its boots included).
	Healthy Release = "healthy"
	// Crashing exits 1 CrashAfter after every start.
	Crashing Release = "crashing"
)

// ParseRelease reads "healthy" or "crashing".
func ParseRelease(s string) (Release, error) {
	switch Release(s) {
	case Healthy, Crashing:
		return Release(s), nil
	}
	return "", fmt.Errorf("the demo release is healthy or crashing, not %q", s)
}

// Describe says what the release does, for prompts and output.
func (r Release) Describe() string {
	if r == Crashing {
		return "crashes " + words.Duration(CrashAfter, words.Tenths) + " after every start"
	}
	return "healthy"
}

// Plan is a demo deploy before it runs: what the confirmation names.
type Plan struct {
	App      string
	Release  Release
	From, To string // release numbers
	Image    string // the new image reference
	Machines []Target
}

// Target is one machine the plan updates, as the model has it (every
// string inert).
type Target struct {
	ID, State, Release string
}

// IDs are the targets' ids, for the confirmation.
func (p Plan) IDs() []string {
	out := make([]string, len(p.Machines))
	for i, m := range p.Machines {
		out[i] = m.ID
	}
	return out
}

// Step is one machine of a demo deploy: its update accepted (Sent, the
// machine now on its way), then done or failed.
type Step struct {
	Machine      string
	Index, Total int // 1-based
	From, To     string
	Sent         bool   // the API accepted the update; the wait follows
	State        string // where it settled
	Err          error
}
