package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	flygo "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/panes/overview"
	"github.com/flywake/flywake/ui/uitest"
)

// replayOf records machine a of app "api" started at t0, stopped (exit 1)
// at t0+1m and started again at t0+2m, and serves the recording at its end.
func replayOf(t *testing.T) (*Replay, *watch.Source, time.Time) {
	t.Helper()
	t0 := time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC)
	now := t0
	path := filepath.Join(t.TempDir(), "rec.db")
	w, err := record.Create(path, record.Options{Org: "demo-org", Scope: "app api", Now: func() time.Time { return now }, FlushEvery: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ev := func(typ, status string, at time.Time) *flygo.MachineEvent {
		return &flygo.MachineEvent{Type: typ, Status: status, Source: "flyd", Timestamp: at.UnixMilli()}
	}
	var events []*flygo.MachineEvent
	for i, state := range []string{"started", "stopped", "started"} {
		at := t0.Add(time.Duration(i) * time.Minute)
		now = at
		typ := "start"
		if state == "stopped" {
			typ = "exit"
		}
		events = append([]*flygo.MachineEvent{ev(typ, state, at)}, events...)
		m := &fly.Machine{ID: "a", Name: "a", State: state, Region: "iad", InstanceID: "i1", UpdatedAt: at.Format(time.RFC3339),
			Config: &flygo.MachineConfig{Metadata: map[string]string{"fly_release_version": "3"}}, Events: events}
		w.Listing(at, "api", fly.Listing{Machines: []*fly.Machine{m}})
	}
	now = t0.Add(3 * time.Minute)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	_, end := rec.Span()
	clock := replay.NewClock(end, end, true)
	p := replay.New(rec, clock, replay.Options{})
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: p.URL(), APIURL: p.URL(), Token: p.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return p, &watch.Source{Client: c, Org: p.Org(), Now: clock.Now}, t0
}

// pump runs cmd's commands as the runtime would, feeding their messages
// back, but not the timers (a tick would wait): until nothing is left.
func pump(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0 && n < 500; n++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		done := make(chan tea.Msg, 1)
		go func() { done <- c() }()
		var msg tea.Msg
		select {
		case msg = <-done:
		case <-time.After(time.Second):
			continue // a timer, or a long-poll: not waited for
		}
		switch msg := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case nil, wakeMsg, clockMsg, firing:
			continue
		default:
			next, c := m.Update(msg)
			m = next.(Model)
			queue = append(queue, c)
		}
	}
	return m
}

func press(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		next, cmd := m.Update(uitest.Key(k))
		m = pump(t, next.(Model), cmd)
	}
	return m
}

// The time bar moves the replayed instant, and the panes follow it: the
// machine is started at the end, stopped a step back, and started at the
// recording's start; the header says REPLAY.
func TestTimeBarMovesTheReplayedInstant(t *testing.T) {
	p, src, t0 := replayOf(t)
	m := newInline(Config{Source: src, App: "api", Replay: p, ReadOnly: true})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m = pump(t, next.(Model), next.(Model).Init())
	state := func() string {
		if len(m.app.Machines) != 1 {
			return "none"
		}
		return m.app.Machines[0].State
	}
	view := m.View()
	if !strings.Contains(view, "REPLAY") || !strings.Contains(view, "2026-03-01 03:03:00 UTC · paused") {
		t.Fatalf("no REPLAY badge or time bar:\n%s", view)
	}
	if state() != "started" {
		t.Fatalf("at the end: %s", state())
	}
	m = press(t, m, "[") // the start at 03:02
	m = press(t, m, "[") // the stop at 03:01
	if at := p.Clock().Now(); !at.Equal(t0.Add(time.Minute)) || state() != "stopped" {
		t.Errorf("two steps back: %s, machine %s; want 03:01:00, stopped", at.Format(time.TimeOnly), state())
	}
	m = press(t, m, "t", "s", "t", "a", "r", "t", "enter")
	if at := p.Clock().Now(); !at.Equal(t0) || state() != "started" {
		t.Errorf("t start: %s, machine %s; want 03:00:00, started", at.Format(time.TimeOnly), state())
	}
	m = press(t, m, "t", "1", "9", "9", "9", "enter")
	if !strings.Contains(m.View(), "not a time") {
		t.Errorf("a time that is not one is not refused in place:\n%s", m.View())
	}
	m = press(t, m, "esc", "]")
	if at := p.Clock().Now(); !at.Equal(t0.Add(time.Minute)) || state() != "stopped" {
		t.Errorf("a step on: %s, machine %s; want 03:01:00, stopped", at.Format(time.TimeOnly), state())
	}
	m = press(t, m, " ")
	if !m.bar.playing {
		t.Error("space did not play")
	}
	m = press(t, m, " ", "esc", "[")
	if m.open == nil || m.open.ID() != overview.ID {
		t.Errorf("a step in the org overview left it:\n%s", m.View())
	}
	if at := p.Clock().Now(); !at.Equal(t0) {
		t.Errorf("a step back in the overview: %s, want 03:00:00", at.Format(time.TimeOnly))
	}
}

// > and < double and halve the playing speed, within bounds, and say so.
func TestTimeBarSpeedChangesFromTheKeyboard(t *testing.T) {
	p, src, _ := replayOf(t)
	m := newInline(Config{Source: src, App: "api", Replay: p, ReadOnly: true, ReplaySpeed: 60})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m = pump(t, next.(Model), next.(Model).Init())
	m = press(t, m, ">")
	if m.bar.speed != 120 || !strings.Contains(m.View(), "space plays ×120") {
		t.Errorf("> from ×60: ×%v\n%s", m.bar.speed, m.View())
	}
	m = press(t, m, "t", "s", "t", "a", "r", "t", "enter", " ") // at the end there is nothing to play
	if !strings.Contains(m.View(), "playing ×120") {
		t.Errorf("playing at the new speed is not shown:\n%s", m.View())
	}
	for range 20 {
		m = press(t, m, "<")
	}
	if m.bar.speed != minReplaySpeed {
		t.Errorf("< twenty times: ×%v, want ×%v", m.bar.speed, float64(minReplaySpeed))
	}
	for range 20 {
		m = press(t, m, ">")
	}
	if m.bar.speed != maxReplaySpeed {
		t.Errorf("> twenty times: ×%v, want ×%v", m.bar.speed, float64(maxReplaySpeed))
	}
}
