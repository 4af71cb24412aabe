package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestOverviewAndLogsInTmux drives `flywake --demo` with no app in the
// environment: the org overview opens first, enter opens an app, l its
// logs (filtered with /), esc back to the app and esc again to the
// overview; a machine's drill-down jumps to its own logs; `:apps` opens
// the overview from anywhere; q quits cleanly.
func TestOverviewAndLogsInTmux(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 120, 36,
		fmt.Sprintf("cd / && env -u FLY_APP %s --demo; echo EXITED $?; sleep 5", shellQuote(bin)))

	// The overview: every demo app, each listed, worst first.
	screen := tm.waitFor(t, "overview", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "Apps of demo-org") && strings.Contains(s, "4 apps") &&
			!partlyListed.MatchString(s) && strings.Contains(s, "demo-org/all apps")
	})
	order := appOrder(screen, []string{"sleepy-api", "snappy-api", "crashy-api", "backlog-web"})
	if len(order) != 4 || order[0] != "crashy-api" {
		t.Fatalf("overview rows %v, want crashy-api first:\n%s", order, screen)
	}
	// enter on sleepy-api opens its dashboard. The rows may still re-sort
	// as the apps' figures arrive, and the cursor stays on its app when
	// they do, so sleepy-api can end up above the cursor as well as below
	// it: each step reads the rows again and moves towards it, then waits
	// for the cursor (the reversed row) to leave the row it was on.
	rows := func() (cursor, target int) {
		cursor, target = -1, -1
		i := 0
		for _, l := range strings.Split(tm.run(t, "capture-pane", "-p", "-e", "-t", tm.session), "\n") {
			for _, app := range order {
				if !strings.Contains(l, " "+app+" ") {
					continue
				}
				if reverseVideo.MatchString(l) {
					cursor = i
				}
				if app == "sleepy-api" {
					target = i
				}
				i++
			}
		}
		return cursor, target
	}
	for i := 0; i < 4*len(order); i++ {
		cursor, target := rows()
		if cursor == target && cursor >= 0 {
			break
		}
		key := "Down"
		if cursor > target {
			key = "Up"
		}
		tm.key(t, key)
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
			if now, _ := rows(); now != cursor {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if cursor, target := rows(); cursor != target || cursor < 0 {
		t.Fatalf("the cursor (row %d) never reached sleepy-api (row %d):\n%s", cursor, target, tm.capture(t))
	}
	tm.key(t, "Enter")
	tm.waitFor(t, "sleepy-api's dashboard", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "demo-org/sleepy-api") && strings.Contains(s, "Machines · 1/") && strings.Contains(s, "stopped")
	})

	// l: the app's logs, live; / filters them.
	tm.key(t, "l")
	tm.waitFor(t, "logs view", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "Logs · esc back") && strings.Contains(s, "● following") && strings.Contains(s, "app[")
	})
	tm.key(t, "/")
	for _, r := range "Listening" {
		tm.literal(t, string(r))
	}
	tm.key(t, "Enter")
	screen = tm.waitFor(t, "filtered logs", 5*time.Second, func(s string) bool {
		return strings.Contains(s, "/Listening") && strings.Contains(s, "held")
	})
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "app[") && !strings.Contains(l, "Listening") {
			t.Fatalf("the filter let a line through:\n%s", screen)
		}
	}
	// esc: back to the app; esc again (nothing to back out of): the overview.
	tm.key(t, "Escape")
	tm.waitFor(t, "back to the app", 3*time.Second, contains("Machines · 1/"))
	tm.key(t, "Escape")
	tm.waitFor(t, "back to the overview", 3*time.Second, func(s string) bool {
		return strings.Contains(s, "Apps of demo-org · esc back") && strings.Contains(s, "▸ sleepy-api")
	})
	tm.key(t, "Escape")
	tm.waitFor(t, "the app again", 3*time.Second, contains("Machines · 1/"))

	// A machine's drill-down jumps to that machine's logs.
	tm.key(t, "Enter")
	tm.waitFor(t, "drill-down", 3*time.Second, contains("its logs"))
	tm.key(t, "l")
	screen = tm.waitFor(t, "the machine's logs", 5*time.Second, contains("Logs · machine "))
	if !strings.Contains(screen, "machine ") {
		t.Fatalf("no machine filter:\n%s", screen)
	}
	tm.key(t, "Escape")
	tm.key(t, "Escape")

	// :apps from anywhere.
	tm.key(t, ":")
	for _, r := range "apps" {
		tm.literal(t, string(r))
	}
	tm.key(t, "Enter")
	tm.waitFor(t, ":apps", 3*time.Second, contains("Apps of demo-org · esc back"))

	tm.key(t, "q")
	screen = tm.waitFor(t, "exit", 3*time.Second, contains("EXITED"))
	if !strings.Contains(screen, "EXITED 0") {
		t.Errorf("flywake did not exit 0:\n%s", screen)
	}
}

var partlyListed = regexp.MustCompile(`listed \d+/\d+`)

// reverseVideo is an SGR sequence that turns on reverse video (the cursor row).
var reverseVideo = regexp.MustCompile(`\x1b\[(?:[0-9]+;)*7(?:;[0-9]+)*m`)

// appOrder is the order apps' rows appear in on screen.
func appOrder(screen string, apps []string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		for _, a := range apps {
			if strings.Contains(l, " "+a+" ") {
				out = append(out, a)
			}
		}
	}
	return out
}
