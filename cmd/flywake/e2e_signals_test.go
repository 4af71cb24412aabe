package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childPid is the first child of the shell running in the tmux pane: the
// flywake process.
func (tm *tmuxTerm) childPid(t *testing.T) int {
	t.Helper()
	shell := strings.TrimSpace(tm.display(t, "#{pane_pid}"))
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", shell, shell))
		if f := strings.Fields(string(b)); len(f) > 0 {
			pid, err := strconv.Atoi(f[0])
			if err == nil {
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no child of the pane's shell %s", shell)
	return 0
}

// running reports whether pid is alive (a zombie is not).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

func firstData(s string) bool {
	return strings.Contains(s, "sleepy-api") && regexp.MustCompile(`[●○] (started|stopped)`).MatchString(s)
}

// SIGHUP, SIGQUIT and SIGTERM end the dashboard promptly with the terminal
// restored: alternate screen off, cursor shown. (SIGHUP and SIGQUIT used to
// kill it with both left as the dashboard had them.)
func TestSignalsRestoreTheTerminal(t *testing.T) {
	tmuxPath := needTmux(t)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs /proc to find the process")
	}
	bin := buildFlywake(t)
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tm := newTmux(t, tmuxPath, 100, 30, fmt.Sprintf("%s --demo -a sleepy-api; echo EXITED $?; sleep 30", shellQuote(bin)))
			tm.waitFor(t, "first data", 20*time.Second, firstData)
			if got := tm.display(t, "#{alternate_on}"); got != "1" {
				t.Fatalf("the dashboard is not on the alternate screen (%q): the test cannot tell", got)
			}
			pid := tm.childPid(t)
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			tm.waitFor(t, "exit after "+sig.String(), 5*time.Second, contains("EXITED"))
			for flag, want := range map[string]string{"alternate_on": "0", "cursor_flag": "1"} {
				if got := tm.display(t, "#{"+flag+"}"); got != want {
					t.Errorf("after %s %s = %q, want %q", sig, flag, got, want)
				}
			}
		})
	}
}

// A dashboard whose terminal goes away ends, even when it gets no SIGHUP
// (here it is ignored, as under nohup): it kept running for half an hour.
func TestDashboardExitsWhenItsTerminalGoesAway(t *testing.T) {
	tmuxPath := needTmux(t)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs /proc to find the process")
	}
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 100, 30, fmt.Sprintf("trap '' HUP; %s --demo -a sleepy-api; sleep 30", shellQuote(bin)))
	tm.waitFor(t, "first data", 20*time.Second, firstData)
	pid := tm.childPid(t)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	tm.run(t, "kill-server")
	deadline := time.Now().Add(10 * time.Second)
	for running(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("flywake (pid %d) still runs 10 s after its terminal went away", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
