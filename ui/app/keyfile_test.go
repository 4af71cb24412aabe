package app

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// rebound is a dashboard at 160×48 (tiled: zoom acts) with the key file's
// bindings, listing the action fixture.
func rebound(t *testing.T, file string, readOnly bool) Model {
	t.Helper()
	km := keys.Default()
	if err := km.Rebind([]byte(file), "keys.toml"); err != nil {
		t.Fatal(err)
	}
	m := newInline(Config{Source: &watch.Source{Org: "org", Now: func() time.Time { return t0 }}, App: "sleepy-api",
		ReadOnly: readOnly, Theme: theme.New(true), Keys: &km})
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	return send(m, listReply(m, actionMachines()))
}

const myKeys = `
zoom = "F"
next_pane = "ctrl+n"
stop = "X"
down = ["down", "ctrl+j"]
`

// A rebound key acts on the dashboard and its old key does not; the footer,
// the pane titles and the help name the new key.
func TestReboundKeysActAndOldOnesDoNot(t *testing.T) {
	m := rebound(t, myKeys, false)
	if m = send(m, uitest.Key("f")); m.zoom {
		t.Error("f still zooms")
	}
	if m = send(m, uitest.Key("F")); !m.zoom {
		t.Error("F does not zoom")
	}
	if foot := lastLine(plainView(m)); !strings.Contains(foot, "F unzoom") {
		t.Errorf("the footer does not name F: %q", foot)
	}
	m = send(m, uitest.Key("F"))

	if m = send(m, uitest.Key("tab")); m.focus != 0 {
		t.Error("tab still moves the focus")
	}
	if m = send(m, uitest.Key("ctrl+n")); m.focus != 1 {
		t.Errorf("ctrl+n moves the focus to %d, want 1", m.focus)
	}
	if view := plainView(m); !strings.Contains(view, "· ctrl+n next") || strings.Contains(view, "tab next") {
		t.Errorf("the focused pane's title does not name ctrl+n for the next pane:\n%s", view)
	}
	m = send(m, uitest.Key("shift+tab")) // back to the machines, by the key left alone

	if sel, _ := machinesOf(m).Selected(); sel != "up" {
		t.Fatalf("selected %s, want up", sel)
	}
	if m = send(m, uitest.Key("ctrl+j")); func() string { s, _ := machinesOf(m).Selected(); return s }() != "down" {
		t.Error("ctrl+j does not move down the table")
	}
	if m = send(m, uitest.Key("j")); func() string { s, _ := machinesOf(m).Selected(); return s }() != "down" {
		t.Error("j still moves down the table")
	}
	m = send(m, uitest.Key("up"))
	if m = ask(t, m, "up", "S"); m.confirm != nil {
		t.Error("S still asks to stop")
	}
	if m = ask(t, m, "up", "X"); m.confirm == nil {
		t.Fatalf("X does not ask to stop (notice %q)", m.notice.text)
	}
	m.confirm = nil

	m = send(m, uitest.Key("?"))
	help := plainView(m)
	for _, want := range []string{`X\s+stop machine`, `F\s+zoom pane`, `ctrl\+n\s+next pane`, `↓/ctrl\+j\s+down`} {
		if !regexp.MustCompile(want).MatchString(help) {
			t.Errorf("the help lacks %s:\n%s", want, help)
		}
	}
}

// --readonly removes a dangerous action whatever the file binds it to.
func TestReadOnlyBeatsTheKeyFile(t *testing.T) {
	m := rebound(t, myKeys, true)
	for _, k := range []string{"X", "S"} {
		if m = ask(t, m, "up", k); m.confirm != nil || m.acting != nil {
			t.Errorf("read-only: %s on up asked or acted", k)
		}
	}
	m = send(m, uitest.Key("?"))
	if help := plainView(m); strings.Contains(help, "stop machine") {
		t.Errorf("read-only help lists stop:\n%s", help)
	}
}

// ctrl+c quits whatever quit is bound to.
func TestInterruptQuitsWhateverQuitIs(t *testing.T) {
	m := rebound(t, `quit = "Q"`, false)
	if _, cmd := m.Update(uitest.Key("q")); cmd != nil && isQuit(cmd) {
		t.Error("q still quits")
	}
	for _, k := range []string{"Q", "ctrl+c"} {
		if _, cmd := m.Update(uitest.Key(k)); cmd == nil || !isQuit(cmd) {
			t.Errorf("%s does not quit", k)
		}
	}
}

// ctrl+z suspends the dashboard as a SIGTSTP does: in raw mode it comes
// as a key, and no key file can take it for an action.
func TestCtrlZSuspends(t *testing.T) {
	m := rebound(t, `quit = "Q"`, false)
	if _, cmd := m.Update(uitest.Key("ctrl+z")); cmd == nil {
		t.Fatal("ctrl+z does nothing")
	} else if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Errorf("ctrl+z gave %T, want tea.SuspendMsg", cmd())
	}
	k := keys.Default()
	if err := k.Rebind([]byte(`stop = "ctrl+z"`+"\n"), "keys.toml"); err == nil || !strings.Contains(err.Error(), "ctrl+z always suspends") {
		t.Errorf("binding ctrl+z to stop: %v, want a refusal", err)
	}
}

func isQuit(cmd tea.Cmd) bool {
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-1]
}
