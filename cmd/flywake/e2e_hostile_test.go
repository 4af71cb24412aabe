package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
)

// hostileText retitles the terminal (OSC 0) and writes the clipboard
// (OSC 52, "PWNED-CLIP") on terminals that honour them, as tmux does with
// set-clipboard on.
const hostileText = "\x1b]0;PWNED-TITLE\x07\x1b]52;c;UFdORUQtQ0xJUA==\x07"

// A machine name and a log line carrying OSC 0 and OSC 52 are shown inert:
// after the drill-down opens, the pane title and tmux's paste buffers are
// as they were, and the sequences are on screen as visible text. A control
// window printing the same bytes raw proves this tmux would have been
// changed by them.
func TestHostileTextLeavesTheTerminalAlone(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	sim := flysim.New(flysim.Options{Seed: 1, Speed: 10, Token: "fo1_CANARY_hostile_0123456789abcdef"})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	sim.SetFault("list", flysim.Fault{Hostile: hostileText})
	sim.SetFault("logs", flysim.Fault{Hostile: hostileText})

	bin := buildFlywake(t)
	env := fmt.Sprintf("env -u FLY_ACCESS_TOKEN HOME=%s FLY_FLAPS_BASE_URL=%s FLY_API_BASE_URL=%s FLY_API_TOKEN=%s FLY_ORG=%s",
		shellQuote(t.TempDir()), sim.URL(), sim.URL(), sim.Token(), sim.Org())
	tm := newTmux(t, tmuxPath, 160, 48, fmt.Sprintf("sleep 1; %s %s -a %s; echo EXITED $?; sleep 30",
		env, shellQuote(bin), flysim.DemoScaleToZero))
	tm.run(t, "set", "-g", "set-clipboard", "on")
	title := tm.display(t, "#{pane_title}")
	buffers := tm.run(t, "list-buffers")

	tm.waitFor(t, "first data", 20*time.Second, firstData)
	tm.key(t, "Enter")
	tm.waitFor(t, "drill-down", 3*time.Second, contains("esc back"))
	tm.key(t, "End")
	screen := tm.waitFor(t, "the hostile log line, inert", 10*time.Second, contains("␛]52;c;UFdORUQtQ0xJUA==␇"))
	if !strings.Contains(screen, "␛]0;PWNED-TITLE␇") {
		t.Errorf("the retitle sequence is not shown as text:\n%s", screen)
	}
	tm.key(t, "Home")
	tm.waitFor(t, "the hostile machine name, inert", 5*time.Second, contains("␛]0;PWNED-TITLE"))
	time.Sleep(500 * time.Millisecond) // let anything the terminal was sent take effect
	if got := tm.display(t, "#{pane_title}"); got != title {
		t.Errorf("pane title changed: %q, was %q", got, title)
	}
	if got := tm.run(t, "list-buffers"); got != buffers {
		t.Errorf("paste buffers changed:\n%s\nwere:\n%s", got, buffers)
	}
	tm.key(t, "q")
	tm.waitFor(t, "exit", 5*time.Second, contains("EXITED"))

	// The control: the same bytes printed raw do retitle and write a buffer.
	tm.run(t, "new-window", "-d", "-n", "control", "sh", "-c", `printf '\033]0;PWNED-TITLE\007\033]52;c;UFdORUQtQ0xJUA==\007'; sleep 5`)
	deadline := time.Now().Add(3 * time.Second)
	for {
		titled := tm.run(t, "display-message", "-p", "-t", tm.session+":control", "#{pane_title}")
		if strings.Contains(titled, "PWNED-TITLE") && strings.Contains(tm.run(t, "list-buffers"), "PWNED-CLIP") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("control: raw bytes did not retitle (%q) or write a buffer: this tmux cannot show the attack", titled)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
