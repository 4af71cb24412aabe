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

// Urgency orders phases for someone triaging, the most urgent first:
// troubled, waking, sleeping, awake, asleep, unknown, gone. The machines
// table sorts by it and the header lists its state counts in it.
func (p Phase) Urgency() int {
	switch p {
	case Troubled:
		return 0
	case Waking:
		return 1
	case Sleeping:
		return 2
	case Awake:
		return 3
	case Asleep:
		return 4
	case Gone:
		return 6
	}
	return 5
}

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

// State is one machine state: what it means for a waiting request and
// whether the platform moves on from it by itself. Drawing it (glyph,
// colour) is the theme's business; the list of states is this package's.
type State struct {
	Name      string
	Phase     Phase
	Transient bool
}

// States is every machine state flywake knows, in lifecycle order: the
// platform's documented ones (fly-platform.md §2.1, machine-states docs) plus
// "resuming", which is not a documented machine state but the status of the
// start event of a resume from suspend; clients and panes show it as the
// state a waking machine is in, so it is classified like "starting".
var States = []State{
	{"creating", Waking, true},
	{"created", Asleep, false},
	{"starting", Waking, true},
	{"resuming", Waking, true},
	{"started", Awake, false},
	{"stopping", Sleeping, true},
	{"stopped", Asleep, false},
	{"suspending", Sleeping, true},
	{"suspended", Asleep, false},
	{"restarting", Waking, true},
	{"updating", Waking, true},
	{"replacing", Waking, true},
	{"destroying", Gone, true},
	{"destroyed", Gone, false},
	{"failed", Troubled, false},
	{"launch_failed", Troubled, true}, // transient per the docs: it moves on to destroyed
	{"replaced", Gone, false},
	{"migrated", Gone, false},
}

var statesByName = func() map[string]State {
	m := make(map[string]State, len(States))
	for _, s := range States {
		m[s.Name] = s
	}
	return m
}()

// LookupState finds a state by its exact name (the platform sends lower
// case; anything else is a state flywake does not know).
func LookupState(name string) (State, bool) {
	s, ok := statesByName[name]
	return s, ok
}

// Classify maps a machine state string to its Phase. Unknown strings give
// PhaseUnknown; the platform adds states from time to time.
func Classify(state string) Phase {
	if s, ok := statesByName[state]; ok {
		return s.Phase
	}
	return PhaseUnknown
}

// IsTransient reports whether the platform documents state as a passing one.
// A machine stuck in a transient state for minutes is wedged.
func IsTransient(state string) bool {
	return statesByName[state].Transient
}
