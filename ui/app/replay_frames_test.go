package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/longtest"
	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/recorder"
	"github.com/flywake/flywake/sources/replay"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// The demo's day is recorded as `flywake record` records it (its
// platform lived a step at a time, the recorder's headless dashboards
// watching every app through the fly-go client over HTTP). At instants
// through the day, the platform standing at the instant, each app's
// dashboard is opened on it — the root model with every tile, fetching
// through the scheduler with a fly-go client of its own over HTTP, as
// `flywake -a APP` opened then would — and its frame is kept. Afterwards
// the recording is opened as `flywake --replay FILE --at INSTANT -a APP`
// opens it — the replay served over HTTP, the same dashboard with its
// time bar fetching from it — and its frame must be the live one, cell
// for cell, but for what legitimately differs (liveAndReplayed says what,
// and why).
//
// The whole day runs in the long mode (FLYWAKE_LONG, as CI runs it); by
// default its first three hours, and under -short or -race its first 80
// minutes with one instant: the same code at a fraction of the cost.
func TestReplayedFramesAreTheFramesShownLive(t *testing.T) {
	t.Parallel()
	begin := recorder.DemoDayEnd.Add(-24 * time.Hour)
	until, samples := begin.Add(3*time.Hour), []time.Time{begin.Add(73 * time.Minute), begin.Add(163 * time.Minute)}
	switch {
	case longtest.On():
		until, samples = recorder.DemoDayEnd, nil
		for h := 3; h < 24; h += 6 { // 03:43, 09:43, 15:43, 21:43
			samples = append(samples, begin.Add(time.Duration(h)*time.Hour+43*time.Minute))
		}
	case testing.Short() || race.Enabled:
		until, samples = begin.Add(80*time.Minute), samples[:1]
	}
	path := filepath.Join(t.TempDir(), "demo.db")
	live := map[time.Time]map[string]string{}
	began := time.Now()
	err := recorder.RecordDemo(context.Background(), path, recorder.DemoOptions{Until: until, Samples: samples,
		Sample: func(at time.Time, apps []*snapshot.App, src *watch.Source) {
			frames := make([]string, len(apps))
			var wg sync.WaitGroup
			for i, a := range apps {
				wg.Add(1)
				go func() {
					defer wg.Done()
					frames[i] = liveFrame(t, src, a.Name)
				}()
			}
			wg.Wait()
			live[at] = map[string]string{}
			for i, a := range apps {
				live[at][a.Name] = frames[i]
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s of the demo's day in %s", until.Sub(begin), time.Since(began).Round(time.Second))
	if len(live) != len(samples) {
		t.Fatalf("%d instants captured of %d", len(live), len(samples))
	}
	compared := 0
	for _, at := range samples {
		if len(live[at]) < 4 {
			t.Fatalf("at %s only %d apps were watched", at.Format(time.TimeOnly), len(live[at]))
		}
		var wg sync.WaitGroup
		for app, want := range live[at] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := replayedFrame(t, path, app, at)
				if diff := frameDiff(liveAndReplayed(want, got)); diff != "" {
					t.Errorf("%s at %s: the replay's frame is not the one the dashboard showed:\n%s", app, at.Format(time.TimeOnly), diff)
				}
			}()
			compared++
		}
		wg.Wait()
	}
	t.Logf("%d frames compared at %d instants", compared, len(samples))

	// The comparison can fail: one recorded fact changed — the state of one
	// machine at the first instant — and the replayed frame differs, there.
	t.Run("one recorded fact changed shows in the frame", func(t *testing.T) {
		at := samples[0]
		changed := filepath.Join(t.TempDir(), "changed.db")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(changed, b, 0o600); err != nil {
			t.Fatal(err)
		}
		app, machine, was := perturbState(t, changed, at)
		diff := frameDiff(liveAndReplayed(live[at][app], replayedFrame(t, changed, app, at)))
		if diff == "" {
			t.Fatalf("machine %s of %s, %s at %s, was changed in the file; the frames still agree", machine, app, was, at.Format(time.TimeOnly))
		}
		t.Logf("machine %s of %s, %s at %s, changed in the file:\n%s", machine, app, was, at.Format(time.TimeOnly), diff[:strings.Index(diff, "live frame:")])
	})
}

// The frame compared: every tile on screen at once.
const frameW, frameH = 160, 48

// liveFrame is the frame of app's dashboard opened on the live platform
// (standing at the instant), once it has fetched what it fetches. It is
// a row shorter than the replay's: the replay's time bar takes that row
// above the footer, so the panes get the same room in both. Read-only, as
// a replay is: the footer and the panes offer no action in either.
func liveFrame(t *testing.T, src *watch.Source, app string) string {
	m := newInline(Config{Source: src, App: app, ReadOnly: true, Theme: theme.New(true)})
	m.sched.WatchAtRest(false) // see standingStill
	m = send(m, tea.WindowSizeMsg{Width: frameW, Height: frameH - 1})
	return ansi.Strip(settleReplies(t, m, m.Init()).View())
}

// replayedFrame opens path as `flywake --replay path --at at -a app`
// does, lets the dashboard fetch until nothing more comes, and draws it.
func replayedFrame(t *testing.T, path, app string, at time.Time) string {
	t.Helper()
	// It runs on the comparison's goroutines: a failure is an Error.
	rec, err := record.Open(path)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer rec.Close()
	_, end := rec.Span()
	clock := replay.NewClock(at, end, true)
	p := replay.New(rec, clock, replay.Options{})
	if err := p.Start(); err != nil {
		t.Error(err)
		return ""
	}
	defer p.Close()
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: p.URL(), APIURL: p.URL(), Token: p.Token()})
	if err != nil {
		t.Error(err)
		return ""
	}
	defer c.Close()
	src := &watch.Source{Client: c, Org: p.Org(), Now: clock.Now}
	m := newInline(Config{Source: src, App: app, Replay: p, ReadOnly: true, Theme: theme.New(true)})
	m.sched.WatchAtRest(false) // see standingStill
	m = send(m, tea.WindowSizeMsg{Width: frameW, Height: frameH})
	return ansi.Strip(settleReplies(t, m, m.Init()).View())
}

// standingStill: both platforms stand at the instant (the live one lived
// a step at a time, the replay paused), so a wait long-poll on a machine
// at rest never answers; both dashboards watch no machine at rest, as the
// recorder's lockstep does (sources/recorder/watch.go). Their waits would
// otherwise spend the minute's Machines API budget the probes share
// (sources/watch/sched.go), and which probe a minute's budget let through
// would depend on how fast each platform answered.

// quietFor is how long no reply may come before the dashboard counts as
// settled, once nothing on screen is still waiting for its first answer:
// longer under the race detector, where a probe's round trip alone took
// more than two seconds.
var quietFor = map[bool]time.Duration{false: 2 * time.Second, true: 10 * time.Second}[race.Enabled]

// pending are the words of a tile still waiting for its first answer (a
// day of log lines comes a page at a time). A probe not made yet is not
// one: the minute's probe budget may hold it back for a minute, on both.
var pending = regexp.MustCompile(`waiting for |loading…`)

// pendingLine is the first line of frame still waiting ("" when none is).
func pendingLine(frame string) string {
	for _, l := range strings.Split(frame, "\n") {
		if pending.MatchString(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// settleReplies runs m's commands at once, as the runtime does, feeding
// their messages back, until the machines are listed, no tile is still
// waiting for its first answer and no reply has come for quietFor — or
// two minutes pass (on a loaded machine): the frame is then taken as it
// stands, and the comparison says what is missing.
func settleReplies(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	msgs := make(chan tea.Msg, 1024)
	stop := make(chan struct{})
	defer close(stop)
	start := func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			select {
			case msgs <- c():
			case <-stop:
			}
		}()
	}
	start(cmd)
	deadline := time.After(2 * time.Minute)
	quiet := time.NewTimer(quietFor)
	defer quiet.Stop()
	for {
		select {
		case msg := <-msgs:
			switch msg := msg.(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					start(c)
				}
				continue
			case nil, wakeMsg, clockMsg, firing:
				continue
			case replayReply, watch.Reply:
				quiet.Reset(quietFor)
			}
			next, c := m.Update(msg)
			m = next.(Model)
			start(c)
		case <-quiet.C:
			if !m.sched.ListedWall().IsZero() && !pending.MatchString(ansi.Strip(m.View())) {
				return m
			}
			quiet.Reset(quietFor)
		case <-deadline:
			view := ansi.Strip(m.View())
			t.Logf("the dashboard of %s did not settle in two minutes (listed: %v; %q)", m.cfg.App, !m.sched.ListedWall().IsZero(), pendingLine(view))
			return m
		}
	}
}

// What legitimately differs between the frame a dashboard showed and the
// replay's at the same instant, and is made the same before comparing —
// the header's wall-clock parts and its badge:
var (
	// The calls a minute: the live dashboard's client against the
	// replay's, each counting its own calls in wall time.
	callsPerMin = regexp.MustCompile(`\d+ Machines API calls/min · \d+ logs/metrics|\d+ API calls/min`)
	// How long ago the listing came, in wall time.
	freshness = regexp.MustCompile(`updated \S+ ago`)
	// LIVE against REPLAY.
	badge = regexp.MustCompile(`\bLIVE\b|\bREPLAY\b`)
	// The header right-aligns what is left: its run of spaces.
	spaces = regexp.MustCompile(` {2,}`)
)

// liveAndReplayed normalises both frames, line by line: the header (as
// above); the replay's time bar, the line above the footer (the live
// dashboard has none, and its frame is a row shorter for it, so the panes
// had the same room); the footer, whose keys are the replay's own (the
// time bar's) against the live dashboard's. Everything else — every tile,
// the crash banner, the machines by state and the release in the header
// — must be the same, cell for cell.
func liveAndReplayed(live, replayed string) (want, got []string) {
	norm := func(frame string, timebar bool) []string {
		lines := strings.Split(frame, "\n")
		if timebar && len(lines) >= 2 {
			lines = append(lines[:len(lines)-2:len(lines)-2], lines[len(lines)-1])
		}
		for i, l := range lines {
			switch i {
			case 0:
				l = callsPerMin.ReplaceAllString(l, "‹calls›")
				l = freshness.ReplaceAllString(l, "‹fresh›")
				l = spaces.ReplaceAllString(badge.ReplaceAllString(l, "‹mode›"), " ")
			case len(lines) - 1:
				l = "‹footer›"
			}
			lines[i] = strings.TrimRight(l, " ")
		}
		return lines
	}
	return norm(live, false), norm(replayed, true)
}

// frameDiff lists the lines that differ ("" when none do).
func frameDiff(want, got []string) string {
	var sb strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&sb, "line %d\n  live:   %s\n  replay: %s\n", i, w, g)
		}
	}
	if sb.Len() > 0 {
		sb.WriteString("live frame:\n" + strings.Join(want, "\n") + "\nreplayed frame:\n" + strings.Join(got, "\n"))
	}
	return sb.String()
}

// perturbState changes, in the file at path, one fact: the listing entry in
// force at `at` of the first machine of the first app whose state then
// is started or stopped becomes the other state. It returns the app, the
// machine and the state it had.
func perturbState(t *testing.T, path string, at time.Time) (app, machine, was string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rowid int64
	var js []byte
	err = db.QueryRow(`SELECT s.rowid, m.app, m.machine, s.state, s.json FROM states s JOIN machines m ON m.id = s.mid
		WHERE s.t = (SELECT max(t) FROM states WHERE mid = s.mid AND t <= ?) AND s.state IN ('started', 'stopped') AND s.json IS NOT NULL
		ORDER BY m.app, m.machine LIMIT 1`, at.UnixNano()).Scan(&rowid, &app, &machine, &was, &js)
	if err != nil {
		t.Fatal(err)
	}
	var entry map[string]any
	if err := json.Unmarshal(js, &entry); err != nil {
		t.Fatal(err)
	}
	now := map[string]string{"started": "stopped", "stopped": "started"}[was]
	entry["state"] = now
	if js, err = json.Marshal(entry); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE states SET state = ?, json = ? WHERE rowid = ?`, now, js, rowid); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	return app, machine, was
}
