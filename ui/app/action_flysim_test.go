package app

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// loop runs the root model the way bubbletea does, minus the terminal:
// commands in goroutines, their messages back through Update one at a
// time. The test reads the model between messages.
type loop struct {
	t    *testing.T
	m    Model
	msgs chan tea.Msg
	done chan struct{}
}

func newLoop(t *testing.T, m Model) *loop {
	l := &loop{t: t, m: m, msgs: make(chan tea.Msg, 64), done: make(chan struct{})}
	t.Cleanup(func() { l.m.cancel(); close(l.done) })
	l.run(m.Init())
	return l
}

func (l *loop) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		select {
		case l.msgs <- msg:
		case <-l.done:
		}
	}()
}

func (l *loop) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			l.run(c)
		}
	default:
		next, cmd := l.m.Update(msg)
		l.m = next.(Model)
		l.run(cmd)
	}
}

func (l *loop) until(what string, d time.Duration, cond func(Model) bool) {
	l.t.Helper()
	deadline := time.After(d)
	for !cond(l.m) {
		select {
		case msg := <-l.msgs:
			l.deliver(msg)
		case <-deadline:
			l.t.Fatalf("no %s within %v; view:\n%s", what, d, plainView(l.m))
		}
	}
}

func stateOf(m Model, id string) string {
	mc, ok := m.app.Machine(id)
	if !ok {
		return ""
	}
	return mc.State
}

// selectMachine moves the machines pane's cursor onto id.
func (l *loop) selectMachine(id string) {
	l.t.Helper()
	for range len(l.m.app.Machines) {
		if sel, _ := machinesOf(l.m).Selected(); sel == id {
			return
		}
		l.deliver(runes("j"))
	}
	l.t.Fatalf("cannot select %s", id)
}

// Against a real flysim at 20× speed: Z on a started sleepy-api machine
// is refused for its swap without a prompt, and S, y stops it; the listing
// then shows it stopped.
func TestStopAndSuspendAgainstFlysim(t *testing.T) {
	t.Parallel()
	sim := flysim.New(flysim.Options{Seed: 1, Speed: 20})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	m := New(Config{Source: &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now},
		App: flysim.DemoScaleToZero, Demo: true, Theme: theme.New(true), Secrets: []string{sim.Token()}})
	l := newLoop(t, m)
	l.deliver(tea.WindowSizeMsg{Width: 160, Height: 40})

	var target string
	l.until("started machine", 20*time.Second, func(m Model) bool {
		for _, mc := range m.app.Machines {
			if mc.State == "started" {
				target = mc.ID
				return true
			}
		}
		return false
	})
	l.selectMachine(target)

	l.deliver(runes("Z"))
	l.until("swap refusal", 5*time.Second, func(m Model) bool { return m.notice.text != "" || m.confirm != nil })
	if l.m.confirm != nil || !strings.Contains(l.m.notice.text, "its config blocks suspend — swap (2048 MB)") {
		t.Fatalf("Z on %s: prompt %v, notice %q", target, l.m.confirm, l.m.notice.text)
	}

	l.deliver(runes("S"))
	l.until("stop prompt", 5*time.Second, func(m Model) bool { return m.confirm != nil })
	want := "Stop machine " + target + " (started) of sleepy-api? y/N"
	if v := plainView(l.m); !strings.Contains(v, want) {
		t.Fatalf("prompt %q not shown:\n%s", want, v)
	}
	l.deliver(runes("y"))
	l.until("stop reply", 15*time.Second, func(m Model) bool { return m.acting == nil })
	if !strings.Contains(l.m.notice.text, "stop sent to "+target+" — watching it settle") {
		t.Fatalf("after y: notice %q", l.m.notice.text)
	}
	l.until("stopped", 30*time.Second, func(m Model) bool { return stateOf(m, target) == "stopped" })
}
