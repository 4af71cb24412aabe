package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/panes/overview"
)

// The replay's time bar (flywake --replay): the replayed instant in the
// recording's span, its gaps, and the keys that move it. The recording is
// served as the platform (sources/replay) and read by the same scheduler
// and panes as a live one; the bar only moves its clock. A move forward
// asks for everything again at the new instant (as r does); a move back
// starts the models afresh (a new scheduler and empty models), and the
// replies of calls made before it are dropped (replayReply's epoch).

// Replay is what the time bar moves: the served recording.
type Replay = replay.Platform

// DefaultReplaySpeed is how many recorded seconds space plays a second
// when --speed does not say; > and < double and halve it, between a
// recorded second a second and a recorded day a minute.
const (
	DefaultReplaySpeed = 60
	minReplaySpeed     = 1
	maxReplaySpeed     = 1440
)

// timebar is the replay's state, shared by every copy of the model.
type timebar struct {
	rp      *Replay
	speed   float64 // recorded seconds a second while playing
	playing bool
	epoch   int              // bumped on every move back: older replies are dropped
	entry   *textinput.Model // t: a time being typed; nil otherwise
	refused string           // why the typed time was not taken
}

// replayReply is a reply of the epoch its call was made in.
type replayReply struct {
	epoch int
	watch.Reply
}

func newTimebar(rp *Replay, speed float64) *timebar {
	if speed <= 1 {
		speed = DefaultReplaySpeed
	}
	return &timebar{rp: rp, speed: speed}
}

// timebarKey moves the clock for the time bar's keys; false: not one.
func (m Model) timebarKey(msg tea.KeyMsg) (Model, tea.Cmd, bool) {
	b, k := m.bar, m.keys
	if b == nil {
		return m, nil, false
	}
	rec := b.rp.Recording()
	now := b.rp.Clock().Now()
	from, to := rec.Span()
	switch {
	case key.Matches(msg, k.ReplayNext):
		if t, ok := rec.Next(now); ok && !t.After(to) {
			return m, m.seek(clampTime(t, from, to)), true
		}
		return m, m.setNotice(noticeInfo, "no later event in the recording"), true
	case key.Matches(msg, k.ReplayPrev):
		// Events the first listings carried happened before the recording
		// began: the step stops at its start.
		if t, ok := rec.Prev(now); ok && now.After(from) {
			return m, m.seek(clampTime(t, from, to)), true
		}
		return m, m.setNotice(noticeInfo, "no earlier event in the recording"), true
	case key.Matches(msg, k.ReplayHourOn):
		return m, m.seek(clampTime(now.Add(time.Hour), from, to)), true
	case key.Matches(msg, k.ReplayHourBack):
		return m, m.seek(clampTime(now.Add(-time.Hour), from, to)), true
	case key.Matches(msg, k.ReplayPlay):
		b.playing = !b.playing && now.Before(to)
		return m, nil, true
	case key.Matches(msg, k.ReplayFaster), key.Matches(msg, k.ReplaySlower):
		if key.Matches(msg, k.ReplayFaster) {
			b.speed = min(b.speed*2, maxReplaySpeed)
		} else {
			b.speed = max(b.speed/2, minReplaySpeed)
		}
		return m, m.setNotice(noticeInfo, "space plays ×"+trimFloat(b.speed)+": "+trimFloat(b.speed)+" recorded seconds a second"), true
	case key.Matches(msg, k.ReplayJump):
		in := m.theme.NewInput("time: ")
		in.Placeholder = "03:12, 2026-03-01 03:12, -2h, start, end"
		in.Width = max(m.width-8, 10)
		in.Focus()
		b.entry, b.refused = &in, ""
		return m, textinput.Blink, true
	}
	return m, nil, false
}

// updateTimeEntry types the time t asked for: enter jumps there (or
// refuses in place, saying why), esc cancels.
func (m Model) updateTimeEntry(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	b, k := m.bar, m.keys
	switch {
	case key.Matches(msg, k.Back):
		b.entry = nil
		return m, nil
	case key.Matches(msg, k.Enter):
		from, to := b.rp.Recording().Span()
		t, err := replay.ParseAt(b.entry.Value(), from, to)
		if err != nil {
			b.refused = cell.OneLine(err.Error())
			return m, nil
		}
		b.entry = nil
		return m, m.seek(t)
	}
	in, cmd := b.entry.Update(msg)
	b.entry, b.refused = &in, ""
	return m, cmd
}

// onPlayTick moves a playing clock on by a second of play; it stops at the
// recording's end.
func (m *Model) onPlayTick() tea.Cmd {
	b := m.bar
	if b == nil || !b.playing {
		return nil
	}
	_, to := b.rp.Recording().Span()
	t := b.rp.Clock().Now().Add(time.Duration(b.speed * float64(time.Second)))
	if !t.Before(to) {
		t, b.playing = to, false
	}
	return m.seek(t)
}

// seek moves the replayed instant to t: forward, every call is due again
// at t; back (or with the org overview shown, whose feeds keep their own
// pace), the models start afresh at t.
func (m *Model) seek(t time.Time) tea.Cmd {
	b := m.bar
	clock := b.rp.Clock()
	back := t.Before(clock.Now())
	clock.Seek(t)
	if !back && (m.open == nil || m.open.ID() != overview.ID) {
		m.sched.Refresh()
		return m.schedule()
	}
	b.epoch++
	onOverview := m.open != nil && m.open.ID() == overview.ID
	orgOn := !m.sched.StartOrg() // the overview's feeds ran: they run again
	m.sched = watch.NewScheduler(dashboardFeeds(), watch.OrgFeeds())
	m.wake = &wakeTimer{}
	org, markers := m.cfg.Source.Org, m.cfg.Source.Markers
	m.org = snapshot.NewOrg(org, markers)
	focus, zoom := m.focus, m.zoom
	m.resetApp(m.cfg.App)
	if m.cfg.App != "" {
		m.focus, m.zoom = min(focus, len(m.panes)-1), zoom
	}
	cmds := m.startFetching()
	if orgOn {
		cmds = append(cmds, m.startOrg())
	}
	if onOverview && m.cfg.App != "" { // the step is taken where it was asked for
		cmds = append(cmds, m.showOverview())
	}
	return tea.Batch(cmds...)
}

func clampTime(t, from, to time.Time) time.Time {
	if t.Before(from) {
		return from
	}
	if t.After(to) {
		return to
	}
	return t
}

// timebarLines are the bar (and the time being typed), above the footer.
func (m Model) timebarLines() []string {
	b := m.bar
	if b == nil || m.width <= 0 {
		return nil
	}
	t := m.theme
	rec := b.rp.Recording()
	from, to := rec.Span()
	now := b.rp.Clock().Now()
	stamp := now.UTC().Format("2006-01-02 15:04:05") + " UTC"
	state := "paused"
	if b.playing {
		state = "playing ×" + trimFloat(b.speed)
	}
	where := ""
	if g, ok := rec.GapAt(now); ok {
		where = t.Warn.Render(" not recorded " + g.From.UTC().Format("15:04") + "–" + g.To.UTC().Format("15:04"))
	}
	left := stamp + " · " + state + where
	right := " " + from.UTC().Format("01-02 15:04") + " → " + to.UTC().Format("01-02 15:04")
	room := m.width - ansi.StringWidth(left) - ansi.StringWidth(right) - 2
	if room < 10 {
		right, room = "", m.width-ansi.StringWidth(left)-1
	}
	line := left
	if room >= 10 {
		line += " " + track(rec, now, from, to, room, t.Dim.Render, t.Warn.Render) + right
	}
	out := []string{ansi.Truncate(line, m.width, "…")}
	if b.entry != nil {
		out = append(out, ansi.Truncate(b.entry.View(), m.width, "…"))
		if b.refused != "" {
			out = append(out, t.Warn.Render(ansi.Truncate(b.refused, m.width, "…")))
		}
	}
	return out
}

// track draws the span as a line of width cells: ━ recorded, ┄ a gap, ●
// the replayed instant.
func track(rec *record.Recording, now, from, to time.Time, width int, dim, warn func(...string) string) string {
	var sb strings.Builder
	span := to.Sub(from)
	if span <= 0 {
		span = 1
	}
	pos := int(float64(width-1) * float64(now.Sub(from)) / float64(span))
	for i := 0; i < width; i++ {
		at := from.Add(time.Duration(float64(span) * float64(i) / float64(max(width-1, 1))))
		switch _, gap := rec.GapAt(at); {
		case i == pos:
			sb.WriteString("●")
		case gap:
			sb.WriteString(warn("┄"))
		default:
			sb.WriteString(dim("━"))
		}
	}
	return sb.String()
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
