package main

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/ui/keys"
)

// TestEveryKeyActsOrSaysWhy presses every key of the key map in every view
// of the real binary — the org overview, the dashboard, a drill-down, the
// describe view, the logs view, the checklist, the wake test's setup and
// the error screen — and asserts that each one either changes the screen
// or puts a line there saying why it does nothing: no key is ever silent.
// The keys are the key map's own (ui/keys), so a new binding is pressed
// here without a line of this test changing. The platform's clock stands
// still (FLYWAKE_DEMO_STILL), so only a key changes the screen below the
// header. Every view's footer offers the command line, at every size.
func TestEveryKeyActsOrSaysWhy(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	bin := buildFlywake(t)
	pressed := everyKey()
	if len(pressed) < 40 {
		t.Fatalf("only %d keys from the key map: %v", len(pressed), pressed)
	}
	for _, v := range sweptViews() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel() // each view has its own tmux server and flywake
			s := &sweep{t: t, tmux: tmuxPath, bin: bin, v: v}
			s.start()
			s.footerAtEverySize()
			var silent []string
			for _, k := range pressed {
				if !s.press(k) {
					silent = append(silent, k)
				}
			}
			if len(silent) > 0 {
				t.Errorf("in %s these keys changed nothing and said nothing: %s", v.name, strings.Join(silent, " "))
			}
			s.home()
			s.tm.key(t, "q")
			exit := contains("EXITED 0")
			if v.fails != "" { // the error is the run's result: printed, exit 1
				exit = func(sc string) bool { return strings.Contains(sc, v.fails) && strings.Contains(sc, "EXITED 1") }
			}
			s.tm.waitFor(t, "q quits from "+v.name, 5*time.Second, exit)
			t.Logf("%s: %d keys, %d restarts", v.name, len(pressed), s.restarts)
		})
	}
}

// everyKey is every key some action of the default key map answers to,
// once each, sorted, without ctrl+c and q (they quit; q is pressed last).
func everyKey() []string {
	km := keys.Default()
	seen := map[string]bool{}
	for _, b := range km.All() {
		for _, k := range b.Keys() {
			seen[k] = true
		}
	}
	var out []string
	for k := range seen {
		if k != "ctrl+c" && k != "q" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	for _, must := range []string{":", "/", "o", "?", "esc"} {
		if !slices.Contains(out, must) {
			panic("the key map lost " + must)
		}
	}
	return out
}

// sweptView is one view the sweep presses keys in.
type sweptView struct {
	name  string
	args  string   // flywake's arguments
	setup []string // keys (tmux names) that open the view after the first data
	// at reports whether the screen shows the view.
	at func(screen string) bool
	// reopen are keys that bring the view back from anywhere that takes
	// `:` (none for a view only a new start shows).
	reopen []string
	// ready, when set, is the first data the setup keys need.
	ready func(screen string) bool
	// fails is the error a view of one prints when q leaves it.
	fails string
}

func sweptViews() []sweptView {
	app := "--demo --seed 1 -a sleepy-api"
	// The dashboard: one pane focused (tab moves on), or at the larger
	// sizes every tile on screen at once.
	dashboard := func(s string) bool {
		return strings.Contains(s, "demo-org/sleepy-api") && (strings.Contains(s, " · tab next") || everyTileShown(s))
	}
	listed := contains("started") // the machines table has its rows
	return []sweptView{
		{name: "the org overview", args: "--demo --seed 1", reopen: colonCommand("apps"), at: func(s string) bool {
			return strings.Contains(s, "Apps of demo-org") && strings.Contains(s, "4 apps") && !partlyListed.MatchString(s)
		}},
		{name: "the dashboard", args: app, at: dashboard, reopen: colonCommand("dash")},
		{name: "a drill-down", args: app, ready: listed, setup: []string{"Enter"}, at: func(s string) bool {
			return dashboard(s) && strings.Contains(s, "┃machine ")
		}},
		{name: "the describe view", args: app, ready: listed, setup: []string{"d"}, at: func(s string) bool {
			return dashboard(s) && strings.Contains(s, "┃describe ")
		}},
		{name: "the logs view", args: app + " --view logs", at: contains("┏━ Logs"), reopen: colonCommand("logs")},
		{name: "the checklist", args: app + " --view checklist", at: contains("Pre-deploy checklist"), reopen: colonCommand("checklist")},
		{name: "the wake test", args: app + " --view wake", at: contains("┏━ Wake test"), reopen: colonCommand("wake")},
		{name: "the error screen", args: "--demo --seed 1 -a nope", at: contains("flywake cannot show nope"),
			fails: `flywake: app "nope" not found`},
	}
}

// everyTileShown: every tile's box title is on screen.
func everyTileShown(s string) bool {
	for _, title := range tileTitles {
		if !strings.Contains(s, "━ "+title+" ━") && !strings.Contains(s, "─ "+title+" ─") {
			return false
		}
	}
	return true
}

// colonCommand is `:word` enter, as keys.
func colonCommand(word string) []string {
	out := []string{":"}
	for _, r := range word {
		out = append(out, "lit:"+string(r))
	}
	return append(out, "Enter")
}

// sweep drives one view.
type sweep struct {
	t         *testing.T
	tmux, bin string
	v         sweptView
	tm        *tmuxTerm
	restarts  int
}

const sweepW, sweepH = 80, 24

// start runs flywake on the view and waits until the screen holds still.
func (s *sweep) start() {
	s.t.Helper()
	s.tm = newTmux(s.t, s.tmux, sweepW, sweepH, fmt.Sprintf("FLYWAKE_DEMO_STILL=1 %s %s; echo EXITED $?; sleep 30", shellQuote(s.bin), s.v.args))
	if s.v.ready != nil {
		s.tm.waitFor(s.t, "first data", 30*time.Second, s.v.ready)
	}
	for _, k := range s.v.setup {
		s.send(k)
	}
	s.tm.waitFor(s.t, s.v.name, 20*time.Second, s.isHome)
	s.still()
}

// still waits until two captures a second apart show the same below the
// header: the first answers (probes, logs, the org's rows) have landed.
func (s *sweep) still() {
	s.t.Helper()
	last := body(s.tm.capture(s.t))
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		time.Sleep(time.Second)
		now := body(s.tm.capture(s.t))
		if now == last {
			return
		}
		last = now
	}
	s.t.Fatalf("%s never held still:\n%s", s.v.name, last)
}

// isHome: the view is on screen, with nothing asked or typed over it
// (every view's footer offers the command line; a prompt's does not).
func (s *sweep) isHome(screen string) bool {
	return s.v.at(screen) && offersCommand.MatchString(footer(screen))
}

// offersCommand is a footer's `:` key: ": command" in the views, ": another
// app or a command" on the error screen.
var offersCommand = regexp.MustCompile(`(^|· ): [a-z ]*command`)

// home brings the view back: esc out of a prompt, a typed filter or an
// overlay the last key opened, then the view's `:` command, then a new
// start.
func (s *sweep) home() {
	s.t.Helper()
	if s.isHome(s.tm.capture(s.t)) {
		return
	}
	for range 3 {
		s.tm.key(s.t, "Escape")
		if s.settledHome(300 * time.Millisecond) {
			return
		}
	}
	if len(s.v.reopen) > 0 {
		for _, k := range s.v.reopen {
			s.send(k)
		}
		if s.settledHome(2 * time.Second) {
			return
		}
	}
	s.restarts++
	s.start()
}

func (s *sweep) settledHome(d time.Duration) bool {
	for deadline := time.Now().Add(d); ; {
		if s.isHome(s.tm.capture(s.t)) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// press presses k in the view and reports whether the screen below the
// header changed (an action, or a notice saying why it did nothing).
func (s *sweep) press(k string) bool {
	s.t.Helper()
	s.home()
	before := body(s.styled())
	s.send(tmuxKey(k))
	// Every key changes the screen, so the wait costs only a failing run;
	// it is long enough for a loaded machine running the views at once.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if body(s.styled()) != before {
			return true
		}
		time.Sleep(30 * time.Millisecond)
	}
	s.t.Logf("%s in %s: the screen stayed:\n%s", k, s.v.name, body(s.tm.capture(s.t)))
	return false
}

// styled is the screen with its colours, where a moved cursor shows (the
// highlighted row is the same text).
func (s *sweep) styled() string {
	s.t.Helper()
	return s.tm.run(s.t, "capture-pane", "-p", "-e", "-t", s.tm.session)
}

// send sends one tmux key name, or "lit:x" as text.
func (s *sweep) send(k string) {
	if lit, ok := strings.CutPrefix(k, "lit:"); ok {
		s.tm.run(s.t, "send-keys", "-t", s.tm.session, "-l", lit)
		return
	}
	s.tm.run(s.t, "send-keys", "-t", s.tm.session, k)
}

// footerAtEverySize checks the view's footer offers `:` at 80×24, 120×40,
// 160×48 and 220×60, then goes back to the sweep's size.
func (s *sweep) footerAtEverySize() {
	s.t.Helper()
	for _, sz := range [][2]int{{120, 40}, {160, 48}, {220, 60}, {sweepW, sweepH}} {
		before := trimmed(body(s.tm.capture(s.t)))
		s.tm.run(s.t, "resize-window", "-t", s.tm.session, "-x", fmt.Sprint(sz[0]), "-y", fmt.Sprint(sz[1]))
		// A frame drawn for the new size: until flywake redraws, tmux shows
		// the old frame in the larger window, and that one must not count
		// (below the header, where only flywake's redraw changes the screen).
		s.tm.waitFor(s.t, fmt.Sprintf("%s's footer at %d×%d", s.v.name, sz[0], sz[1]), 5*time.Second, func(sc string) bool {
			return len(strings.Split(sc, "\n")) >= sz[1] && trimmed(body(sc)) != before && s.isHome(sc)
		})
	}
	s.still()
}

// trimmed is a screen without the blanks a resize pads it with.
func trimmed(screen string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// tmuxKey is a key map key as tmux's send-keys names it.
func tmuxKey(k string) string {
	named := map[string]string{
		"up": "Up", "down": "Down", "left": "Left", "right": "Right", "pgup": "PPage", "pgdown": "NPage",
		"home": "Home", "end": "End", "enter": "Enter", "esc": "Escape", "tab": "Tab", "shift+tab": "BTab", " ": "Space",
	}
	if n, ok := named[k]; ok {
		return n
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return "C-" + c
	}
	return "lit:" + k
}

// body is a screen without its header line (wall-clock ages and call
// counts move there on their own).
func body(screen string) string {
	if _, rest, ok := strings.Cut(screen, "\n"); ok {
		return rest
	}
	return ""
}

// footer is a screen's last line.
func footer(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return lines[len(lines)-1]
}
