package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// replayRig is a recording served for a dashboard whose commands the
// test runs itself (pump), with the wait long-polls it holds counted.
type replayRig struct {
	p     *Replay
	src   *watch.Source
	t0    time.Time
	waits atomic.Int64 // wait requests the replay is holding
}

// replayOf records machine a of app "api" started at t0, stopped (exit 1)
// at t0+1m and started again at t0+2m, and serves the recording at its end.
func replayOf(t *testing.T) *replayRig {
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
	rig := &replayRig{p: p, t0: t0}
	// The replay's own handler, behind one that counts the waits it holds:
	// a paused replay answers a wait only when the clock moves.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/wait") {
			rig.waits.Add(1)
			defer rig.waits.Add(-1)
		}
		p.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() }) // the waits still held
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: p.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	rig.src = &watch.Source{Client: c, Org: p.Org(), Now: clock.Now}
	return rig
}

// pump runs cmd's commands as the runtime does, at once, feeding their
// messages back, until every command still running is a wait the replay
// holds. The model's timers answer at once with a firing, not fed back
// (newInline): nothing here waits for a clock.
func (rig *replayRig) pump(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	msgs := make(chan tea.Msg)
	stop := make(chan struct{})
	defer close(stop)
	running := 0
	start := func(c tea.Cmd) {
		if c == nil {
			return
		}
		running++
		go func() {
			select {
			case msgs <- c():
			case <-stop:
			}
		}()
	}
	start(cmd)
	poll := time.NewTicker(5 * time.Millisecond)
	defer poll.Stop()
	deadline := time.After(30 * time.Second)
	// held: every running command is a wait the replay holds (its handler
	// is done before its command can return), twice a poll apart.
	held := 0
	for running > 0 {
		select {
		case msg := <-msgs:
			running--
			held = 0
			switch msg := msg.(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					start(c)
				}
			case nil, firing:
			default:
				next, c := m.Update(msg)
				m = next.(Model)
				start(c)
			}
		case <-poll.C:
			if int(rig.waits.Load()) < running {
				held = 0
			} else if held++; held == 2 {
				return m
			}
		case <-deadline:
			t.Fatalf("%d commands still running after 30 s, %d of them waits:\n%s", running, rig.waits.Load(), m.View())
		}
	}
	return m
}

func (rig *replayRig) press(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		next, cmd := m.Update(uitest.Key(k))
		m = rig.pump(t, next.(Model), cmd)
	}
	return m
}

// The time bar moves the replayed instant, and the panes follow it: the
// machine is started at the end, stopped a step back, and started at the
// recording's start; the header says REPLAY.
func TestTimeBarMovesTheReplayedInstant(t *testing.T) {
	t.Parallel()
	rig := replayOf(t)
	p, src, t0 := rig.p, rig.src, rig.t0
	m := newInline(Config{Source: src, App: "api", Replay: p, ReadOnly: true})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m = rig.pump(t, next.(Model), next.(Model).Init())
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
	m = rig.press(t, m, "[") // the start at 03:02
	m = rig.press(t, m, "[") // the stop at 03:01
	if at := p.Clock().Now(); !at.Equal(t0.Add(time.Minute)) || state() != "stopped" {
		t.Errorf("two steps back: %s, machine %s; want 03:01:00, stopped", at.Format(time.TimeOnly), state())
	}
	m = rig.press(t, m, "t", "s", "t", "a", "r", "t", "enter")
	if at := p.Clock().Now(); !at.Equal(t0) || state() != "started" {
		t.Errorf("t start: %s, machine %s; want 03:00:00, started", at.Format(time.TimeOnly), state())
	}
	m = rig.press(t, m, "t", "1", "9", "9", "9", "enter")
	if !strings.Contains(m.View(), "not a time") {
		t.Errorf("a time that is not one is not refused in place:\n%s", m.View())
	}
	m = rig.press(t, m, "esc", "]")
	if at := p.Clock().Now(); !at.Equal(t0.Add(time.Minute)) || state() != "stopped" {
		t.Errorf("a step on: %s, machine %s; want 03:01:00, stopped", at.Format(time.TimeOnly), state())
	}
	m = rig.press(t, m, " ")
	if !m.bar.playing {
		t.Error("space did not play")
	}
	m = rig.press(t, m, " ", "esc", "[")
	if m.open == nil || m.open.ID() != overview.ID {
		t.Errorf("a step in the org overview left it:\n%s", m.View())
	}
	if at := p.Clock().Now(); !at.Equal(t0) {
		t.Errorf("a step back in the overview: %s, want 03:00:00", at.Format(time.TimeOnly))
	}
}

// > and < double and halve the playing speed, within bounds, and say so.
func TestTimeBarSpeedChangesFromTheKeyboard(t *testing.T) {
	t.Parallel()
	rig := replayOf(t)
	p, src := rig.p, rig.src
	m := newInline(Config{Source: src, App: "api", Replay: p, ReadOnly: true, ReplaySpeed: 60})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m = rig.pump(t, next.(Model), next.(Model).Init())
	m = rig.press(t, m, ">")
	if m.bar.speed != 120 || !strings.Contains(m.View(), "space plays ×120") {
		t.Errorf("> from ×60: ×%v\n%s", m.bar.speed, m.View())
	}
	m = rig.press(t, m, "t", "s", "t", "a", "r", "t", "enter", " ") // at the end there is nothing to play
	if !strings.Contains(m.View(), "playing ×120") {
		t.Errorf("playing at the new speed is not shown:\n%s", m.View())
	}
	for range 20 {
		m = rig.press(t, m, "<")
	}
	if m.bar.speed != minReplaySpeed {
		t.Errorf("< twenty times: ×%v, want ×%v", m.bar.speed, float64(minReplaySpeed))
	}
	for range 20 {
		m = rig.press(t, m, ">")
	}
	if m.bar.speed != maxReplaySpeed {
		t.Errorf("> twenty times: ×%v, want ×%v", m.bar.speed, float64(maxReplaySpeed))
	}
}
