// Package deploy is the dashboard's demo deploy: an overlay that rolls a
// demo release (healthy, or crashing 2.5 s after every start) out to the
// app on the embedded platform, as `flywake deploy --demo-release` does, so
// a presenter with one terminal can show a deploy replacing machines, the
// new release judged as its machines come up, and the crash-loop banner.
// It asks y/N naming the app and the machines; --readonly and a real
// platform take its key away (ui/app). The I/O is the Deployer's, in the
// commands this pane returns.
package deploy

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/prompt"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// Deployer plans and runs a demo deploy (the root implements it over
// watch.Source; tests pass a fake). Both block: the pane calls them in
// commands only.
type Deployer interface {
	Plan(ctx context.Context, app string, rel rollout.Release) (rollout.Plan, error)
	Run(ctx context.Context, plan rollout.Plan, onStep func(rollout.Step)) error
}

// Stage is where the overlay is.
type Stage int

const (
	StageChoose   Stage = iota // h or c
	StagePlanning              // listing the machines for the question
	StageConfirm               // y/N
	StageRunning               // rolling out
	StageDone                  // rolled out, or stopped
)

// ID is the overlay's ID.
const ID pane.ID = "deploy"

// Pane is the demo deploy overlay. Build it with New.
type Pane struct {
	pane.Base
	th       *theme.Theme
	keys     keys.KeyMap
	readOnly bool
	app      string
	deployer Deployer

	stage    Stage
	seq      int // the current plan or run; older replies are dropped
	plan     rollout.Plan
	steps    []rollout.Step
	err      error
	notice   string
	machines int            // listed, for the first screen
	judged   verdict.Result // the judgement of the newest release after the last listing
}

var _ pane.Overlay = (*Pane)(nil)

// New returns the overlay for app. Each command makes its own context;
// the root's Deployer bounds it by the app's (switching apps or quitting
// stops a rollout between machines).
func New(pctx pane.Context, app string, d Deployer) *Pane {
	return &Pane{th: pctx.Theme, keys: pctx.KeyMap(), readOnly: pctx.ReadOnly, app: app, deployer: d}
}

// ID names the overlay.
func (p *Pane) ID() pane.ID { return ID }

// Title is the overlay's name.
func (p *Pane) Title() string { return "Deploy a demo release" }

// Stage is where the overlay is (for tests).
func (p *Pane) Stage() Stage { return p.stage }

// SetData counts the app's machines for the first screen; the plan lists
// them itself, so the question names exactly the machines it changes.
func (p *Pane) SetData(a *snapshot.App, _ time.Time) {
	if a != nil {
		p.machines = len(a.Machines)
		p.judged = a.Rollout
	}
}

// judgement is where machine id stands in the judgement of release rel
// (the one rolled out), in words and the level they are drawn in; ok is
// false until the judge has seen it on rel. A machine is green when the
// release stayed up on it, never because it started.
func (p *Pane) judgement(id, rel string) (string, diagnose.Level, bool) {
	jm, ok := p.judged.Machine(id)
	if !ok || jm.Release != rel {
		return "", diagnose.Unknown, false
	}
	r := words.Release(rel)
	switch jm.Status {
	case verdict.StatusPending:
		return "… " + r + " booting", diagnose.Unknown, true
	case verdict.StatusLooking:
		return "◔ " + r + " being judged", diagnose.Warn, true
	case verdict.StatusLive:
		return diagnose.Pass.Glyph() + " " + r + " live", diagnose.Pass, true
	case verdict.StatusIdle:
		return "– " + r + " idle (stopped, no crash)", diagnose.NA, true
	case verdict.StatusFailed:
		return diagnose.Fail.Glyph() + " " + r + " failed: " + jm.Reason, diagnose.Fail, true
	}
	return "", diagnose.Unknown, false
}

// Height: an overlay takes the body it is given.
func (p *Pane) Height(int) int { _, h := p.Size(); return h }

// Capturing is true while y/N is asked: every key answers it.
func (p *Pane) Capturing() bool { return p.stage == StageConfirm }

// CanClose is false while esc answers the question. A rollout goes on
// after the overlay is closed.
func (p *Pane) CanClose() bool { return p.stage != StageConfirm }

// Open shows the choice, unless a rollout is on or its outcome is shown.
func (p *Pane) Open() tea.Cmd {
	switch p.stage {
	case StageRunning, StageDone:
		return nil
	}
	p.stage, p.notice = StageChoose, ""
	return nil
}

// Keys are the keys that act now.
func (p *Pane) Keys() []key.Binding {
	if p.readOnly {
		return nil
	}
	switch p.stage {
	case StageChoose, StageDone:
		return []key.Binding{p.keys.DeployHealthy, p.keys.DeployCrashing}
	case StageConfirm:
		return prompt.Keys(&p.keys, "roll out")
	}
	return nil
}

// Messages the pane's commands answer with.
type (
	planMsg struct {
		seq  int
		plan rollout.Plan
		err  error
	}
	stepMsg struct {
		seq  int
		step rollout.Step
		next <-chan tea.Msg
	}
	doneMsg struct {
		seq int
		err error
	}
)

// Update answers keys and the replies of its own commands.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return p.key(msg)
	case planMsg:
		if msg.seq != p.seq || p.stage != StagePlanning {
			return nil
		}
		if msg.err != nil {
			p.stage, p.notice = StageChoose, "not rolled out: "+cell.OneLine(msg.err.Error())
			return nil
		}
		p.plan, p.stage = msg.plan, StageConfirm
	case stepMsg:
		if msg.seq != p.seq {
			return nil
		}
		if n := len(p.steps); n > 0 && p.steps[n-1].Sent && p.steps[n-1].Machine == msg.step.Machine {
			p.steps[n-1] = msg.step // the machine it was waiting for settled
		} else {
			p.steps = append(p.steps, msg.step)
		}
		// A machine changed: the root lists the machines now, so the
		// Machines pane follows the rollout without waiting for its timer.
		return tea.Batch(read(msg.next), relist)
	case doneMsg:
		if msg.seq != p.seq {
			return nil
		}
		p.stage, p.err = StageDone, msg.err
	}
	return nil
}

// relist asks the root to list the machines now (a rollout step changed
// one); the root intercepts it (pane.Relist), it reaches no pane.
func relist() tea.Msg { return pane.Relist{} }

// done is how many machines the rollout finished (a step only sent is on
// its way).
func (p *Pane) done() int {
	n := 0
	for _, s := range p.steps {
		if !s.Sent {
			n++
		}
	}
	return n
}

func (p *Pane) key(k tea.KeyMsg) tea.Cmd {
	if p.readOnly {
		return nil
	}
	switch p.stage {
	case StageChoose, StagePlanning, StageDone:
		switch {
		case key.Matches(k, p.keys.DeployHealthy):
			return p.planFor(rollout.Healthy)
		case key.Matches(k, p.keys.DeployCrashing):
			return p.planFor(rollout.Crashing)
		}
	case StageConfirm:
		if prompt.YesKey(k, &p.keys) {
			return p.run()
		}
		p.stage, p.notice = StageChoose, "cancelled — nothing was changed"
	}
	return nil
}

func (p *Pane) planFor(rel rollout.Release) tea.Cmd {
	if p.deployer == nil {
		p.notice = "no platform to deploy to"
		return nil
	}
	p.seq++
	p.stage, p.notice, p.steps, p.err = StagePlanning, "", nil, nil
	seq, d, app := p.seq, p.deployer, p.app
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		plan, err := d.Plan(ctx, app, rel)
		return planMsg{seq: seq, plan: plan, err: err}
	}
}

// run rolls the plan out in a goroutine; its steps come back one message
// at a time, then its end.
func (p *Pane) run() tea.Cmd {
	p.seq++
	p.stage = StageRunning
	seq, d, plan := p.seq, p.deployer, p.plan
	ch := make(chan tea.Msg, len(plan.Machines)+1)
	go func() {
		err := d.Run(context.Background(), plan, func(s rollout.Step) { ch <- stepMsg{seq: seq, step: s, next: ch} })
		ch <- doneMsg{seq: seq, err: err}
		close(ch)
	}()
	return read(ch)
}

func read(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		return msg
	}
}

// View draws the stage at the overlay's size. It is pure.
func (p *Pane) View(bool, time.Time) string {
	w, h := p.Size()
	if w <= 0 || h <= 0 {
		return ""
	}
	var lines []string
	th := p.th
	styled := func(st lipgloss.Style, s string) {
		for _, l := range cell.Wrap(s, w, 0) {
			lines = append(lines, st.Render(l))
		}
	}
	add := func(s string) { lines = append(lines, cell.Wrap(s, w, 0)...) }
	if p.readOnly {
		styled(th.Warn, "--readonly: the demo deploy changes machines, so it is off.")
		return p.fill(lines, w, h)
	}
	switch p.stage {
	case StageChoose, StagePlanning:
		styled(th.PaneTitle, "Roll a demo release out to "+p.app)
		add("")
		hk, ck := keys.Short(p.keys.DeployHealthy), keys.Short(p.keys.DeployCrashing)
		kw := max(ansi.StringWidth(hk), ansi.StringWidth(ck))
		add("  " + cell.Fit(hk, kw, cell.Left) + "  healthy   runs like " + p.app + "'s own release, its boots included")
		add("  " + cell.Fit(ck, kw, cell.Left) + "  crashing  exits 1 " + words.Duration(rollout.CrashAfter, words.Tenths) + " after every start: a release that crash-loops")
		add("")
		add(fmt.Sprintf("Either rolls out as `fly deploy` does: machine by machine (%d listed) over the Machines API's update endpoint, "+
			"each under its lease; a stopped machine stays stopped. The Machines pane shows each machine's old and new release, "+
			"the ALERT column judges the new release's machines as they come up, and the banner says when it fails. "+
			"This platform lives inside this dashboard, so no other command reaches it; `flywake verdict --demo --demo-release crashing` "+
			"deploys and judges the same way on a platform of its own, as a CI step would.", p.machines))
		if p.stage == StagePlanning {
			add("")
			add("listing the machines…")
		}
	case StageConfirm:
		q := prompt.Question{Text: fmt.Sprintf("Roll out release %s (%s) to %d machines of %s: %s?",
			words.Release(p.plan.To), p.plan.Release.Describe(), len(p.plan.Machines), p.plan.App, strings.Join(p.plan.IDs(), ", "))}
		lines = append(lines, q.Lines(th, w)...)
		add("")
		add("Image " + p.plan.Image + ", release " + words.Release(p.plan.From) + " → " + words.Release(p.plan.To) + ". Only yes rolls out; any other key cancels.")
	case StageRunning, StageDone:
		switch {
		case p.stage == StageDone && p.err == nil:
			done := fmt.Sprintf("Rolled out release %s to %d machines of %s", words.Release(p.plan.To), p.done(), p.plan.App)
			switch {
			case p.judged.Release != p.plan.To || p.judged.Outcome == verdict.Undecided:
				add(done + " — judging it as its machines come up")
			case p.judged.Outcome == verdict.Live:
				styled(th.Pass, done+" — it is live")
			case p.judged.Outcome == verdict.Failed:
				styled(th.Fail, done+" — it fails: "+p.judged.Reason)
			default:
				styled(th.Unknown, done+" — it cannot be judged: "+p.judged.Reason)
			}
		case p.stage == StageDone:
			styled(th.Fail, "Stopped: "+cell.OneLine(p.err.Error()))
		default:
			add(fmt.Sprintf("Rolling out release %s (%s) to %s: %d of %d machines", words.Release(p.plan.To), p.plan.Release.Describe(),
				p.plan.App, p.done(), len(p.plan.Machines)))
		}
		add("")
		for _, s := range p.steps {
			if s.Sent {
				add(fmt.Sprintf("  … %s %s → %s, updating", s.Machine, words.Release(s.From), words.Release(s.To)))
				continue
			}
			if s.Err != nil {
				styled(th.Fail, fmt.Sprintf("  ✗ %s not updated: %s", s.Machine, cell.OneLine(s.Err.Error())))
				continue
			}
			row := fmt.Sprintf("  %s %s → %s, %s", s.Machine, words.Release(s.From), words.Release(s.To), s.State)
			if j, lvl, ok := p.judgement(s.Machine, s.To); ok {
				styled(th.Level(lvl).Style, row+" · "+j)
				continue
			}
			add(row + " · not judged yet")
		}
		add("")
		if p.stage == StageRunning {
			add(keys.Short(p.keys.Back) + " closes this; the rollout goes on — the Machines pane shows it.")
		} else {
			add("The Machines pane judges the new release; " + keys.Short(p.keys.DeployHealthy) + " or " +
				keys.Short(p.keys.DeployCrashing) + " rolls out another.")
		}
	}
	if p.notice != "" {
		add("")
		styled(th.Warn, p.notice)
	}
	return p.fill(lines, w, h)
}

// fill makes lines exactly w×h, dimmed when stale.
func (p *Pane) fill(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = cell.Fit(l, w, cell.Left)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	out := strings.Join(lines, "\n")
	if p.Stale() {
		return pane.Dim(p.th, out)
	}
	return out
}
