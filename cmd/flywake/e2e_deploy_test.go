package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDemoDeployInTmux is the presenter's deploy: `flywake --demo -a sleepy-api` in a
// 160×48 tmux terminal, D, c for the crashing release, y; the Machines pane
// then shows the rollout — machines replacing, each row's old and new
// release, the machines not yet replaced on the old one — and the
// crash-loop banner for the new release once the verdict fails.
func TestDemoDeployInTmux(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 160, 48, fmt.Sprintf("%s --demo -a sleepy-api; echo EXITED $?; sleep 5", shellQuote(bin)))
	tm.waitFor(t, "first data", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "sleepy-api") && strings.Contains(s, "v42")
	})

	tm.key(t, "D")
	tm.waitFor(t, "the deploy overlay", 3*time.Second, contains("Roll a demo release out to sleepy-api"))
	tm.key(t, "c")
	screen := tm.waitFor(t, "the question", 10*time.Second, contains("? y/N"))
	// The question names the app and its machines (the ids wrap on lines).
	if !strings.Contains(screen, "Roll out release v43 (crashes 2.5s after every start) to 10 machines of sleepy-api") {
		t.Fatalf("the question does not name the release, the app and the machines:\n%s", screen)
	}
	tm.key(t, "y")
	tm.waitFor(t, "the rollout under way", 10*time.Second, contains("Rolling out release v43"))
	tm.key(t, "Escape")

	// The Machines pane: a machine moved to v43 shows where it came from,
	// one not yet replaced is on the old release.
	sawReplacing := false
	screen = tm.waitFor(t, "the rollout on the machines pane", 30*time.Second, func(s string) bool {
		sawReplacing = sawReplacing || regexp.MustCompile(`(replacing|updating)`).MatchString(s)
		return strings.Contains(s, "v42→v43") && strings.Contains(s, "v42 old")
	})
	t.Logf("mid-rollout:\n%s", screen)

	// Then the banner, for the new release, once the verdict fails.
	screen = tm.waitFor(t, "the crash-loop banner", 60*time.Second, func(s string) bool {
		sawReplacing = sawReplacing || regexp.MustCompile(`(replacing|updating)`).MatchString(s)
		return strings.Contains(s, "✗ release v43:") && strings.Contains(s, "crash-looping")
	})
	t.Logf("banner:\n%s", screen)
	if !sawReplacing {
		t.Error("never saw a machine replacing or updating during the rollout")
	}
	if !strings.Contains(screen, "✗ crash-loop") {
		t.Errorf("no machine row says crash-loop:\n%s", screen)
	}

	tm.key(t, "q")
	screen = tm.waitFor(t, "exit", 5*time.Second, contains("EXITED"))
	if !strings.Contains(screen, "EXITED 0") {
		t.Errorf("flywake did not exit 0:\n%s", screen)
	}
}

// With --readonly the D key does nothing: no overlay, no deploy.
func TestDemoDeployKeyIsOffReadOnly(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 160, 48, fmt.Sprintf("%s --demo --readonly -a sleepy-api; echo EXITED $?; sleep 5", shellQuote(bin)))
	tm.waitFor(t, "first data", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "sleepy-api") && strings.Contains(s, "v42")
	})
	tm.key(t, "D")
	s := tm.waitFor(t, "why D does nothing", 3*time.Second, contains("D (demo deploy) is off: flywake runs read-only"))
	if strings.Contains(s, "Roll a demo release") {
		t.Fatalf("read-only dashboard offers the deploy:\n%s", s)
	}
	tm.key(t, "q")
	tm.waitFor(t, "exit", 5*time.Second, contains("EXITED 0"))
}
