package waketest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/edge"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/words"
)

// ErrAborted is returned (wrapped) by Run when the test was cut short; the
// report returned alongside still tells everything that happened.
var ErrAborted = errors.New("wake test aborted")

// errTotalLimit is the cancel cause when Setup.MaxTotal runs out.
var errTotalLimit = errors.New("total time limit reached")

// maxParallelSleeps bounds concurrent stop/suspend sequences.
const maxParallelSleeps = 5

// Run puts the targets to sleep and fires the burst, once per mode (stop,
// then suspend, for "both"). onEvent (may be nil) sees every step.
//
// Cancelling ctx aborts: nothing more is sent, every result gathered so far
// is kept, each run says what is missing, and each machine's last seen state
// is reported; Run returns that report with an error wrapping ErrAborted.
// Other failures (the API refusing a list) also come with the report.
func (p *Plan) Run(ctx context.Context, onEvent func(Event)) (*Report, error) {
	env := p.env.withDefaults()
	if p.env.API == nil {
		return nil, errors.New("the plan was not made by Prepare: no platform to talk to")
	}
	s := p.Setup
	rep := &Report{
		App: s.App, Speed: s.Speed, StartedAt: env.Now(), Release: p.Release, Mode: s.Mode,
		URL: p.URL, Path: p.Path, ProcessGroup: p.ProcessGroup, Representative: s.Representative(),
		Targets: p.Targets, Kept: nonNil(p.Kept), Runs: []Run{}, Warnings: append([]string{}, p.Warnings...),
		SoftLimit: p.SoftLimit, secrets: s.Secrets,
	}
	// Everything in the report came from the platform or the app's answers:
	// it leaves here inert, for the screen and the saved file alike. Before
	// that, every way it returns judges whether its runs compare.
	defer sanitize.All(rep)
	defer rep.judge()
	ctx, cancel := context.WithTimeoutCause(ctx, s.MaxTotal, errTotalLimit)
	defer cancel()
	modes := s.Mode.runModes()
	for i, mode := range modes {
		r := &runner{plan: p, env: env, mode: mode, onEvent: onEvent, progress: Progress{Planned: p.Requests}}
		run, err := r.runOne(ctx)
		rep.Runs = append(rep.Runs, run)
		if err == nil {
			continue
		}
		why := abortReason(ctx, s.MaxTotal)
		if ctx.Err() == nil {
			why = "the " + string(mode) + " run failed"
		}
		for _, rest := range modes[i+1:] {
			rep.Runs = append(rep.Runs, notStarted(rest, p, why))
		}
		if ctx.Err() != nil {
			rep.Aborted = true
			if why == "aborted" {
				return rep, ErrAborted
			}
			return rep, fmt.Errorf("%w: %s", ErrAborted, why)
		}
		return rep, err
	}
	return rep, nil
}

// runner runs one mode of a plan.
type runner struct {
	plan *Plan
	env  Env
	mode Mode
	obs  map[string]*machineObs
	ord  []string // machine ids in report order

	mu       sync.Mutex // serialises onEvent; guards progress
	onEvent  func(Event)
	progress Progress
	finalErr error
}

func (r *runner) api() API    { return r.env.API }
func (r *runner) app() string { return r.plan.Setup.App }

func (r *runner) emit(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Mode == "" {
		e.Mode = r.mode
	}
	e.Progress = r.progress
	if r.onEvent != nil {
		sanitize.All(&e)
		r.onEvent(e)
	}
}

func abortReason(ctx context.Context, limit time.Duration) string {
	if errors.Is(context.Cause(ctx), errTotalLimit) {
		return "total time limit (" + words.Duration(limit, words.Whole) + ") reached"
	}
	return "aborted"
}

func notStarted(mode Mode, p *Plan, why string) Run {
	r := summarize(mode, p.Requests, nil, nil, timeline{speed: p.Setup.Speed}, p.Setup.Representative())
	r.Aborted, r.Missing = true, "run not started: "+why
	return r
}

// runOne is one mode: remember, sleep, fire, collect.
func (r *runner) runOne(ctx context.Context) (Run, error) {
	p := r.plan
	stopEarly := func(err error, why string) (Run, error) {
		r.lastLook(ctx)
		run := summarize(r.mode, p.Requests, nil, r.obsList(), timeline{speed: p.Setup.Speed}, p.Setup.Representative())
		run.Notes = append(run.Notes, r.notes()...)
		run.Aborted = ctx.Err() != nil
		run.Missing = missingText(p.Requests, nil, why)
		r.emit(Event{Kind: EventRunDone, Phase: PhaseDone, Run: &run, Text: run.Missing})
		return run, err
	}

	ms, err := r.api().ListMachines(ctx, r.app())
	if err != nil {
		return stopEarly(err, "could not list the machines")
	}
	r.initObs(ms)
	// A deploy (or anyone) holding a target's lease: refuse before any change.
	for _, t := range p.Targets {
		if err := r.api().CheckLease(ctx, r.app(), t.ID); err != nil {
			return stopEarly(err, "a target's lease is held: "+err.Error())
		}
	}

	r.emit(Event{Kind: EventPhase, Phase: PhaseSleeping,
		Text: fmt.Sprintf("putting %d machines to sleep (%s)", len(p.Targets), r.mode)})
	r.sleepAll(ctx, ms)
	if ctx.Err() != nil {
		return stopEarly(ctx.Err(), abortReason(ctx, p.Setup.MaxTotal)+" while putting machines to sleep")
	}
	ms, err = r.api().ListMachines(ctx, r.app())
	if err != nil {
		if ctx.Err() != nil {
			return stopEarly(ctx.Err(), abortReason(ctx, p.Setup.MaxTotal)+" before sending")
		}
		return stopEarly(err, "could not list the machines")
	}
	for _, m := range ms {
		if o := r.obsFor(m); o != nil {
			o.atBurst, o.last = m.State, m.State
		}
	}

	results, tl, burstErr := r.burst(ctx)
	run := summarize(r.mode, p.Requests, results, r.obsList(), tl, p.Setup.Representative())
	run.Notes = append(run.Notes, r.notes()...)
	if burstErr != nil {
		why := abortReason(ctx, p.Setup.MaxTotal)
		switch {
		case errors.Is(burstErr, edge.ErrMaxTotal):
			why = "the burst hit its time limit"
		case ctx.Err() == nil:
			why = burstErr.Error()
		}
		run.Aborted = ctx.Err() != nil
		run.Missing = missingText(p.Requests, results, why)
	}
	r.emit(Event{Kind: EventRunDone, Phase: PhaseDone, Run: &run,
		Text: fmt.Sprintf("%s run: %d ok, %d failed of %d", r.mode, run.OK, run.Failed, run.Requests)})
	if burstErr != nil && !errors.Is(burstErr, edge.ErrMaxTotal) {
		return run, burstErr
	}
	return run, nil
}

// initObs records every group machine's state before the run.
func (r *runner) initObs(ms []*fly.Machine) {
	r.obs = map[string]*machineObs{}
	r.ord = nil
	targets := map[string]bool{}
	for _, t := range r.plan.Targets {
		targets[t.ID] = true
	}
	for _, m := range ms {
		if m == nil || (!targets[m.ID] && (gone(m.State) || processGroup(m) != r.plan.ProcessGroup)) {
			continue
		}
		r.obs[m.ID] = &machineObs{id: m.ID, target: targets[m.ID], before: m.State, last: m.State}
		r.ord = append(r.ord, m.ID)
	}
	for _, t := range r.plan.Targets {
		if r.obs[t.ID] == nil { // destroyed since the plan was made
			r.obs[t.ID] = &machineObs{id: t.ID, target: true, before: "gone", last: "gone", sleepErr: "no longer listed"}
			r.ord = append(r.ord, t.ID)
		}
	}
}

func (r *runner) obsFor(m *fly.Machine) *machineObs {
	if m == nil {
		return nil
	}
	return r.obs[m.ID]
}

func (r *runner) obsList() []*machineObs {
	out := make([]*machineObs, 0, len(r.ord))
	for _, id := range r.ord {
		out = append(out, r.obs[id])
	}
	return out
}

// sleepAll puts every target to sleep, a few at a time.
func (r *runner) sleepAll(ctx context.Context, ms []*fly.Machine) {
	byID := map[string]*fly.Machine{}
	for _, m := range ms {
		if m != nil {
			byID[m.ID] = m
		}
	}
	sem := make(chan struct{}, maxParallelSleeps)
	var wg sync.WaitGroup
	for _, t := range r.plan.Targets {
		o, m := r.obs[t.ID], byID[t.ID]
		if m == nil {
			continue
		}
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			if err := r.sleepOne(ctx, o, m, t.Blockers); err != nil {
				o.sleepErr = err.Error()
			}
		})
	}
	wg.Wait()
}

// burst fires the requests while the observer watches the machines.
func (r *runner) burst(ctx context.Context) ([]edge.Result, timeline, error) {
	p := r.plan
	speed := p.Setup.Speed
	platBefore, wallBefore := r.env.Now(), time.Now()
	live := timeline{wall0: wallBefore, plat0: platBefore, speed: speed}
	ob := &observer{r: r, since: platBefore, tl: live}
	r.emit(Event{Kind: EventPhase, Phase: PhaseFiring, Text: fmt.Sprintf("sending %d requests to %s%s", p.Requests, p.URL, p.Path)})

	watchCtx, stopWatching := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { ob.loop(watchCtx) })

	served := map[string]bool{}
	results, err := r.env.Edge.Run(ctx, p.Setup.edgePlan(p.Requests, p.Path), func(res edge.Result) {
		r.mu.Lock()
		r.progress.Done++
		if res.OK() {
			r.progress.OK++
		} else if res.Completed() {
			r.progress.Failed++
		}
		r.mu.Unlock()
		q := summarize(r.mode, 1, []edge.Result{res}, nil, live, true).Results[0]
		r.emit(Event{Kind: EventRequest, Phase: PhaseFiring, Request: &q, Machine: res.Machine, At: q.SentMS + q.TotalMS})
		if res.OK() && res.Machine != "" && !served[res.Machine] {
			served[res.Machine] = true
			r.emit(Event{Kind: EventMachineServing, Machine: res.Machine, At: q.SentMS + max(q.TTFBMS, 0),
				Text: res.Machine + " answered its first request"})
		}
	})
	stopWatching()
	wg.Wait()

	r.emit(Event{Kind: EventPhase, Phase: PhaseCollecting, Text: "reading the platform's side"})
	wall0 := wallBefore
	for i, res := range results {
		if i == 0 || res.Sent.Before(wall0) {
			wall0 = res.Sent
		}
	}
	tl := timeline{wall0: wall0, plat0: platBefore.Add(time.Duration(float64(wall0.Sub(wallBefore)) * speed)), speed: speed}
	ob.tl = tl
	// The last read survives an abort: the report must say where each
	// machine was left.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalLookup)
	defer cancel()
	if perr := ob.poll(fctx); perr != nil {
		r.finalErr = perr
	}
	return results, tl, err
}

// lastLook reads every machine's state once more, even after an abort.
func (r *runner) lastLook(ctx context.Context) {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalLookup)
	defer cancel()
	ms, err := r.api().ListMachines(fctx, r.app())
	if err != nil {
		r.finalErr = err
		return
	}
	for _, m := range ms {
		if o := r.obsFor(m); o != nil {
			o.last = m.State
		}
	}
}

// notes says what makes this run less clean than planned.
func (r *runner) notes() []string {
	var out []string
	for _, id := range r.ord {
		o := r.obs[id]
		if !o.target {
			continue
		}
		if o.sleepErr != "" {
			out = append(out, fmt.Sprintf("%s did not go to sleep: %s", id, o.sleepErr))
		}
		if o.atBurst != "" && diagnose.Classify(o.atBurst) != diagnose.Asleep {
			out = append(out, fmt.Sprintf("%s was %s when the requests went out (other traffic woke it, or it never went to sleep)", id, o.atBurst))
		}
	}
	if r.finalErr != nil {
		out = append(out, "the last read of the machines failed, states after the run may be stale: "+r.finalErr.Error())
	}
	return out
}
