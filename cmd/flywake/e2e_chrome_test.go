package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNoDeadEndsSortDescribeHelpInTmux drives `flywake --demo` in tmux at
// 80×24: the switcher's typo recovery (`:ba` enter opens backlog-web, the
// only match; `:nope` enter is refused in place; esc leaves the app as it
// was), sorting the machines table by a column and back, the describe view
// (the machine's JSON, searched), copying an id through OSC 52 into tmux's
// buffers, a mouse click selecting a row, and help complete at 80×24 and
// 70×20.
func TestNoDeadEndsSortDescribeHelpInTmux(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 80, 24, fmt.Sprintf("%s --demo -a sleepy-api; echo EXITED $?; sleep 5", shellQuote(bin)))
	tm.run(t, "set", "-g", "set-clipboard", "on")
	tm.waitFor(t, "first data", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "sleepy-api") && regexp.MustCompile(`[●○] (started|stopped)`).MatchString(s)
	})
	typ := func(s string) {
		for _, r := range s {
			tm.literal(t, string(r))
		}
	}

	// :ba enter: the only match, backlog-web, opens.
	tm.key(t, ":")
	tm.waitFor(t, "the apps listed", 5*time.Second, contains("backlog-web"))
	typ("ba")
	tm.key(t, "Enter")
	tm.waitFor(t, "backlog-web open", 15*time.Second, contains("demo-org/backlog-web"))

	// :nope enter: refused in place, the switcher stays; esc keeps the app.
	tm.key(t, ":")
	tm.waitFor(t, "the apps listed", 5*time.Second, contains("sleepy-api"))
	typ("nope")
	tm.key(t, "Enter")
	screen := tm.waitFor(t, "refused in place", 3*time.Second, contains("no app or command matches “nope”"))
	if strings.Contains(screen, "cannot show") {
		t.Fatalf("a typo took the whole screen:\n%s", screen)
	}
	tm.key(t, "Escape")
	tm.waitFor(t, "switcher closed", 3*time.Second, func(s string) bool {
		return !strings.Contains(s, "no app or command matches") && strings.Contains(s, "demo-org/backlog-web") && strings.Contains(s, "STATE")
	})

	// tab cycles through several matches: :s then tab twice highlights
	// the second and third; enter opens what is highlighted.
	tm.key(t, ":")
	tm.waitFor(t, "the apps listed", 5*time.Second, contains("sleepy-api"))
	typ("s")
	tm.key(t, "Tab")
	tm.key(t, "BTab")
	tm.key(t, "Enter")
	tm.waitFor(t, "back on sleepy-api", 15*time.Second, func(s string) bool {
		return strings.Contains(s, "demo-org/sleepy-api") && strings.Contains(s, "○ stopped")
	})

	// Sort by NAME (o: STATE, ID, NAME), then reverse; o past the last column is the listing again.
	names := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if m := regexp.MustCompile(`[●○] (?:started|stopped) +[0-9a-f]{14} +([a-z]+-[a-z]+-[0-9]+)`).FindStringSubmatch(l); m != nil {
				out = append(out, m[1])
			}
		}
		return out
	}
	// One o at a time, each waited for: keys that reach the program in one
	// read arrive as one message ("ooo"), which is no key.
	for _, col := range []string{"STATE", "ID", "NAME"} {
		tm.key(t, "o")
		screen = tm.waitFor(t, "sorted by "+col, 3*time.Second, contains(col+"↑"))
	}
	if ns := names(screen); len(ns) < 3 || !slices.IsSorted(ns) {
		t.Fatalf("NAME↑ but the names are %v:\n%s", ns, screen)
	}
	tm.key(t, "O")
	screen = tm.waitFor(t, "reversed", 3*time.Second, contains("NAME↓"))
	if ns := names(screen); len(ns) < 3 || !slices.IsSortedFunc(ns, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Fatalf("NAME↓ but the names are %v:\n%s", ns, screen)
	}
	for i := 0; strings.ContainsAny(strings.Split(tm.capture(t), "\n")[2], "↑↓"); i++ {
		if i > 14 {
			t.Fatalf("o never came back to the listing's order:\n%s", tm.capture(t))
		}
		tm.key(t, "o") // the next column, and after the last one as listed
		time.Sleep(50 * time.Millisecond)
	}

	// A click on the third row selects it; y copies its id to tmux's buffer.
	tm.run(t, "send-keys", "-t", tm.session, "-l", "\x1b[<0;10;6M\x1b[<0;10;6m") // SGR mouse: press and release at column 10, row 6
	time.Sleep(200 * time.Millisecond)
	screen = tm.capture(t)
	row := strings.Split(screen, "\n")[5]
	id := regexp.MustCompile(`[0-9a-f]{14}`).FindString(row)
	if id == "" {
		t.Fatalf("no machine on the clicked line:\n%s", screen)
	}
	tm.key(t, "y")
	tm.waitFor(t, "copied notice", 3*time.Second, contains("copied the machine id “"+id+"”"))
	if got := tm.run(t, "show-buffer"); strings.TrimSpace(got) != id {
		t.Fatalf("tmux's buffer holds %q, want the clicked row's id %s (the click did not select it, or OSC 52 did not arrive)", got, id)
	}

	// d describes the selected machine: its JSON from GET machine; / searches.
	tm.key(t, "d")
	tm.waitFor(t, "describe", 10*time.Second, func(s string) bool {
		return strings.Contains(s, "describe "+id) && strings.Contains(s, `"id": "`+id+`"`)
	})
	tm.key(t, "/")
	typ("exited_at")
	tm.key(t, "Enter")
	screen = tm.waitFor(t, "the search's first match", 3*time.Second, contains("/exited_at · match 1 of"))
	if !strings.Contains(screen, `"exited_at"`) {
		t.Fatalf("the match is not on screen:\n%s", screen)
	}
	tm.key(t, "Escape")
	tm.waitFor(t, "back to the table", 3*time.Second, func(s string) bool { return strings.Contains(s, "STATE") && !strings.Contains(s, "describe "+id) })

	// Help shows every group whole at 80×24 and at 70×20.
	for _, size := range [][2]int{{80, 24}, {70, 20}} {
		tm.run(t, "resize-window", "-t", tm.session, "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]))
		time.Sleep(200 * time.Millisecond)
		tm.key(t, "?")
		screen = tm.waitFor(t, fmt.Sprintf("help at %dx%d", size[0], size[1]), 3*time.Second, contains("Keys · ? or esc closes"))
		for _, want := range []string{"move", "panes", "machines table", "describe (d)", "checklist (c)", "wake test (w)", "logs view (l)",
			"quit", "suspend", "next/prev item", "compare runs", "clear filters", "sort: reverse"} {
			if !strings.Contains(screen, want) {
				t.Errorf("help at %dx%d lacks %q:\n%s", size[0], size[1], want, screen)
			}
		}
		tm.key(t, "Escape")
		tm.waitFor(t, "help closed", 3*time.Second, func(s string) bool { return !strings.Contains(s, "Keys · ? or esc closes") })
	}

	tm.key(t, "q")
	tm.waitFor(t, "exit", 5*time.Second, contains("EXITED 0"))
}
