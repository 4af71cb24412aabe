package deploy

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// fakeDeployer plans two machines and rolls them out, recording what ran.
type fakeDeployer struct {
	mu      sync.Mutex
	planned []rollout.Release
	runs    int
	failAt  int // 1-based machine whose update fails; 0 none
}

func (f *fakeDeployer) Plan(_ context.Context, app string, rel rollout.Release) (rollout.Plan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.planned = append(f.planned, rel)
	return rollout.Plan{App: app, Release: rel, From: "42", To: "43", Image: "registry.fly.io/sleepy-api:x",
		Machines: []rollout.Target{{ID: "m1", State: "started", Release: "42"}, {ID: "m2", State: "stopped", Release: "42"}}}, nil
}

func (f *fakeDeployer) Run(_ context.Context, plan rollout.Plan, onStep func(rollout.Step)) error {
	f.mu.Lock()
	f.runs++
	f.mu.Unlock()
	for i, m := range plan.Machines {
		s := rollout.Step{Machine: m.ID, Index: i + 1, Total: len(plan.Machines), From: "42", To: "43", State: m.State}
		if i+1 != f.failAt {
			sent := s
			sent.Sent = true
			onStep(sent)
		}
		if i+1 == f.failAt {
			s.Err = errors.New("machine m2 is leased by deploy@other")
			onStep(s)
			return s.Err
		}
		onStep(s)
	}
	return nil
}

func newPane(d Deployer, readOnly bool) *Pane {
	km := keys.Default()
	return New(pane.Context{Theme: theme.New(true), Keys: &km, ReadOnly: readOnly}, "sleepy-api", d)
}

// relists counts the Relist requests the pane sent the root.
var relists int

// drain runs cmd and every command its replies return, feeding each reply
// to the pane, as the root would (which keeps pane.Relist for itself).
func drain(p *Pane, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			drain(p, c)
		}
	case pane.Relist:
		relists++
	default:
		drain(p, p.Update(msg))
	}
}

func press(p *Pane, k string) { drain(p, p.Update(uitest.Key(k))) }

func view(p *Pane) string { return ansi.Strip(uitest.View(p, 100, 30, true, t0)) }

func TestOnlyYRollsOutAndTheQuestionNamesAppAndMachines(t *testing.T) {
	d := &fakeDeployer{}
	p := newPane(d, false)
	drain(p, p.Open())
	uitest.AssertMentions(t, view(p), []string{"h  healthy", "c  crashing", "exits 1 2.5s after every start"}, nil)

	press(p, "c")
	if p.Stage() != StageConfirm || !p.Capturing() || p.CanClose() {
		t.Fatalf("after c: stage %v capturing %v", p.Stage(), p.Capturing())
	}
	uitest.AssertMentions(t, view(p), []string{"Roll out release v43 (crashes 2.5s after every start) to 2 machines of sleepy-api: m1, m2? y/N"}, nil)

	press(p, "n")
	if d.runs != 0 || p.Stage() != StageChoose || !strings.Contains(view(p), "nothing was changed") {
		t.Fatalf("n: runs %d stage %v\n%s", d.runs, p.Stage(), view(p))
	}
	press(p, "c")
	relists = 0
	press(p, "y")
	if relists != 4 {
		t.Errorf("the root was asked to list %d times, want twice per machine (update sent, settled)", relists)
	}
	if d.runs != 1 || p.Stage() != StageDone {
		t.Fatalf("y: runs %d stage %v", d.runs, p.Stage())
	}
	// Started is not live: until the judge has looked, no row is green.
	uitest.AssertMentions(t, view(p), []string{"Rolled out release v43 to 2 machines of sleepy-api — judging it",
		"m1 v42 → v43, started · not judged yet", "m2 v42 → v43, stopped · not judged yet"}, []string{"✓"})
	if len(d.planned) != 2 || d.planned[1] != rollout.Crashing {
		t.Errorf("planned %v", d.planned)
	}
	// The judgement colours the rows: m1 crash-loops, m2 stays stopped.
	a := snapshot.New("demo-org", "sleepy-api", nil)
	a.Rollout = verdict.Result{Release: "43", Outcome: verdict.Failed, Reason: "m1 is crash-looping", Machines: []verdict.Machine{
		{ID: "m1", Release: "43", Status: verdict.StatusFailed, Reason: "crash-looping"},
		{ID: "m2", Release: "43", Status: verdict.StatusIdle}}}
	p.SetData(a, t0)
	uitest.AssertMentions(t, view(p), []string{"— it fails: m1 is crash-looping", "m1 v42 → v43, started · ✗ v43 failed: crash-looping",
		"m2 v42 → v43, stopped · – v43 idle"}, []string{"✓", "not judged"})
	uitest.PinColorProfile(t)
	colour := New(pane.Context{Theme: theme.New(false)}, "sleepy-api", d)
	colour.stage, colour.plan, colour.steps = p.stage, p.plan, p.steps
	colour.SetData(a, t0)
	out := uitest.View(colour, 100, 30, true, t0)
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(ansi.Strip(l), "m1 v42") && !strings.HasPrefix(l, "\x1b[") {
			t.Errorf("the failed machine's row is not coloured: %q", l)
		}
	}
}

// The overlay never sends the user to another terminal: this platform is
// the dashboard's own.
func TestTheChoiceSaysWhatIsTrue(t *testing.T) {
	p := newPane(&fakeDeployer{}, false)
	drain(p, p.Open())
	uitest.AssertMentions(t, view(p), []string{"flywake verdict --demo --demo-release crashing"},
		[]string{"another terminal", "flywake sim"})
}

func TestAStoppedRolloutSaysWhere(t *testing.T) {
	d := &fakeDeployer{failAt: 2}
	p := newPane(d, false)
	drain(p, p.Open())
	press(p, "h")
	press(p, "y")
	uitest.AssertMentions(t, view(p), []string{"Stopped: machine m2 is leased by deploy@other", "✗ m2 not updated"}, []string{"Rolled out"})
}

func TestReadOnlyDoesNothing(t *testing.T) {
	d := &fakeDeployer{}
	p := newPane(d, true)
	drain(p, p.Open())
	press(p, "c")
	press(p, "y")
	if d.runs != 0 || len(d.planned) != 0 || len(p.Keys()) != 0 {
		t.Fatalf("read-only: planned %v runs %d keys %v", d.planned, d.runs, p.Keys())
	}
	uitest.AssertMentions(t, view(p), []string{"--readonly"}, nil)
}

// A reply to an earlier plan or run (the user chose again) is dropped.
func TestStaleRepliesAreDropped(t *testing.T) {
	p := newPane(&fakeDeployer{}, false)
	drain(p, p.Open())
	first := p.Update(uitest.Key("h"))
	second := p.Update(uitest.Key("c"))
	p.Update(second())
	p.Update(first())
	if p.plan.Release != rollout.Crashing {
		t.Fatalf("the older plan won: %v", p.plan.Release)
	}
}

func TestEverySizeIsExact(t *testing.T) {
	p := newPane(&fakeDeployer{}, false)
	drain(p, p.Open())
	for _, stage := range []string{"", "c"} {
		if stage != "" {
			press(p, stage)
		}
		for _, sz := range uitest.Sizes {
			uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], true, t0), sz[0], sz[1])
		}
	}
}
