package waketest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/edge"
)

// timeline maps the burst's wall clock onto platform milliseconds: zero is
// the burst's first send.
type timeline struct {
	wall0 time.Time // first send, wall clock
	plat0 time.Time // the same instant on the platform clock
	speed float64
}

func (t timeline) ms(d time.Duration) int64 {
	return int64(float64(d) * t.speed / float64(time.Millisecond))
}

// sinceWall is a wall instant in platform ms since the burst began.
func (t timeline) sinceWall(w time.Time) int64 { return t.ms(w.Sub(t.wall0)) }

// sincePlat is a platform instant in ms since the burst began; -1 for zero.
func (t timeline) sincePlat(p time.Time) int64 {
	if p.IsZero() {
		return -1
	}
	return p.Sub(t.plat0).Milliseconds()
}

// machineObs is what the engine learned about one machine during a run.
type machineObs struct {
	id       string
	target   bool
	before   string
	slept    string
	atBurst  string
	last     string
	refused  string
	fellBack bool
	sleepErr string
	// From the platform's start events during the burst.
	wakeAt, startedAt time.Time
	wake, wokenBy     string
}

// summarize turns one burst's results and machine observations into a Run.
// It does no I/O.
func summarize(mode Mode, planned int, results []edge.Result, obs []*machineObs, tl timeline, representative bool) Run {
	s := edge.Summarize(results)
	r := Run{
		Mode: mode, Requests: planned, Sent: len(results), OK: s.OK, Failed: s.Failed, CutOff: s.Aborted,
		ByStatus: map[string]int{}, ByErrClass: map[string]int{},
		P50MS: tl.ms(s.P50), P95MS: tl.ms(s.P95), MaxMS: tl.ms(s.Max), StartSkewMS: tl.ms(s.StartSkew),
		First200MS: -1, SlowestMS: -1,
		StartedToServingMS: map[string]int64{}, WokenUnserved: []string{}, SuspendBlockedBy: []string{},
		Representative: representative, Notes: []string{}, Machines: []MachineRun{}, Results: []Request{},
	}
	for st, n := range s.ByStatus {
		r.ByStatus[strconv.Itoa(st)] = n
	}
	for c, n := range s.ByErrClass {
		r.ByErrClass[string(c)] = n
	}
	if s.OK > 0 {
		r.First200MS = tl.ms(s.First200)
	}
	type served struct {
		n     int
		first int64
	}
	byMachine := map[string]*served{}
	for _, res := range results {
		q := Request{Index: res.Index, SentMS: tl.sinceWall(res.Sent), TTFBMS: -1, TotalMS: tl.ms(res.Total),
			Status: res.Status, ErrClass: string(res.ErrClass), Err: res.Err, Machine: res.Machine, RequestID: res.RequestID}
		if res.TTFB > 0 {
			q.TTFBMS = tl.ms(res.TTFB)
		}
		r.Results = append(r.Results, q)
		if !res.OK() {
			continue
		}
		r.SlowestMS = max(r.SlowestMS, q.TotalMS)
		if res.Machine == "" {
			continue
		}
		arrived := res.Total
		if res.TTFB > 0 {
			arrived = res.TTFB
		}
		at := tl.sinceWall(res.Sent.Add(arrived))
		sv := byMachine[res.Machine]
		if sv == nil {
			sv = &served{first: at}
			byMachine[res.Machine] = sv
		}
		sv.n++
		sv.first = min(sv.first, at)
	}

	seen := map[string]bool{}
	for _, o := range obs {
		seen[o.id] = true
		mr := MachineRun{ID: o.id, Target: o.target, StateBefore: o.before, Slept: o.slept, AtBurst: o.atBurst, After: o.last,
			SuspendRefused: o.refused, FellBackToStop: o.fellBack, SleepError: o.sleepErr,
			Wake: o.wake, WokenBy: o.wokenBy, WakeMS: tl.sincePlat(o.wakeAt), StartedMS: tl.sincePlat(o.startedAt), ServingMS: -1}
		if sv := byMachine[o.id]; sv != nil {
			mr.Served, mr.ServingMS = sv.n, sv.first
		}
		if !o.startedAt.IsZero() {
			r.MachinesWoken++
			if mr.Served > 0 {
				r.StartedToServingMS[o.id] = max(mr.ServingMS-mr.StartedMS, 0)
			} else {
				r.WokenUnserved = append(r.WokenUnserved, o.id)
			}
		}
		if o.refused != "" && !contains(r.SuspendBlockedBy, o.refused) {
			r.SuspendBlockedBy = append(r.SuspendBlockedBy, o.refused)
		}
		r.FellBackToStop = r.FellBackToStop || o.fellBack
		r.Machines = append(r.Machines, mr)
	}
	// A machine that answered us but is not in the list (another process
	// group, or created during the run) still gets a row.
	var extra []string
	for id := range byMachine {
		if !seen[id] {
			extra = append(extra, id)
		}
	}
	sort.Strings(extra)
	for _, id := range extra {
		sv := byMachine[id]
		r.Machines = append(r.Machines, MachineRun{ID: id, WakeMS: -1, StartedMS: -1, ServingMS: sv.first, Served: sv.n})
	}
	return r
}

// missingText says which requests have no complete record and why, e.g.
// "requests 23–40 not sent: aborted". "" when nothing is missing.
func missingText(planned int, results []edge.Result, why string) string {
	sent := make([]bool, planned)
	cut := 0
	for _, r := range results {
		if r.Index >= 0 && r.Index < planned {
			sent[r.Index] = true
		}
		if !r.Completed() {
			cut++
		}
	}
	var ranges []string
	for i := 0; i < planned; {
		if sent[i] {
			i++
			continue
		}
		j := i
		for j+1 < planned && !sent[j+1] {
			j++
		}
		if i == j {
			ranges = append(ranges, strconv.Itoa(i+1))
		} else {
			ranges = append(ranges, fmt.Sprintf("%d–%d", i+1, j+1))
		}
		i = j + 1
	}
	var parts []string
	if len(ranges) > 0 {
		word := "requests"
		if len(ranges) == 1 && !strings.Contains(ranges[0], "–") {
			word = "request"
		}
		parts = append(parts, fmt.Sprintf("%s %s not sent", word, strings.Join(ranges, ", ")))
	}
	if cut > 0 {
		parts = append(parts, fmt.Sprintf("%d cut off in flight (no outcome)", cut))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": " + why
}
