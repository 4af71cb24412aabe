package wake

import (
	"sort"
	"strconv"

	"github.com/flywake/flywake/sources/edge"
	"github.com/flywake/flywake/sources/waketest"
)

// live is what the screen shows of the run in progress, folded from the
// engine's events. Pure: apply is the only way in.
type live struct {
	mode     waketest.Mode
	runIndex int // 1-based position of mode among the test's runs
	runs     int
	phase    string
	firing   bool // the burst has begun: machine events now carry times
	progress waketest.Progress
	statuses map[string]int
	latency  []int // per latencyBuckets
	clockMS  int64 // latest platform ms since the burst began
	tracks   []*track
	finished []string // "stop run: 28 ok, 12 failed of 40" for runs already over
}

// track is one target's wake timeline.
type track struct {
	id      string
	before  string // as the plan saw it
	asleep  string // the last state the sleep phase reached
	refused string // the API's 412 text for a refused suspend
	steps   []step // state changes during the burst
	started int64  // -1: not yet
	serving int64  // -1: not yet
}

// step is a state reached at platform ms since the burst began.
type step struct {
	state string
	at    int64
}

// newLive starts the view of one run of plan.
func newLive(plan *waketest.Plan, mode waketest.Mode, index, runs int, finished []string) *live {
	l := &live{mode: mode, runIndex: index, runs: runs, statuses: map[string]int{},
		latency: make([]int, len(latencyBuckets)), finished: finished,
		progress: waketest.Progress{Planned: plan.Requests}}
	for _, t := range plan.Targets {
		l.tracks = append(l.tracks, &track{id: t.ID, before: t.State, started: -1, serving: -1})
	}
	return l
}

// next starts the view of the following run; each target starts where
// this run left it.
func (l *live) next(plan *waketest.Plan, mode waketest.Mode, finished []string) *live {
	n := newLive(plan, mode, l.runIndex+1, l.runs, finished)
	for _, t := range n.tracks {
		if old := l.track(t.id); old != nil {
			t.before = old.last()
		}
	}
	return n
}

// last is the newest state seen of the target.
func (t *track) last() string {
	switch {
	case len(t.steps) > 0:
		return t.steps[len(t.steps)-1].state
	case t.asleep != "":
		return t.asleep
	}
	return t.before
}

func (l *live) track(id string) *track {
	for _, t := range l.tracks {
		if t.id == id {
			return t
		}
	}
	return nil
}

// apply folds one event of this run in.
func (l *live) apply(e waketest.Event) {
	if e.Progress.Planned > 0 {
		l.progress = e.Progress
	}
	if e.At > l.clockMS && l.firing {
		l.clockMS = e.At
	}
	switch e.Kind {
	case waketest.EventPhase:
		l.phase = e.Text
		if e.Phase == waketest.PhaseFiring {
			l.firing = true
		}
	case waketest.EventMachineState:
		t := l.track(e.Machine)
		if t == nil {
			return
		}
		if !l.firing {
			t.asleep = e.State
			return
		}
		if n := len(t.steps); n == 0 || t.steps[n-1].state != e.State {
			t.steps = append(t.steps, step{state: e.State, at: e.At})
		}
	case waketest.EventSuspendRefused:
		if t := l.track(e.Machine); t != nil {
			t.refused = e.Text
		}
	case waketest.EventMachineStarted:
		if t := l.track(e.Machine); t != nil && t.started < 0 {
			t.started = e.At
		}
	case waketest.EventMachineServing:
		if t := l.track(e.Machine); t != nil && t.serving < 0 {
			t.serving = e.At
		}
	case waketest.EventRequest:
		if q := e.Request; q != nil {
			l.statuses[statusKey(*q)]++
			if q.ErrClass != string(edge.ErrAborted) {
				l.latency[bucketOf(q.TotalMS)]++
			}
		}
	case waketest.EventRunDone:
		l.phase = e.Text
	}
}

// statusKey names what a request came back with: its HTTP status when it
// had one, else why not ("timeout", "reset", "cut off").
func statusKey(q waketest.Request) string {
	switch {
	case q.Status > 0:
		return strconv.Itoa(q.Status)
	case q.ErrClass == string(edge.ErrAborted):
		return "cut off"
	case q.ErrClass == "" || q.ErrClass == string(edge.ErrNone):
		return "no answer"
	}
	return q.ErrClass
}

// statusCount is one "200×38" of the status line.
type statusCount struct {
	key string
	n   int
}

// sortedStatuses lists HTTP statuses in numeric order, then the errors by name.
func sortedStatuses(m map[string]int) []statusCount {
	out := make([]statusCount, 0, len(m))
	for k, n := range m {
		out = append(out, statusCount{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, aerr := strconv.Atoi(out[i].key)
		b, berr := strconv.Atoi(out[j].key)
		switch {
		case aerr == nil && berr == nil:
			return a < b
		case (aerr == nil) != (berr == nil):
			return aerr == nil
		}
		return out[i].key < out[j].key
	})
	return out
}

// okStatus reports whether a status key is a 2xx.
func okStatus(key string) bool {
	n, err := strconv.Atoi(key)
	return err == nil && n >= 200 && n < 300
}
