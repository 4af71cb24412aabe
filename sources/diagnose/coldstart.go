package diagnose

import (
	"slices"
	"strings"
	"time"
)

// A cold start lasts until the machine answers a real request, not until the
// platform says "started": the demo's sleepy-api is "started" within a
// second and serves 25–33 s later. Boots builds that timeline per machine from log lines.

// LogLine is one platform or app log line, already attributed to a machine.
type LogLine struct {
	Time     time.Time
	Machine  string
	Provider string // app, runner, proxy, health
	Message  string
	Region   string // where the line was logged ("" when the API gave none)
	Level    string // info, warn, error, … as the logs API reports it
}

// PhaseSpan is one named stretch of a boot. A zero End means still running.
type PhaseSpan struct {
	Name        string
	Start, End  time.Time
	ReleaseWork bool
}

// Duration is End-Start, or now-Start while the phase is still running.
func (s PhaseSpan) Duration(now time.Time) time.Duration {
	end := s.End
	if end.IsZero() {
		end = now
	}
	return max(0, end.Sub(s.Start))
}

// Boot is one cold boot or resume of one machine.
type Boot struct {
	Machine string
	Resume  bool
	// Begin: the platform began building (or resuming) the VM.
	Begin time.Time
	// Started: the platform reported the VM started; zero if not seen.
	Started time.Time
	// Serving: the first successful request or passing health check.
	Serving time.Time
	Phases  []PhaseSpan
	// Complete: the machine served. An incomplete boot is live unless Abandoned.
	Complete bool
	// Abandoned: the app crashed, or another boot of the same machine began,
	// before this one served (a stop, or logs we missed).
	Abandoned bool
	// LastSeen is the time of the last log line attributed to this boot.
	LastSeen time.Time
	// CrashedAt: the app this boot started died on its own (a non-zero exit,
	// the OOM killer) at this time, before the machine's next boot; zero if
	// it did not.
	CrashedAt time.Time
	// AfterCrash: the boot began within CrashRestartWithin of the machine's
	// previous run crashing — the platform restarting it.
	AfterCrash bool
}

// CrashRestartWithin is how soon after a crash a boot counts as its
// restart: the platform restarts a crashed machine within a second or two
// (fly-platform's restart policy), while a start by hand or by a request
// minutes later is a boot of its own.
const CrashRestartWithin = time.Minute

// CrashRestart reports whether b belongs to a crash loop: its app crashed,
// or it is the platform's restart after a crash. Such a boot measures the
// crash, not how long a sleeping machine takes to wake, so every count of
// cold boots leaves it out and counts it apart.
func (b Boot) CrashRestart() bool { return !b.CrashedAt.IsZero() || b.AfterCrash }

// ColdIn reports whether b is a cold boot begun in (since, now]: the one rule
// for counting boots over a window, so the cold-start counts, the Traffic
// pane's cause and its chart agree on the same window. Crash restarts are
// not cold boots (CrashRestartIn counts them).
func (b Boot) ColdIn(since, now time.Time) bool {
	return !b.Resume && !b.CrashRestart() && b.in(since, now)
}

// CrashRestartIn reports whether b is a crash restart begun in (since, now].
func (b Boot) CrashRestartIn(since, now time.Time) bool {
	return b.CrashRestart() && b.in(since, now)
}

func (b Boot) in(since, now time.Time) bool { return b.Begin.After(since) && !b.Begin.After(now) }

// Elapsed is the boot's length: begin→serving when complete, begin→last line
// when abandoned, and begin→now (a live timer) otherwise.
func (b Boot) Elapsed(now time.Time) time.Duration {
	switch {
	case b.Complete:
		return max(0, b.Serving.Sub(b.Begin))
	case b.Abandoned:
		return max(0, b.LastSeen.Sub(b.Begin))
	default:
		return max(0, now.Sub(b.Begin))
	}
}

// Live reports whether the boot is still under way.
func (b Boot) Live() bool { return !b.Complete && !b.Abandoned }

// bootBuilder tracks one machine's boot in progress.
type bootBuilder struct {
	boot *Boot
	// open maps a span index to the marker that opened it (-1: the VM span).
	open map[int]int
	seen map[string]bool // phase names already opened in this boot
}

// BootTracker builds boot timelines as lines arrive, in time order (the logs
// API pages forward), so each line is matched against the markers once: a
// dashboard holding a day of a busy app's logs must not re-read them all on
// every page.
type BootTracker struct {
	markers []Marker
	filters []prefilter // one per marker's Pattern
	done    []*Boot
	current map[string]*bootBuilder
}

// MaxTrackedBoots bounds a tracker's history; the oldest boots fall off first.
const MaxTrackedBoots = 20_000

// NewBootTracker starts an empty tracker using markers.
func NewBootTracker(markers []Marker) *BootTracker {
	filters := make([]prefilter, len(markers))
	for i, m := range markers {
		filters[i] = newPrefilter(m.Pattern)
	}
	return &BootTracker{markers: markers, filters: filters, current: map[string]*bootBuilder{}}
}

// Add feeds lines, oldest first.
func (t *BootTracker) Add(lines []LogLine) {
	markers := t.markers
	for _, line := range lines {
		mi := matchMarker(markers, t.filters, line)
		b := t.current[line.Machine]
		if mi >= 0 && (markers[mi].Kind == BootBegin || markers[mi].Kind == ResumeBegin) {
			if b != nil && b.boot.Live() {
				b.abandon()
			}
			prev := b
			b = newBootBuilder(line, markers[mi])
			if prev != nil && !prev.boot.CrashedAt.IsZero() && line.Time.Sub(prev.boot.CrashedAt) <= CrashRestartWithin {
				b.boot.AfterCrash = true
			}
			t.current[line.Machine] = b
			t.done = append(t.done, b.boot)
			continue
		}
		// A crash ends the run whether or not the boot had served yet; one
		// that had not never will (no live timer for a dead app).
		if mi >= 0 && markers[mi].Kind == Crash {
			if b != nil && b.boot.CrashedAt.IsZero() {
				b.boot.CrashedAt = line.Time
				if b.boot.Live() {
					b.boot.LastSeen = line.Time
					b.abandon()
				}
			}
			continue
		}
		if b == nil || !b.boot.Live() {
			continue
		}
		b.boot.LastSeen = line.Time
		b.closeEnded(line, markers)
		if mi < 0 {
			continue
		}
		switch markers[mi].Kind {
		case MachineStarted:
			if b.boot.Started.IsZero() {
				b.boot.Started = line.Time
				b.closeVM(line.Time)
			}
		case PhaseStart:
			b.startPhase(mi, markers[mi], line.Time, markers)
		case Serving:
			b.boot.Serving = line.Time
			b.boot.Complete = true
			b.closeAll(line.Time)
		}
	}
	if n := len(t.done) - MaxTrackedBoots; n > 0 {
		t.done = append(t.done[:0:0], t.done[n:]...)
	}
}

// Boots returns a copy of every boot seen, ordered by begin time.
func (t *BootTracker) Boots() []Boot {
	out := make([]Boot, 0, len(t.done))
	for _, b := range t.done {
		bb := *b
		bb.Phases = slices.Clone(b.Phases)
		out = append(out, bb)
	}
	slices.SortStableFunc(out, func(a, b Boot) int {
		if c := a.Begin.Compare(b.Begin); c != 0 {
			return c
		}
		return strings.Compare(a.Machine, b.Machine)
	})
	return out
}

// matchMarker returns the index of the first marker that matches line, or
// -1; filters[i] is markers[i]'s prefilter.
func matchMarker(markers []Marker, filters []prefilter, line LogLine) int {
	var folded string // the message case-folded, once a filter asks
	for i, m := range markers {
		if m.Pattern == nil || (m.Provider != "" && m.Provider != line.Provider) {
			continue
		}
		if filters[i].mayMatch(line.Message, &folded) && m.Pattern.MatchString(line.Message) {
			return i
		}
	}
	return -1
}

func newBootBuilder(line LogLine, begin Marker) *bootBuilder {
	name := PhaseMachineBoot
	if begin.Kind == ResumeBegin {
		name = PhaseResume
	}
	boot := &Boot{
		Machine:  line.Machine,
		Resume:   begin.Kind == ResumeBegin,
		Begin:    line.Time,
		LastSeen: line.Time,
		Phases:   []PhaseSpan{{Name: name, Start: line.Time}},
	}
	return &bootBuilder{boot: boot, open: map[int]int{0: -1}, seen: map[string]bool{name: true}}
}

func (b *bootBuilder) closeSpan(i int, at time.Time) {
	b.boot.Phases[i].End = at
	delete(b.open, i)
}

// closeVM ends the synthesised VM span when the platform reports "started".
func (b *bootBuilder) closeVM(at time.Time) {
	for i, mi := range b.open {
		if mi == -1 {
			b.closeSpan(i, at)
		}
	}
}

// closeEnded ends phases whose End pattern matches this line.
func (b *bootBuilder) closeEnded(line LogLine, markers []Marker) {
	for i, mi := range b.open {
		if mi >= 0 && markers[mi].End != nil && markers[mi].End.MatchString(line.Message) {
			b.closeSpan(i, line.Time)
		}
	}
}

// startPhase opens a phase once per boot; phases without an End pattern
// (and the VM span) close when the next phase starts.
func (b *bootBuilder) startPhase(mi int, m Marker, at time.Time, markers []Marker) {
	if b.seen[m.Name] {
		return
	}
	b.seen[m.Name] = true
	for i, open := range b.open {
		if open == -1 || markers[open].End == nil {
			b.closeSpan(i, at)
		}
	}
	b.boot.Phases = append(b.boot.Phases, PhaseSpan{Name: m.Name, Start: at, ReleaseWork: m.ReleaseWork})
	b.open[len(b.boot.Phases)-1] = mi
}

func (b *bootBuilder) closeAll(at time.Time) {
	for i := range b.open {
		b.closeSpan(i, at)
	}
}

func (b *bootBuilder) abandon() {
	b.boot.Abandoned = true
	b.closeAll(b.boot.LastSeen)
}
