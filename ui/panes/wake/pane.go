package wake

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/ui/components/scroll"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Stage is where the wake test stands.
type Stage int

const (
	StageClosed   Stage = iota // never opened
	StageReadOnly              // --readonly: the test is off
	StageSetup                 // choosing mode and requests; the plan is (re)read
	StageConfirm               // y/N naming the app and every machine
	StageRunning               // the engine is running; esc aborts
	StageAborting              // cancelled; waiting for the partial report
	StageDone                  // a report (finished or aborted) is shown
)

func (s Stage) String() string {
	return [...]string{"closed", "read-only", "setup", "confirm", "running", "aborting", "done"}[s]
}

// prepareTimeout bounds the one list call of a Prepare.
const prepareTimeout = 30 * time.Second

// requestStep is how far +/- move the request count.
const requestStep = 10

var contextWithTimeout = context.WithTimeout

// Options is what the root knows that the pane needs.
type Options struct {
	// Setup carries the app and the platform facts: AppURL (the demo edge,
	// "" for https://<app>.fly.dev), Speed, Secrets. Mode and Requests are
	// the pane's to choose.
	Setup waketest.Setup
	// Runner does the pane's I/O. Each command makes its own context (a
	// deadline, a cancel for esc); the root's Runner bounds it by the
	// app's, so an app switch or quitting aborts a run in flight.
	Runner Runner
}

// Pane is the wake test overlay. Build it with New.
type Pane struct {
	pane.Base
	theme *theme.Theme
	keys  keys.KeyMap
	bold  lipgloss.Style

	readOnly bool
	runner   Runner
	base     waketest.Setup

	stage Stage

	// setup
	mode      waketest.Mode
	requests  int // 0: the plan's default
	plan      *waketest.Plan
	prepID    int
	preparing bool
	prepErr   error

	// run
	runID     int
	cancel    context.CancelFunc // the run's: esc aborts it
	feed      *feed
	live      *live
	finished  []string
	report    *waketest.Report
	runErr    error
	saving    bool
	savedPath string
	saveErr   error
	previous  *waketest.Report
	prevPath  string
	prevErr   error
	compare   bool // v: the previous result beside this one
	notice    string

	body scroll.View // the setup's and the result's lines, from settle
}

var _ pane.Overlay = (*Pane)(nil)

// ID is the wake test's ID.
const ID pane.ID = "wake"

// ID names the pane.
func (p *Pane) ID() pane.ID { return ID }

// New builds the pane for one app.
func New(pctx pane.Context, opts Options) *Pane {
	t, km := pctx.Themed(), pctx.KeyMap()
	return &Pane{
		theme: t, keys: km, bold: t.Renderer().NewStyle().Bold(true),
		readOnly: pctx.ReadOnly || km.IsReadOnly(), runner: opts.Runner, base: opts.Setup,
		mode: waketest.ModeBoth,
	}
}

// Title names the pane.
func (p *Pane) Title() string { return "Wake test · " + p.base.App }

// Stage is where the test stands.
func (p *Pane) Stage() Stage { return p.stage }

// Report is the last run's report (nil before one ends).
func (p *Pane) Report() *waketest.Report { return p.report }

// SavedPath is where the last report was saved ("" until it is).
func (p *Pane) SavedPath() string { return p.savedPath }

// SetData is unused, and the pane never dims: the test reads the machines
// itself, once per plan, so the targets shown are exactly the ones the
// confirmation names.
func (p *Pane) SetData(*snapshot.App, time.Time) {}

// SetSize is the size View draws at.
func (p *Pane) SetSize(width, height int) {
	p.Base.SetSize(width, height)
	p.settle()
}

// Height: the wake test is an overlay and takes the body it is given.
func (p *Pane) Height(int) int {
	_, h := p.Size()
	return h
}

// Capturing is true while the pane needs every key: the y/N question, and
// a run (q must not quit past a half-done test; esc aborts it first).
func (p *Pane) Capturing() bool {
	return p.stage == StageConfirm || p.stage == StageRunning || p.stage == StageAborting
}

// CanClose is false while esc means something else: back out of the
// question, or abort the run.
func (p *Pane) CanClose() bool { return !p.Capturing() }

// Open is called when the overlay is shown: it (re)reads the plan unless a
// run is shown or in progress. In read-only mode it only says the test is off.
func (p *Pane) Open() tea.Cmd {
	defer p.settle()
	if p.readOnly {
		p.stage = StageReadOnly
		return nil
	}
	switch p.stage {
	case StageRunning, StageAborting, StageConfirm, StageDone:
		return nil
	}
	return p.toSetup()
}

// toSetup shows the setup and reads a fresh plan.
func (p *Pane) toSetup() tea.Cmd {
	p.stage = StageSetup
	p.body.Top()
	p.notice = ""
	return p.prepare()
}

// setup is what the user chose, on top of the root's platform facts.
func (p *Pane) setup() waketest.Setup {
	s := p.base
	s.Mode = p.mode
	s.Requests = p.requests
	return s
}

// prepare asks for a new plan; replies to older asks are dropped.
func (p *Pane) prepare() tea.Cmd {
	if p.runner == nil {
		p.prepErr = errors.New("no platform to test against")
		return nil
	}
	p.prepID++
	p.preparing = true
	return p.prepareCmd(p.prepID, p.setup())
}

// plannedRequests is the count the run will send.
func (p *Pane) plannedRequests() int {
	if p.requests > 0 || p.plan == nil {
		return p.requests
	}
	return p.plan.Requests
}

// runPlan is the plan with the user's request count.
func (p *Pane) runPlan() *waketest.Plan {
	cp := *p.plan
	cp.Requests = p.plannedRequests()
	cp.Setup.Requests = cp.Requests
	return &cp
}

// start begins the run the user confirmed.
func (p *Pane) start() tea.Cmd {
	plan := p.runPlan()
	p.runID++
	if p.cancel != nil {
		p.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.stage = StageRunning
	p.report, p.runErr, p.savedPath, p.saveErr = nil, nil, "", nil
	p.previous, p.prevPath, p.prevErr, p.compare = nil, "", nil, false
	p.finished, p.notice = nil, ""
	p.body.Top()
	p.live = newLive(plan, firstMode(plan.Setup.Mode), 1, runCount(plan.Setup.Mode), nil)
	p.plan = plan
	p.feed = newFeed()
	return tea.Batch(p.runCmd(ctx, plan, p.feed), p.waitCmd(p.runID, p.feed))
}

// abort cancels the run; the engine stops sending, reads where the
// machines were left, and the report arrives as usual.
func (p *Pane) abort() {
	if p.cancel != nil {
		p.cancel()
	}
	p.stage = StageAborting
	p.notice = ""
}

func firstMode(m waketest.Mode) waketest.Mode {
	if m == waketest.ModeBoth {
		return waketest.ModeStop
	}
	return m
}

func runCount(m waketest.Mode) int {
	if m == waketest.ModeBoth {
		return 2
	}
	return 1
}

// onFeed folds a batch of the current run's events in.
func (p *Pane) onFeed(msg feedMsg) tea.Cmd {
	if msg.from != p || msg.run != p.runID || (p.stage != StageRunning && p.stage != StageAborting) {
		return nil // an old run's, or another pane's
	}
	for _, e := range msg.events {
		if e.Mode != "" && e.Mode != p.live.mode {
			p.live = p.live.next(p.plan, e.Mode, p.finished)
		}
		p.live.apply(e)
		if e.Kind == waketest.EventRunDone && e.Run != nil {
			p.finished = append(p.finished, fmt.Sprintf("%s run: %d ok, %d failed of %d",
				e.Run.Mode, e.Run.OK, e.Run.Failed, e.Run.Requests))
		}
	}
	if !msg.done {
		return p.waitCmd(msg.run, p.feed)
	}
	p.stage = StageDone
	p.body.Top()
	p.report, p.runErr = msg.report, msg.err
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	p.feed = nil
	if p.report == nil {
		return nil
	}
	p.saving = true
	return p.storeCmd(msg.run, p.report)
}
