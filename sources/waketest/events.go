package waketest

// EventKind names what an Event reports.
type EventKind string

const (
	// EventPhase: the run moved on; Text says to what ("putting 9 machines
	// to sleep (stop)", "sending 40 requests", ...).
	EventPhase EventKind = "phase"
	// EventMachineState: a machine was seen in a new State.
	EventMachineState EventKind = "machine_state"
	// EventSuspendRefused: the API refused a suspend; Text is its 412 text
	// verbatim, and the machine is stopped instead.
	EventSuspendRefused EventKind = "suspend_refused"
	// EventRequest: one request finished; Request holds it.
	EventRequest EventKind = "request"
	// EventMachineStarted: a machine reached started during the burst; At
	// is when (platform ms since the burst began).
	EventMachineStarted EventKind = "machine_started"
	// EventMachineServing: a machine answered its first 2xx of ours.
	EventMachineServing EventKind = "machine_serving"
	// EventRunDone: one run (stop or suspend) ended; Run holds its result.
	EventRunDone EventKind = "run_done"
)

// Phase is where a run stands.
type Phase string

const (
	PhaseSleeping   Phase = "sleeping"   // putting targets to sleep
	PhaseFiring     Phase = "firing"     // requests in flight
	PhaseCollecting Phase = "collecting" // reading the platform's side after the burst
	PhaseDone       Phase = "done"
)

// Event is one step of a test, for a live view. Events arrive one at a time
// (never concurrently) from the goroutine running the test; a receiver must
// not block for long (send to a buffered channel or tea.Program.Send).
type Event struct {
	Kind    EventKind
	Mode    Mode // the run: stop or suspend
	Phase   Phase
	Text    string
	Machine string
	State   string
	// At is platform ms since the burst's first request (0 before it).
	At       int64
	Request  *Request
	Progress Progress
	Run      *Run
}

// Progress counts one run's requests so far, for a progress bar.
type Progress struct {
	Planned int `json:"planned"`
	Done    int `json:"done"`
	OK      int `json:"ok"`
	Failed  int `json:"failed"`
}
