package app

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

func enterKey() tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyEnter} }
func escKey() tea.KeyMsg   { return tea.KeyMsg{Type: tea.KeyEsc} }

// typed opens the `:` prompt with the org's apps known and types s.
func typed(m Model, s string) Model {
	m = send(m, runes(":"))
	m = send(m, appsReply(m, []string{"sleepy-api", "backlog-web", "snappy-api", "crashy-api"}))
	for _, r := range s {
		m = send(m, runes(string(r)))
	}
	return m
}

// The command line takes its commands by every name, refuses an empty
// entry and a command that cannot run in place, saying why, and works
// over the overview, an overlay and the help alike.
func TestCommandLine(t *testing.T) {
	// :q and :quit quit.
	for _, word := range []string{"q", "quit"} {
		next, cmd := typed(offline(t, false), word).Update(enterKey())
		if cmd == nil {
			t.Fatalf(":%s did nothing", word)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok || next.(Model).ctx.Err() == nil {
			t.Errorf(":%s did not quit", word)
		}
	}
	// enter on an empty prompt says what it takes.
	m := send(typed(offline(t, false), ""), enterKey())
	if m.switcher == nil || !strings.Contains(plainView(m), "type an app's name or a command (apps, machines, logs, checklist, wake, help, quit)") {
		t.Fatalf("enter on an empty prompt:\n%s", plainView(m))
	}
	// :logs, :checklist and :wake open their views; :machines and :dash come back.
	for word, want := range map[string]string{"logs": "logs", "checklist": "checklist", "wake": "wake"} {
		m = send(typed(offline(t, false), word), enterKey())
		if got := string(openOverlay(m)); got != want || m.switcher != nil {
			t.Errorf(":%s opened %q (prompt open %v)", word, got, m.switcher != nil)
		}
		for _, back := range []string{"machines", "dash"} {
			if mm := send(typed(m, back), enterKey()); openOverlay(mm) != "" {
				t.Errorf(":%s from %s left %q open", back, word, openOverlay(mm))
			}
		}
	}
	// :wake under --readonly says why, in place.
	m = send(typed(offline(t, true), "wake"), enterKey())
	if m.switcher == nil || !strings.Contains(plainView(m), "the wake test is off: flywake runs read-only") {
		t.Fatalf(":wake read-only:\n%s", plainView(m))
	}
	// :help opens the help; : over the help opens the prompt.
	m = send(typed(offline(t, false), "help"), enterKey())
	if !m.help {
		t.Fatal(":help did not open the help")
	}
	if m = send(m, runes(":")); m.switcher == nil || m.help {
		t.Fatalf(": over the help: prompt %v, help %v", m.switcher != nil, m.help)
	}
}

// On the org overview, `:` `ba` `enter` opens backlog-web (it used to
// fall through: `:` did nothing and enter opened the cursor's app), and
// with no app open :logs says why in place.
func TestCommandLineOnTheOverview(t *testing.T) {
	m := newInline(Config{Source: offline(t, false).cfg.Source, Theme: theme.New(true)})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if openOverlay(m) != "overview" {
		t.Fatalf("no app named: %q open, want the overview", openOverlay(m))
	}
	if mm := send(typed(m, "logs"), enterKey()); mm.switcher == nil || !strings.Contains(plainView(mm), "no app is open") {
		t.Fatalf(":logs with no app open:\n%s", plainView(mm))
	}
	if m = send(typed(m, "ba"), enterKey()); m.AppName() != "backlog-web" || openOverlay(m) != "" {
		t.Fatalf(":ba enter on the overview: app %q, overlay %q", m.AppName(), openOverlay(m))
	}
}

// esc where it would open the overview first dismisses a notice: esc
// pressed to dismiss one does not leave the app.
func TestEscDismissesANoticeFirst(t *testing.T) {
	m := send(offline(t, false), runes("%")) // not a key: a notice
	if m.notice.text == "" {
		t.Fatal("no notice")
	}
	if m = send(m, escKey()); m.notice.text != "" || openOverlay(m) != "" {
		t.Fatalf("esc over a notice: notice %q, overlay %q", m.notice.text, openOverlay(m))
	}
	if m = send(m, escKey()); openOverlay(m) != "overview" {
		t.Fatalf("esc with no notice: overlay %q, want the overview", openOverlay(m))
	}
}

// On the screen for an app flywake cannot show, :apps opens the overview
// (the error screen goes), and esc with nothing shown before goes there too.
func TestErrorScreenWaysOut(t *testing.T) {
	fatal := func() Model {
		m := offline(t, false)
		return send(m, listFailed(m, flyc.ErrUnknownApp{App: "app-a"}))
	}
	m := fatal()
	if m.Err() == nil || !strings.Contains(plainView(m), "flywake cannot show app-a") {
		t.Fatalf("no error screen:\n%s", plainView(m))
	}
	for name, m := range map[string]Model{
		":apps": send(typed(m, "apps"), enterKey()),
		"esc":   send(fatal(), escKey()),
	} {
		v := plainView(m)
		if m.Err() != nil || openOverlay(m) != "overview" || strings.Contains(v, "cannot show") {
			t.Errorf("%s on the error screen: err %v, overlay %q:\n%s", name, m.Err(), openOverlay(m), v)
		}
	}
}

// A copied id is quoted whole; a copied log line by its start and length,
// so the notice stays one line at 120 columns and does not print the line
// again.
func TestCopyNoticeIsShort(t *testing.T) {
	line := `2026-11-30T12:00:00Z app[b6cfb876f1a383] ams 192.0.2.161 sleepy-api.fly.dev "GET /api/v1/notifications/unread_count/ HTTP/1.1" 200 15 3ms`
	cases := []struct {
		c       pane.CopyText
		want    []string
		notWant []string
	}{
		{pane.CopyText{Text: "148e4d55f36278", What: "machine id"}, []string{"copied the machine id “148e4d55f36278” (OSC 52"}, []string{"characters"}},
		{pane.CopyText{Text: line, What: "log line"}, []string{"copied the log line “2026-11-30T12:00:00Z app[b6cfb8…” (" + fmt.Sprint(len(line)) + " characters)"}, []string{"unread_count"}},
	}
	for _, c := range cases {
		got := copied(c.c)
		uitest.AssertMentions(t, got, c.want, c.notWant)
		m := offline(t, false)
		m = send(m, tea.WindowSizeMsg{Width: 120, Height: 30})
		m.notice = notice{text: got}
		if n := len(m.statusLines()); n != 1 {
			t.Errorf("%s: the notice takes %d lines at 120 columns: %q", c.c.What, n, got)
		}
	}
}

// A refused `:` entry's reason wraps at 80 columns instead of losing its
// end (the commands it lists, the way out), and the screen keeps its size.
func TestCommandRefusalWrapsWhole(t *testing.T) {
	for _, c := range []struct{ typed, want string }{
		{"", "help, quit), esc to stay"},
		{"zzz", "backspace to change it, esc to stay"},
	} {
		m := send(offline(t, false), tea.WindowSizeMsg{Width: 80, Height: 24})
		m = send(typed(m, c.typed), enterKey())
		screen := plainView(m)
		lines := strings.Split(screen, "\n")
		joined := strings.Join(strings.Fields(screen), " ")
		if !strings.Contains(joined, c.want) || len(lines) != 24 {
			t.Errorf(":%s enter at 80x24: want %q whole on 24 lines, got %d:\n%s", c.typed, c.want, len(lines), screen)
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf(":%s line %d is %d wide", c.typed, i, w)
			}
		}
	}
}
