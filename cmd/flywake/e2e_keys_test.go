package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The key file reaches the real dashboard: a rebound key acts, its old key
// does not, and the pane's title names the new one. A malformed file starts
// nothing and names its line.
func TestKeyFileInTmux(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	bin := buildFlywake(t)
	config := func(file string) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "flywake"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "flywake", "keys.toml"), []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}

	good := config("next_pane = \"ctrl+n\"\n")
	tm := newTmux(t, tmuxPath, 120, 36, fmt.Sprintf("XDG_CONFIG_HOME=%s %s --demo -a sleepy-api; echo EXITED $?; sleep 5",
		shellQuote(good), shellQuote(bin)))
	tm.waitFor(t, "first data", 20*time.Second, contains(focusTitle(0)))
	tm.waitFor(t, "the title's rebound key", 3*time.Second, contains(focusTitle(0)+" · ctrl+n next"))
	// tab, ctrl+n, then help opened and closed: keys are read in order, so
	// once help has closed both moves are on screen, with no sleep. Had
	// tab still moved the focus, it would be on the third pane.
	tm.key(t, "Tab")
	tm.key(t, "C-n")
	tm.key(t, "?")
	tm.waitFor(t, "help", 3*time.Second, contains("Keys · ? or esc closes"))
	tm.key(t, "?")
	screen := tm.waitFor(t, "help closed", 3*time.Second, func(s string) bool { return !strings.Contains(s, "Keys · ? or esc closes") })
	if !strings.Contains(screen, focusTitle(1)) {
		t.Fatalf("tab then ctrl+n should focus the second pane (ctrl+n moves, tab no longer does):\n%s", screen)
	}
	tm.key(t, "q")
	tm.waitFor(t, "exit", 5*time.Second, contains("EXITED 0"))

	bad := config("zoom = \"F\"\nstp = \"X\"\n")
	tm = newTmux(t, tmuxPath, 120, 36, fmt.Sprintf("XDG_CONFIG_HOME=%s %s --demo -a sleepy-api; echo EXITED $?; sleep 5",
		shellQuote(bad), shellQuote(bin)))
	tm.waitFor(t, "the refusal", 10*time.Second, contains("EXITED"))
	screen = tm.run(t, "capture-pane", "-p", "-J", "-t", tm.session) // -J: wrapped lines joined
	for _, want := range []string{"keys.toml:2: unknown action \"stp\" — did you mean stop?", "nothing was started", "EXITED 1"} {
		if !strings.Contains(screen, want) {
			t.Errorf("a malformed key file: the screen lacks %q:\n%s", want, screen)
		}
	}
}
