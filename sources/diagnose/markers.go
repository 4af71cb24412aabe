package diagnose

import "regexp"

// MarkerKind says what a matching log line means for a boot timeline.
type MarkerKind int

const (
	// PhaseStart opens a named phase (migrations, server start…).
	PhaseStart MarkerKind = iota
	// BootBegin starts a cold boot: the platform is building the VM.
	BootBegin
	// ResumeBegin starts a resume from a suspend snapshot.
	ResumeBegin
	// MachineStarted: the platform reports the VM started (not yet serving).
	MachineStarted
	// Serving: the machine answered a real request (or passed its health check).
	Serving
	// Crash: the app's main process died on its own (a non-zero exit, the
	// kernel's OOM killer): the boot that started it belongs to a crash loop,
	// not to a wake.
	Crash
)

// Marker recognises one kind of log line.
type Marker struct {
	Name    string
	Kind    MarkerKind
	Pattern *regexp.Regexp
	// End closes a PhaseStart marker's phase. Without End the phase lasts until
	// the next phase starts or the machine serves.
	End *regexp.Regexp
	// Provider limits the marker to one log provider (app, runner, proxy,
	// health); "" matches any.
	Provider string
	// ReleaseWork marks work that belongs to a deploy, not to every boot.
	ReleaseWork bool
}

// Phase names used by DefaultMarkers and by Boots' synthesised VM phase.
const (
	PhaseMachineBoot = "machine boot"
	PhaseResume      = "resume"
	PhaseInit        = "init"
	PhaseReleaseGate = "release gate"
	PhaseMigrations  = "migrations"
	PhaseStatic      = "static files"
	PhaseServerStart = "server start"
	PhaseListening   = "listening"
)

// requestLine2xx matches an access-log line for a successful request, e.g.
// `"GET /api/health/ HTTP/1.1" 200 15 3ms`.
var requestLine2xx = regexp.MustCompile(`"(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ HTTP/[0-9.]+" 2\d\d\b`)

// DefaultMarkers recognises the platform's runner lines and the usual Python
// web app entrypoint (Django migrate + collectstatic, granian/gunicorn/uvicorn).
// Callers can append markers for their own entrypoint.
func DefaultMarkers() []Marker {
	return []Marker{
		{Name: PhaseMachineBoot, Kind: BootBegin, Provider: "runner", Pattern: regexp.MustCompile(`Configuring firecracker`)},
		{Name: PhaseResume, Kind: ResumeBegin, Provider: "runner", Pattern: regexp.MustCompile(`Resuming machine from snapshot`)},
		{Name: "started", Kind: MachineStarted, Provider: "runner", Pattern: regexp.MustCompile(`Machine (?:started|resumed) in`)},
		{Name: PhaseInit, Provider: "app", Pattern: regexp.MustCompile(`Starting init|Preparing to run:`)},
		{Name: PhaseReleaseGate, Provider: "app", Pattern: regexp.MustCompile(`(?i)release gate:`)},
		{Name: PhaseMigrations, Provider: "app", ReleaseWork: true,
			Pattern: regexp.MustCompile(`entrypoint:.*\bmigrate\b|Operations to perform:|Running migrations`),
			End:     regexp.MustCompile(`Migrations complete`)},
		{Name: PhaseStatic, Provider: "app", ReleaseWork: true,
			Pattern: regexp.MustCompile(`entrypoint:.*\bcollectstatic\b`),
			End:     regexp.MustCompile(`static files? copied`)},
		{Name: PhaseServerStart, Provider: "app", Pattern: regexp.MustCompile(`(?i)Starting (?:granian|gunicorn|uvicorn|server)\b`)},
		{Name: PhaseListening, Provider: "app", Pattern: regexp.MustCompile(`Listening at:|Listening on|Uvicorn running on`)},
		{Name: "first 2xx", Kind: Serving, Provider: "app", Pattern: requestLine2xx},
		{Name: "health passing", Kind: Serving, Provider: "health", Pattern: regexp.MustCompile(`is now passing`)},
		// Fly's init logs the main process's exit; code 0 is a clean stop.
		{Name: "crashed", Kind: Crash, Provider: "app", Pattern: regexp.MustCompile(`Main child exited normally with code: [1-9]|Out of memory: Killed process`)},
	}
}
