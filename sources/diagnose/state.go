package diagnose

// Phase is what a machine state means for someone waiting on a request.
type Phase int

const (
	// PhaseUnknown is a state string this package has never heard of.
	PhaseUnknown Phase = iota
	// Awake: the machine runs and can serve.
	Awake
	// Asleep: the machine exists but is not running (stopped, suspended, created).
	Asleep
	// Waking: the machine is on its way to running (starting, restarting,
	// or being created, updated or replaced by a deploy).
	Waking
	// Sleeping: the machine is on its way down (stopping, suspending).
	Sleeping
	// Troubled: the platform could not run it.
	Troubled
	// Gone: the machine (or this version of it) no longer exists or is going away.
	Gone
)

// String names the phase for display.
func (p Phase) String() string {
	switch p {
	case Awake:
		return "awake"
	case Asleep:
		return "asleep"
	case Waking:
		return "waking"
	case Sleeping:
		return "sleeping"
	case Troubled:
		return "troubled"
	case Gone:
		return "gone"
	default:
		return "unknown"
	}
}

// stateInfo is one row of the platform's state table (fly-platform.md §2.1).
type stateInfo struct {
	phase     Phase
	transient bool
}

var states = map[string]stateInfo{
	"created":       {Asleep, false},
	"creating":      {Waking, true},
	"starting":      {Waking, true},
	"started":       {Awake, false},
	"stopping":      {Sleeping, true},
	"stopped":       {Asleep, false},
	"suspending":    {Sleeping, true},
	"suspended":     {Asleep, false},
	"restarting":    {Waking, true},
	"replacing":     {Waking, true},
	"updating":      {Waking, true},
	"destroying":    {Gone, true},
	"destroyed":     {Gone, false},
	"failed":        {Troubled, false},
	"launch_failed": {Troubled, true}, // transient per the docs: it moves on to destroyed
	"replaced":      {Gone, false},
	"migrated":      {Gone, false},
}

// AllStates lists every machine state the platform documents, in lifecycle order.
var AllStates = []string{
	"creating", "created", "starting", "started", "stopping", "stopped",
	"suspending", "suspended", "restarting", "updating", "replacing",
	"destroying", "destroyed", "failed", "launch_failed", "replaced", "migrated",
}

// Classify maps a machine state string to its Phase. Unknown strings give
// PhaseUnknown; the platform adds states from time to time.
func Classify(state string) Phase {
	if info, ok := states[state]; ok {
		return info.phase
	}
	return PhaseUnknown
}

// IsTransient reports whether the platform documents state as a passing one.
// A machine stuck in a transient state for minutes is wedged.
func IsTransient(state string) bool {
	return states[state].transient
}
