package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// SIGINT, SIGHUP, SIGQUIT and SIGTERM end the dashboard promptly with the terminal
// restored: alternate screen off, cursor shown (SIGHUP and SIGQUIT used to
// kill it with both left as the dashboard had them), and exit as a process
// ended by the signal does, 128+signal (it used to exit 0, as from q).
func TestSignalsRestoreTheTerminal(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs /proc to find the process")
	}
	bin := buildFlywake(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			tm := newTmux(t, tmuxPath, 100, 30, fmt.Sprintf("%s --demo -a sleepy-api; echo EXITED $?; sleep 30", shellQuote(bin)))
			tm.waitFor(t, "first data", 20*time.Second, firstData)
			if got := tm.display(t, "#{alternate_on}"); got != "1" {
				t.Fatalf("the dashboard is not on the alternate screen (%q): the test cannot tell", got)
			}
			pid := tm.childPid(t)
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			screen := tm.waitFor(t, "exit after "+sig.String(), 5*time.Second, contains("EXITED"))
			if want := fmt.Sprintf("EXITED %d", 128+int(sig)); !strings.Contains(screen, want) {
				t.Errorf("after %s the screen lacks %q:\n%s", sig, want, screen)
			}
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
	t.Parallel()
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

// A SIGTSTP from outside (kill -TSTP, a job-control shell's suspend), or
// ctrl+z typed in the dashboard, hands the terminal back — normal screen, cooked mode — and `fg` brings the
// dashboard back whole: the alternate screen redrawn, keys read one by one
// again (q quits), the mouse on. It used to come back in cooked mode, deaf to q.
func TestSuspendFromOutsideAndForeground(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs /proc to find the process")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash for job control")
	}
	bin := buildFlywake(t)
	// An interactive shell: job control, so the stop takes and fg resumes.
	tm := newTmux(t, tmuxPath, 100, 30, "PS1='$ ' exec "+shellQuote(bash)+" --norc --noprofile -i")
	tm.waitFor(t, "the prompt", 5*time.Second, contains("$"))
	tm.literal(t, shellQuote(bin)+" --demo -a sleepy-api")
	tm.key(t, "Enter")
	tm.waitFor(t, "first data", 20*time.Second, firstData)
	pid := tm.childPid(t)
	// Twice: the second stop must take as the first did. The second is
	// ctrl+z typed in the dashboard, which raw mode delivers as a key.
	for round := 1; round <= 2; round++ {
		if round == 1 {
			if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
				t.Fatal(err)
			}
		} else {
			tm.key(t, "C-z")
		}
		tm.waitFor(t, fmt.Sprintf("stop %d: the shell's screen", round), 5*time.Second, func(s string) bool {
			return strings.Contains(s, "Stopped") && !firstData(s)
		})
		if got := tm.display(t, "#{alternate_on}"); got != "0" {
			t.Errorf("stop %d: the alternate screen is still on (%q)", round, got)
		}
		tm.literal(t, "fg")
		tm.key(t, "Enter")
		tm.waitFor(t, fmt.Sprintf("resume %d: the dashboard redrawn", round), 10*time.Second, firstData)
		// The mouse comes back after the redraw (a command of the model's
		// on tea.ResumeMsg): wait for both.
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			alt, mouse := tm.display(t, "#{alternate_on}"), tm.display(t, "#{mouse_button_flag}")
			if alt == "1" && mouse == "1" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("resume %d: alternate_on = %q, mouse_button_flag = %q 5 s after the redraw, want both 1", round, alt, mouse)
			}
		}
		// One key, read at once: tab moves the focus (cooked mode would
		// hold it for a newline and echo it).
		tm.key(t, "Tab")
		tm.waitFor(t, fmt.Sprintf("resume %d: tab read as a key", round), 5*time.Second, contains("Cold starts · 2/"))
		tm.key(t, "BTab")
		tm.waitFor(t, fmt.Sprintf("resume %d: back to the machines", round), 5*time.Second, contains("Machines · 1/"))
	}
	tm.key(t, "q")
	for deadline := time.Now().Add(5 * time.Second); running(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("flywake (pid %d) still runs 5 s after q", pid)
		}
	}
	tm.literal(t, "echo EXITED $?")
	tm.key(t, "Enter")
	screen := tm.waitFor(t, "exit status", 5*time.Second, contains("EXITED "))
	if !strings.Contains(screen, "EXITED 0") {
		t.Errorf("q after a suspend did not exit 0:\n%s", screen)
	}
	for flag, want := range map[string]string{"alternate_on": "0", "cursor_flag": "1", "mouse_any_flag": "0"} {
		if got := tm.display(t, "#{"+flag+"}"); got != want {
			t.Errorf("after exit %s = %q, want %q", flag, got, want)
		}
	}
}

// Without a job-control shell (here the pane's sh -c, the session's first
// process group) nothing could continue a stopped dashboard (tmux does, but
// a terminal emulator running the dashboard itself does not), and the
// kernel discards a SIGTSTP: the dashboard goes on as it was, never handing
// the terminal back (what it writes is recorded to show it), keys and all.
func TestSuspendWithoutJobControlLeavesTheDashboardRunning(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("needs /proc to find the process")
	}
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 100, 30, fmt.Sprintf("%s --demo -a sleepy-api; echo EXITED $?; sleep 30", shellQuote(bin)))
	tm.waitFor(t, "first data", 20*time.Second, firstData)
	written := filepath.Join(t.TempDir(), "written")
	tm.run(t, "pipe-pane", "-t", tm.session, "-o", "cat >> "+shellQuote(written))
	pid := tm.childPid(t)
	if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	tm.key(t, "Tab")
	tm.waitFor(t, "tab read as a key", 5*time.Second, contains("Cold starts · 2/"))
	time.Sleep(300 * time.Millisecond) // let what the dashboard wrote reach the file
	b, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Fatal("nothing recorded: the test cannot tell")
	}
	if strings.Contains(string(b), "\x1b[?1049l") {
		t.Errorf("the dashboard left the alternate screen on a SIGTSTP no shell could continue (%d bytes recorded)", len(b))
	}
	tm.key(t, "q")
	tm.waitFor(t, "exit", 5*time.Second, contains("EXITED 0"))
}
