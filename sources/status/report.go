package status

import (
	"sort"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
)

// Report is the whole of `flywake status --json`.
type Report struct {
	GeneratedAt time.Time `json:"generated_at"` // wall clock
	Org         string    `json:"org"`
	Demo        bool      `json:"demo"`
	Apps        []App     `json:"apps"`
}

// App is one app's look.
type App struct {
	App        string    `json:"app"`
	ObservedAt time.Time `json:"observed_at"`
	Release    *string   `json:"release"`
	CrashLoop  *string   `json:"crash_loop"`
	// Malformed counts the null entries (machines, checks, events) the
	// listing held; they were skipped.
	Malformed  int         `json:"malformed_entries_skipped"`
	Machines   []Machine   `json:"machines"`
	ColdStarts ColdStarts  `json:"cold_starts"`
	Swap       Verdict     `json:"swap"`
	Bytecode   Verdict     `json:"bytecode"`
	EdgeOrigin *EdgeOrigin `json:"edge_origin"`
	// Backlog is the Backlog pane's verdict over every machine; each
	// machine's own figures are in its Backlog.
	Backlog Verdict `json:"backlog"`
	// Crash is the release's crash judgement, the one the dashboard's
	// banner and the verdict make: fail (a crash loop, a give-up), unknown
	// (something that could hide one could not be read), warn (a machine
	// crashed once and the look that tells was not taken), pass.
	Crash Verdict `json:"crash"`
	// Probes is which machines the exec probes (swap, sockets, bytecode)
	// ran on: a sample; null when the look ran none.
	Probes *snapshot.ProbeSample `json:"probes"`

	table textTable // the machines table WriteText prints; not part of the JSON
}

// Machine is one machine.
type Machine struct {
	ID               string           `json:"id"`
	Name             string           `json:"name"`
	State            string           `json:"state"`
	Phase            string           `json:"phase"`
	Transient        bool             `json:"transient"`
	Region           string           `json:"region"`
	ProcessGroup     *string          `json:"process_group"`
	Release          *string          `json:"release"`
	Image            *string          `json:"image"`
	ImageDigest      *string          `json:"image_digest"`
	HostStatus       *string          `json:"host_status"`
	ConfigIncomplete bool             `json:"config_incomplete"`
	Cordoned         bool             `json:"cordoned"`
	CreatedAt        *time.Time       `json:"created_at"`
	UpdatedAt        *time.Time       `json:"updated_at"`
	Autostop         *string          `json:"autostop"`
	Checks           []Check          `json:"checks"`
	NewestEvent      *Event           `json:"newest_event"`
	Crash            Crash            `json:"crash"`
	Alerts           []snapshot.Alert `json:"alerts"`
	Backlog          *MachineBacklog  `json:"backlog"`
}

// MachineBacklog is why a machine's backlog alert says what it says: its
// CLOSE_WAIT sockets against the limits its service applies.
type MachineBacklog struct {
	Level     diagnose.Level `json:"level"`
	CloseWait *int           `json:"close_wait"`
	ProbedAt  *time.Time     `json:"probed_at"`
	LimitType string         `json:"limit_type"`
	SoftLimit int            `json:"soft_limit"`
	HardLimit *int           `json:"hard_limit"`
	Reason    string         `json:"reason"`
}

// Check is one health check's last result.
type Check struct {
	Name      string         `json:"name"`
	Status    string         `json:"status"`
	Level     diagnose.Level `json:"level"`
	UpdatedAt *time.Time     `json:"updated_at"`
}

// Event is the machine's newest event.
type Event struct {
	Type   string     `json:"type"`
	Status string     `json:"status"`
	Source string     `json:"source"`
	At     *time.Time `json:"at"` // null: the platform's time for it is missing or no date (words.Datable)
}

// Crash is the machine's crash-loop verdict.
type Crash struct {
	Verdict       string         `json:"verdict"`
	Level         diagnose.Level `json:"level"`
	NewestCrashAt *time.Time     `json:"newest_crash_at"`
	Reason        string         `json:"reason"`
}

// ColdStarts summarises a day of boots from the logs.
type ColdStarts struct {
	Boots24h      int      `json:"boots_24h"`
	BootsLastHour int      `json:"boots_last_hour"`
	Served        int      `json:"served"`
	BootingNow    int      `json:"booting_now"`
	Abandoned     int      `json:"abandoned"`
	P50Seconds    *float64 `json:"p50_s"`
	P95Seconds    *float64 `json:"p95_s"`
	MaxSeconds    *float64 `json:"max_s"`
	Resumes24h    int      `json:"resumes_24h"`
	ResumeP50     *float64 `json:"resume_p50_s"`
	ResumeP95     *float64 `json:"resume_p95_s"`
	ResumeMax     *float64 `json:"resume_max_s"`
	// CrashRestarts24h are the starts that crashed or were the platform's
	// restart after a crash: in none of the counts or percentiles above.
	CrashRestarts24h int            `json:"crash_restarts_24h"`
	Dominant         *DominantPhase `json:"dominant_phase"`
	Summary          string         `json:"summary"`
}

// DominantPhase is the boot phase with the longest median.
type DominantPhase struct {
	Name        *string `json:"name"`
	Median      float64 `json:"median_s"`
	OfMedian    float64 `json:"of_median_s"`
	ReleaseWork bool    `json:"release_work"`
	Boots       int     `json:"boots"`
	Of          int     `json:"of"`
}

// Verdict is a graded line.
type Verdict struct {
	Level diagnose.Level `json:"level"`
	Line  string         `json:"line"`
}

// EdgeOrigin compares the edge's responses with the app's, both ways: what
// died between them, and what the app answered that no client received.
type EdgeOrigin struct {
	At      *time.Time `json:"at"`
	Died1h  *float64   `json:"died_1h"`
	Edge1h  *float64   `json:"edge_1h"`
	Died24h *float64   `json:"died_24h"`
	Edge24h *float64   `json:"edge_24h"`
	Error   *string    `json:"error"`

	App1h       *float64  `json:"app_1h"`
	App24h      *float64  `json:"app_24h"`
	TooLate1h   *float64  `json:"answered_too_late_1h"`
	TooLate24h  *float64  `json:"answered_too_late_24h"`
	Verdicts24h []Verdict `json:"verdicts_24h"`
	Verdicts1h  []Verdict `json:"verdicts_1h"`
}

// BuildApp is one app's look at platform time now.
func BuildApp(a *snapshot.App, now time.Time) App {
	out := App{
		App: a.Name, ObservedAt: now.UTC(),
		Release: orNull(a.CurrentRelease()), CrashLoop: orNull(a.CrashBanner()), Malformed: a.Malformed,
		Machines:   []Machine{},
		ColdStarts: coldStarts(a, now),
		Swap:       verdict(a.Swap()), Bytecode: verdict(a.BytecodeVerdict()),
		Backlog: verdict(a.BacklogVerdict()), Crash: verdict(a.CrashVerdict()),
		Probes: a.Sample,
	}
	for _, m := range a.Machines {
		out.Machines = append(out.Machines, machine(a, m))
	}
	sort.SliceStable(out.Machines, func(i, j int) bool { return out.Machines[i].ID < out.Machines[j].ID })
	out.table = machinesTable(a, now)
	if eo := a.Metrics; eo != nil {
		e := &EdgeOrigin{At: timeOrNull(eo.At), Error: orNull(eo.Err), Verdicts24h: []Verdict{}, Verdicts1h: []Verdict{}}
		if eo.Err == "" {
			h, d := eo.Gaps()
			e.Died1h, e.Edge1h, e.App1h, e.TooLate1h = &h.Lost, &h.Edge, &h.App, &h.Unclaimed
			e.Died24h, e.Edge24h, e.App24h, e.TooLate24h = &d.Lost, &d.Edge, &d.App, &d.Unclaimed
			for _, v := range d.Verdicts("24 h") {
				e.Verdicts24h = append(e.Verdicts24h, verdict(v))
			}
			for _, v := range h.Verdicts("the last hour") {
				e.Verdicts1h = append(e.Verdicts1h, verdict(v))
			}
		}
		out.EdgeOrigin = e
	}
	return out
}

func machine(a *snapshot.App, m snapshot.Machine) Machine {
	out := Machine{
		ID: m.ID, Name: m.Name, State: m.State, Region: m.Region,
		Phase: m.Phase.String(), Transient: diagnose.IsTransient(m.State),
		ProcessGroup: orNull(m.ProcessGroup), Release: orNull(m.Release),
		Image: orNull(m.Image), ImageDigest: orNull(m.ImageDigest), HostStatus: orNull(m.HostStatus),
		Cordoned:  m.Cordoned,
		CreatedAt: timeOrNull(m.CreatedAt), UpdatedAt: timeOrNull(m.UpdatedAt),
		Checks: []Check{}, Alerts: a.Alerts(m),
		Crash: Crash{
			Verdict: m.Crash.Kind.String(), Level: m.Crash.Kind.Level(),
			NewestCrashAt: timeOrNull(m.Crash.NewestCrash), Reason: m.Crash.Reason,
		},
	}
	if m.Crash.Kind == diagnose.Watching {
		// status does not look again once it has printed: say what the
		// one look could not tell.
		out.Crash.Reason = strings.TrimSuffix(m.Crash.Reason, diagnose.LookingAgain) + ": one look cannot tell a crash loop from one crash, and status ended before the next"
	}
	if out.Alerts == nil {
		out.Alerts = []snapshot.Alert{}
	}
	if bm := a.BacklogOf(m); bm.Served {
		b := &MachineBacklog{
			Level: bm.Level(), ProbedAt: timeOrNull(bm.ProbedAt), Reason: bm.Reason(),
			LimitType: bm.Conc.Kind(), SoftLimit: bm.Conc.SoftLimit(),
		}
		if n := bm.CloseWait(); n >= 0 {
			b.CloseWait = &n
		}
		if bm.Conc.Hard > 0 {
			h := bm.Conc.Hard
			b.HardLimit = &h
		}
		out.Backlog = b
	}
	if m.Config != nil {
		out.ConfigIncomplete = m.Config.Incomplete
		out.Autostop = &m.Config.Autostop
		if out.Image == nil {
			out.Image = orNull(m.Config.Image)
		}
	}
	for _, c := range m.Checks {
		out.Checks = append(out.Checks, Check{Name: c.Name, Status: c.Status, Level: diagnose.CheckLevel(c.Status), UpdatedAt: timeOrNull(c.UpdatedAt)})
	}
	if e, ok := m.NewestEvent(); ok {
		out.NewestEvent = &Event{Type: e.Type, Status: e.Status, Source: e.Source, At: timeOrNull(e.At)}
	}
	return out
}

func coldStarts(a *snapshot.App, now time.Time) ColdStarts {
	cs := a.ColdStarts(now)
	out := ColdStarts{
		Boots24h: cs.PerDay, BootsLastHour: cs.PerHour,
		Served: cs.Served, BootingNow: len(a.LiveBoots()), Abandoned: cs.Abandoned,
		Resumes24h: cs.Resumes.Count, CrashRestarts24h: cs.CrashRestarts,
		Summary: cs.DominantSentence(),
	}
	if cs.Served > 0 {
		out.P50Seconds, out.P95Seconds, out.MaxSeconds = seconds(cs.P50), seconds(cs.P95), seconds(cs.Max)
	}
	if cs.Resumes.Served > 0 {
		out.ResumeP50, out.ResumeP95, out.ResumeMax = seconds(cs.Resumes.P50), seconds(cs.Resumes.P95), seconds(cs.Resumes.Max)
	}
	if d := cs.Dominant; d.Of > 0 {
		out.Dominant = &DominantPhase{
			Name: orNull(d.Name), Median: d.Duration.Seconds(), OfMedian: d.OfTotal.Seconds(),
			ReleaseWork: d.ReleaseWork, Boots: d.Boots, Of: d.Of,
		}
	}
	return out
}

func verdict(v diagnose.Verdict) Verdict { return Verdict{Level: v.Level, Line: v.Line} }

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// timeOrNull is every time status writes: null when it is unknown, missing
// or no date at all (words.Datable), so one odd timestamp never fails the
// command.
func timeOrNull(t time.Time) *time.Time {
	if !words.Datable(t) {
		return nil
	}
	u := t.UTC()
	return &u
}

func seconds(d time.Duration) *float64 {
	s := d.Seconds()
	return &s
}
