package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// offline is a model with no client: Update routes, but no command does I/O.
func offline(t *testing.T, readOnly bool) Model {
	t.Helper()
	m := newInline(Config{Source: &watch.Source{Org: "org", Now: func() time.Time { return t0 }},
		App: "app-a", ReadOnly: readOnly, Theme: theme.New(true)})
	return send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
}

func send(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func listing(ids ...string) []*fly.Machine {
	var out []*fly.Machine
	for _, id := range ids {
		out = append(out, &fly.Machine{ID: id, State: "started", HostStatus: "ok"})
	}
	return out
}

func TestRepliesAreMatchedToRequests(t *testing.T) {
	var seeded watch.Reply // the listing applied before each case's reply
	cases := []struct {
		name      string
		reply     func(m Model) tea.Msg
		wantCount int
		wantFatal bool
	}{
		{"current reply applied", func(m Model) tea.Msg {
			return listReply(m, listing("a", "b"))
		}, 2, false},
		{"reply for an older generation dropped", func(m Model) tea.Msg {
			r := listReply(m, listing("a", "b"))
			r.Gen--
			return r
		}, 1, false},
		{"reply older than the applied one dropped", func(m Model) tea.Msg {
			r := listReply(m, listing("a", "b"))
			r.ID = seeded.ID - 1
			return r
		}, 1, false},
		{"unknown app is fatal", func(m Model) tea.Msg {
			return listFailed(m, flyc.ErrUnknownApp{App: "app-a"})
		}, 1, true},
		{"API down keeps the last data", func(m Model) tea.Msg {
			return listFailed(m, flyc.ErrAPIDown{Op: "list"})
		}, 1, false},
	}
	for _, c := range cases {
		m := offline(t, false)
		seeded = listReply(m, listing("seed"))
		m = send(m, seeded)
		m = send(m, c.reply(m))
		if got := len(m.app.Machines); got != c.wantCount {
			t.Errorf("%s: %d machines, want %d", c.name, got, c.wantCount)
		}
		if (m.fatal != nil) != c.wantFatal {
			t.Errorf("%s: fatal %v, want fatal=%v", c.name, m.fatal, c.wantFatal)
		}
	}
}

func TestAPIDownShowsStaleNotice(t *testing.T) {
	m := offline(t, false)
	m = send(m, listReply(m, listing("a")))
	m = send(m, listFailed(m, flyc.ErrAPIDown{Op: "list"}))
	if m.sched.Failure().Delay != watch.RetryFirst {
		t.Fatalf("first retry delay %v, want %v", m.sched.Failure().Delay, watch.RetryFirst)
	}
	m = send(m, listFailed(m, flyc.ErrAPIDown{Op: "list"}))
	if m.sched.Failure().Delay != 2*watch.RetryFirst {
		t.Fatalf("second retry delay %v, want doubled", m.sched.Failure().Delay)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "stale · 0s · retrying in") {
		t.Fatalf("no stale notice in header:\n%s", v)
	}
}

func TestAppSwitchBumpsGeneration(t *testing.T) {
	m := offline(t, false)
	m = send(m, listReply(m, listing("a")))
	oldGen := m.gen
	for _, k := range []tea.Msg{runes(":"), runes("app-b"), tea.KeyMsg{Type: tea.KeyEnter}} {
		m = send(m, k)
	}
	if m.gen != oldGen+1 || m.AppName() != "app-b" {
		t.Fatalf("after switch: gen %d (was %d), app %q", m.gen, oldGen, m.AppName())
	}
	if len(m.app.Machines) != 0 {
		t.Fatal("the new app starts with the old app's machines")
	}
	// A late reply for the old app must not land in the new one.
	late := listReply(m, listing("old"))
	late.Gen = oldGen
	m = send(m, late)
	if len(m.app.Machines) != 0 {
		t.Fatal("stale reply from the previous app was applied")
	}
	// Esc cancels a switch.
	for _, k := range []tea.Msg{runes(":"), runes("app-c"), tea.KeyMsg{Type: tea.KeyEsc}} {
		m = send(m, k)
	}
	if m.AppName() != "app-b" || m.switcher != nil {
		t.Fatalf("esc did not cancel: app %q", m.AppName())
	}
}

// The switcher with the org's apps known: enter takes the highlighted
// match ("ba" opens backlog-web, the only one), tab and shift+tab cycle
// through several, a name matching nothing is refused in place (the
// switcher stays open, saying so), esc leaves the app as it was.
func TestSwitcherTakesTheHighlightedMatchAndRefusesInPlace(t *testing.T) {
	apps := []string{"sleepy-api", "backlog-web", "snappy-api", "crashy-api"}
	open := func(m Model) Model {
		m = send(m, runes(":"))
		return send(m, appsReply(m, apps))
	}
	typ := func(m Model, s string) Model {
		for _, r := range s {
			m = send(m, runes(string(r)))
		}
		return m
	}
	enter, tab, btab := tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyTab}, tea.KeyMsg{Type: tea.KeyShiftTab}

	m := send(typ(open(offline(t, false)), "ba"), enter)
	if m.AppName() != "backlog-web" || m.switcher != nil {
		t.Fatalf(":ba enter: app %q, switcher open %v", m.AppName(), m.switcher != nil)
	}

	highlighted := func(m Model) string { e, _ := m.switcher.highlighted(); return e.name }
	m = typ(open(m), "s")
	if got := highlighted(m); got != "sleepy-api" {
		t.Fatalf(":s highlights %q", got)
	}
	m = send(m, tab)
	if got := highlighted(m); got != "snappy-api" {
		t.Fatalf("tab: %q", got)
	}
	m = send(m, tab) // "s" is inside crashy-api and the apps command too: after the prefix matches, apps first
	if got := highlighted(m); got != "crashy-api" {
		t.Fatalf("tab again: %q", got)
	}
	if m = send(m, tab); highlighted(m) != "apps" {
		t.Fatalf("tab a third time: %q, want the apps command after the apps", highlighted(m))
	}
	m = send(send(send(m, btab), btab), enter)
	if m.AppName() != "snappy-api" {
		t.Fatalf("shift+tab, enter opened %q", m.AppName())
	}

	m = send(typ(open(m), "nope"), enter)
	if m.switcher == nil || m.AppName() != "snappy-api" || m.Err() != nil {
		t.Fatalf(":nope enter: switcher open %v, app %q, err %v", m.switcher != nil, m.AppName(), m.Err())
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "no app or command matches “nope”") {
		t.Fatalf("the refusal is not said in place:\n%s", v)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyEsc})
	if m.switcher != nil || m.AppName() != "snappy-api" {
		t.Fatal("esc did not close the switcher, keeping the app")
	}

	// A name typed whole comes before a command it begins.
	apps = append(apps, "app")
	if m = send(typ(open(m), "app"), enter); m.AppName() != "app" {
		t.Fatalf(":app enter opened %q, want the app called app", m.AppName())
	}
}

// A switch the list could not check (apps not listed) to an app the
// platform does not have comes back to the app shown before, with a
// notice; a fatal error with no way back still offers another app and quit.
func TestFailedSwitchComesBack(t *testing.T) {
	m := offline(t, false)
	m = send(m, listReply(m, listing("a")))
	for _, k := range []tea.Msg{runes(":"), runes("nope"), tea.KeyMsg{Type: tea.KeyEnter}} {
		m = send(m, k)
	}
	if m.AppName() != "nope" {
		t.Fatalf("the unlisted name was not tried: %q", m.AppName())
	}
	m = send(m, listFailed(m, flyc.ErrUnknownApp{App: "nope"}))
	if m.AppName() != "app-a" || m.Err() != nil {
		t.Fatalf("after the 404: app %q, err %v", m.AppName(), m.Err())
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "could not open nope") || !strings.Contains(v, "back on app-a") {
		t.Fatalf("no notice of the way back:\n%s", v)
	}

	// A bad token: the error is shown with the ways out, and : works.
	m = send(m, listFailed(m, flyc.ErrBadToken{}))
	v := ansi.Strip(m.View())
	if m.Err() == nil || !strings.Contains(v, ": open another app") || !strings.Contains(v, "q quit") {
		t.Fatalf("fatal screen without the ways out:\n%s", v)
	}
	m = send(m, runes(":"))
	if m.switcher == nil {
		t.Fatal(": on the fatal screen does not open the switcher")
	}
}

func TestReadOnlyHidesDangerousKeys(t *testing.T) {
	cases := []struct {
		readOnly bool
		want     bool
	}{{false, true}, {true, false}}
	for _, c := range cases {
		m := offline(t, c.readOnly)
		m = send(m, runes("?"))
		help := ansi.Strip(m.View())
		if got := strings.Contains(help, "wake test"); got != c.want {
			t.Errorf("readonly=%v: help shows wake test = %v, want %v", c.readOnly, got, c.want)
		}
		if m.keys.IsReadOnly() != c.readOnly {
			t.Errorf("readonly=%v not carried into the key map", c.readOnly)
		}
	}
}

// TestDemoDeployKeyIsTheDemos: D rolls a demo release out in --demo only.
// A Machines API on this computer is not the demo (`fly machine
// api-proxy` serves the real one on 127.0.0.1), so it does not turn D on.
func TestDemoDeployKeyIsTheDemos(t *testing.T) {
	local := &watch.Source{Client: quietClient(t), Org: "org", Now: func() time.Time { return t0 }}
	for _, demo := range []bool{false, true} {
		m := newInline(Config{Source: local, App: "app-a", Demo: demo, Theme: theme.New(true)})
		if got := m.keys.Deploy.Enabled(); got != demo {
			t.Errorf("demo=%v against a loopback Machines API: D enabled = %v", demo, got)
		}
	}
}

func TestViewSizes(t *testing.T) {
	cases := []struct {
		w, h     int
		contains string
	}{
		{59, 30, "Enlarge it"},
		{100, 15, "Enlarge it"},
		{80, 24, focusTitle(0)},
		{160, 48, "Cold starts"},
	}
	for _, c := range cases {
		m := offline(t, false)
		m = send(m, tea.WindowSizeMsg{Width: c.w, Height: c.h})
		v := m.View()
		lines := strings.Split(v, "\n")
		if len(lines) != c.h {
			t.Errorf("%dx%d: %d lines", c.w, c.h, len(lines))
		}
		for i, l := range lines {
			if ansi.StringWidth(l) > c.w {
				t.Errorf("%dx%d: line %d is %d wide", c.w, c.h, i, ansi.StringWidth(l))
			}
		}
		if !strings.Contains(ansi.Strip(v), c.contains) {
			t.Errorf("%dx%d: view lacks %q:\n%s", c.w, c.h, c.contains, ansi.Strip(v))
		}
	}
}

func TestFocusCyclesAndQuitCancels(t *testing.T) {
	m := offline(t, false)
	m = send(m, tea.KeyMsg{Type: tea.KeyTab})
	if m.focus != 1 {
		t.Fatalf("tab: focus %d", m.focus)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyShiftTab})
	m = send(m, tea.KeyMsg{Type: tea.KeyShiftTab})
	if m.focus != len(m.panes)-1 {
		t.Fatalf("shift+tab wrap: focus %d", m.focus)
	}
	next, cmd := m.Update(runes("q"))
	if cmd == nil || !errors.Is(next.(Model).ctx.Err(), context.Canceled) {
		t.Fatal("q did not quit and cancel the root context")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not return tea.Quit")
	}
}

// A zoom asked for where panes share the body is kept when the terminal
// shrinks to one pane at a time, but only offered back ("unzoom") where it
// means something again.
func TestZoomHintOnlyWhereZoomActs(t *testing.T) {
	m := send(offline(t, false), tea.WindowSizeMsg{Width: 160, Height: 48})
	if m = send(m, runes("f")); !m.zoomed() {
		t.Fatal("f did not zoom at 160×48")
	}
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if foot := lastLine(plainView(m)); strings.Contains(foot, "unzoom") || strings.Contains(foot, "zoom pane") {
		t.Errorf("at 80×24, one pane at a time, the footer offers a zoom: %q", foot)
	}
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	if foot := lastLine(plainView(m)); !strings.Contains(foot, "f unzoom") {
		t.Errorf("back at 160×48 the zoom is in force but the footer does not offer unzoom: %q", foot)
	}
}

// Keys typed faster than the terminal is read arrive as one message of
// several runes; each acts as a key of its own, and a paste stays text.
func TestKeysReadTogetherActOneByOne(t *testing.T) {
	m := actionModel(t, nil, false)
	if sel, _ := machinesOf(m).Selected(); sel != "up" {
		t.Fatalf("selected %s at the start, want up", sel)
	}
	m = send(m, runes("jj"))
	if sel, _ := machinesOf(m).Selected(); sel != "asleep" {
		t.Errorf("jj in one message selected %s, want asleep (two rows down)", sel)
	}
	if strings.Contains(m.notice.text, "is not a key") {
		t.Errorf("jj was taken for one key: %q", m.notice.text)
	}
	m = send(m, runes("/"))
	m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jk"), Paste: true})
	if v := plainView(m); !strings.Contains(v, "/jk") {
		t.Errorf("a paste into the filter was not typed whole:\n%s", v)
	}
}
