package waketest

import (
	"time"
)

// Report is a whole wake test: the stable JSON shape documented in doc.go.
type Report struct {
	App       string    `json:"app"`
	Speed     float64   `json:"speed"`
	StartedAt time.Time `json:"started_at"` // platform time
	// SavedAt is when the result was saved, by the wall clock: it names the
	// file and the saved test wherever it is shown again (the demo's
	// platform clock starts anew each run, the files stay). Zero: not saved.
	SavedAt        time.Time `json:"saved_at,omitzero"`
	Release        string    `json:"release"`
	Mode           Mode      `json:"mode"`
	URL            string    `json:"url"`
	Path           string    `json:"path"`
	ProcessGroup   string    `json:"process_group"`
	Representative bool      `json:"representative"`
	Aborted        bool      `json:"aborted"`
	Targets        []Target  `json:"targets"`
	Kept           []string  `json:"kept_running"`
	Runs           []Run     `json:"runs"`
	Warnings       []string  `json:"warnings"`
	// SoftLimit is the service's soft limit the proxy applied (Fly's
	// default when unset); 0 in results saved before it was recorded.
	SoftLimit int `json:"soft_limit"`
	// Comparable is false when the runs cannot be read against each other
	// or another test (Report.Comparison); NotComparableBecause says why.
	Comparable           bool     `json:"comparable"`
	NotComparableBecause []string `json:"not_comparable_because"`
	// ComparableIf is what would make the runs comparable ("" when nothing
	// known would, or they are).
	ComparableIf string `json:"comparable_if"`

	secrets []string
}

// SavedWhen names a saved test by when it was saved (the file's own time),
// never the platform time it ran at.
func (r *Report) SavedWhen() string {
	if r.SavedAt.IsZero() {
		return "an unknown time"
	}
	return r.SavedAt.UTC().Format("2006-01-02 15:04 UTC")
}

// Run is one mode's measurement.
type Run struct {
	Mode     Mode `json:"mode"`
	Requests int  `json:"requests"` // planned
	Sent     int  `json:"sent"`
	OK       int  `json:"ok"`
	Failed   int  `json:"failed"`
	// CutOff counts requests in flight when the run was aborted.
	CutOff     int            `json:"cut_off"`
	ByStatus   map[string]int `json:"by_status"`    // "0" = no response
	ByErrClass map[string]int `json:"by_err_class"` // edge.ErrClass → count
	// Latencies in platform ms over every completed request, failures
	// included (a 502 after 30 s is what that user waited).
	P50MS int64 `json:"p50_ms"`
	P95MS int64 `json:"p95_ms"`
	MaxMS int64 `json:"max_ms"`
	// First200MS: first send → first complete 2xx; -1 when none.
	First200MS int64 `json:"first_200_ms"`
	// SlowestMS: the slowest complete 2xx; -1 when none.
	SlowestMS   int64 `json:"slowest_ms"`
	StartSkewMS int64 `json:"start_skew_ms"`
	// MachinesWoken counts machines that reached started during the burst.
	MachinesWoken      int              `json:"machines_woken"`
	StartedToServingMS map[string]int64 `json:"started_to_serving_ms"`
	// WokenUnserved: woken during the burst but answered none of our
	// requests with a 2xx — other traffic woke them, or they were still
	// booting when our requests gave up.
	WokenUnserved []string `json:"woken_unserved"`
	// TargetsAsleep: machines put to sleep that were asleep when the
	// requests went out; TargetsWoken: of which woke during the burst;
	// ServedByAwake: our 2xx answered by machines that were up (kept
	// running, or woken by other traffic). Run.Coverage reads them.
	TargetsAsleep int `json:"targets_asleep"`
	TargetsWoken  int `json:"targets_woken"`
	ServedByAwake int `json:"served_by_awake"`
	// NotComparable says why the run's figures do not measure its wakes
	// (the awake machines answered requests meant for the sleeping ones);
	// "" when they do.
	NotComparable    string       `json:"not_comparable"`
	SuspendBlockedBy []string     `json:"suspend_blocked_by"`
	FellBackToStop   bool         `json:"fell_back_to_stop"`
	Representative   bool         `json:"representative"`
	Aborted          bool         `json:"aborted"`
	Missing          string       `json:"missing"`
	Notes            []string     `json:"notes"`
	Machines         []MachineRun `json:"machines"`
	Results          []Request    `json:"results"`
}

// MachineRun is one machine's side of a run. Times are platform ms since
// the burst's first request; -1 = not seen.
type MachineRun struct {
	ID     string `json:"id"`
	Target bool   `json:"target"`
	// StateBefore: when the run began; Slept: what the sleep phase reached
	// ("" when it did not get there); AtBurst: when the requests went out;
	// After: as last seen.
	StateBefore string `json:"state_before"`
	Slept       string `json:"slept"`
	AtBurst     string `json:"state_at_burst"`
	After       string `json:"state_after"`
	// SuspendRefused is the API's 412 text when it refused the suspend.
	SuspendRefused string `json:"suspend_refused,omitempty"`
	FellBackToStop bool   `json:"fell_back_to_stop,omitempty"`
	SleepError     string `json:"sleep_error,omitempty"`
	// Wake is "resume" or "cold boot" as the platform's start event said;
	// WokenBy is that event's source (fly-proxy, user).
	Wake      string `json:"wake,omitempty"`
	WokenBy   string `json:"woken_by,omitempty"`
	WakeMS    int64  `json:"wake_ms"`
	StartedMS int64  `json:"started_ms"`
	ServingMS int64  `json:"serving_ms"` // first 2xx of ours it answered
	Served    int    `json:"served"`     // our 2xx it answered
}

// Request is one request of ours. Times in platform ms; SentMS is since the
// burst's first send.
type Request struct {
	Index     int    `json:"index"`
	SentMS    int64  `json:"sent_ms"`
	TTFBMS    int64  `json:"ttfb_ms"` // -1: no byte arrived
	TotalMS   int64  `json:"total_ms"`
	Status    int    `json:"status"`
	ErrClass  string `json:"err_class"`
	Err       string `json:"err,omitempty"`
	Machine   string `json:"machine,omitempty"`
	RequestID string `json:"request_id,omitempty"`
}

// OK reports a complete 2xx.
func (r Request) OK() bool {
	return r.ErrClass == "none" && r.Status >= 200 && r.Status < 300
}

// Run returns the run of mode, or nil.
func (r *Report) Run(mode Mode) *Run {
	for i := range r.Runs {
		if r.Runs[i].Mode == mode {
			return &r.Runs[i]
		}
	}
	return nil
}
