package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/ui/app"
)

// TestDashboardInTmux drives the real binary, `flywake --demo`, in a detached
// tmux terminal of 120×36: every pane, the filter, a drill-down, help, the
// tiles at 160×48 and the zoom key, an app switch to the crashing app, the
// checklist, and quit — then checks the process exited promptly and left the
// terminal as it found it.
func TestDashboardInTmux(t *testing.T) {
	t.Parallel()
	tmuxPath := needTmux(t)
	started := time.Now()
	bin := buildFlywake(t)
	tm := newTmux(t, tmuxPath, 120, 36,
		// The shell outlives flywake, so the screen after exit can be read.
		fmt.Sprintf("%s --demo -a sleepy-api; echo EXITED $?; sleep 5", shellQuote(bin)))

	screen := tm.waitFor(t, "first data", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "sleepy-api") && regexp.MustCompile(`[●○] (started|stopped)`).MatchString(s)
	})
	if !strings.Contains(screen, focusTitle(0)) || strings.Contains(screen, "Bytecode") {
		t.Fatalf("120×36 should show the machines and one other pane, tab cycling:\n%s", screen)
	}

	// tab cycles through every pane and back.
	for i := range tileTitles {
		title := focusTitle((i + 1) % len(tileTitles))
		tm.key(t, "Tab")
		tm.waitFor(t, "pane "+title, 3*time.Second, contains(title))
	}

	// / filters the rows: only stopped machines remain; esc clears it.
	tm.key(t, "/")
	for _, r := range "stopped" {
		tm.literal(t, string(r))
	}
	screen = tm.waitFor(t, "filter typed", 3*time.Second, contains("┃/stopped"))
	states := rowStates(screen)
	if len(states) == 0 {
		t.Fatalf("filter 'stopped' left no rows:\n%s", screen)
	}
	for _, st := range states {
		if st != "stopped" {
			t.Fatalf("filter 'stopped' left a %q row:\n%s", st, screen)
		}
	}
	tm.key(t, "Escape")
	tm.waitFor(t, "filter cleared", 3*time.Second, func(s string) bool { return !strings.Contains(s, "┃/stopped") })

	// enter drills into the machine under the cursor; the event list says the
	// platform keeps only the newest few. Scroll if the sentence is below:
	// past every line of the longest drill-down (60 and growing with the
	// demo's logs), however many keys the loaded program has yet to read.
	tm.key(t, "Enter")
	tm.waitFor(t, "drill-down", 3*time.Second, contains("esc back"))
	found := false
	for i := 0; i < 400 && !found; i++ {
		found = strings.Contains(tm.capture(t), "newest")
		if !found {
			tm.key(t, "Down")
		}
	}
	if !found {
		t.Fatalf("drill-down never showed the events sentence:\n%s", tm.capture(t))
	}
	tm.key(t, "Escape")
	tm.waitFor(t, "back from drill-down", 3*time.Second, contains(focusTitle(0)))

	// At 160×48 every pane is on screen; f gives the focused one the whole
	// body and f again brings the others back.
	tm.run(t, "resize-window", "-t", tm.session, "-x", "160", "-y", "48")
	allTiles := func(s string) bool {
		for _, title := range tileTitles {
			if !strings.Contains(s, title) {
				return false
			}
		}
		return !strings.Contains(s, focusTitle(0))
	}
	tm.waitFor(t, "tiles at 160×48", 3*time.Second, allTiles)
	tm.key(t, "Tab")
	tm.key(t, "f")
	tm.waitFor(t, "cold starts zoomed", 3*time.Second, func(s string) bool {
		return strings.Contains(s, focusTitle(1)) && !strings.Contains(s, "STATE") && !strings.Contains(s, "Bytecode")
	})
	tm.key(t, "f")
	tm.waitFor(t, "zoom undone", 3*time.Second, allTiles)
	tm.key(t, "BTab")
	tm.run(t, "resize-window", "-t", tm.session, "-x", "120", "-y", "36")
	tm.waitFor(t, "back to 120×36", 3*time.Second, contains(focusTitle(0)))

	// ? opens help, ? again closes it.
	tm.key(t, "?")
	tm.waitFor(t, "help", 3*time.Second, contains("Keys · ? or esc closes"))
	tm.key(t, "?")
	tm.waitFor(t, "help closed", 3*time.Second, func(s string) bool {
		return !strings.Contains(s, "Keys · ? or esc closes") && strings.Contains(s, focusTitle(0))
	})

	// : switches app; the crashing app's release is flagged.
	tm.key(t, ":")
	tm.waitFor(t, "the apps listed", 5*time.Second, contains("backlog-web  crashy-api")) // a name typed before the list is tried as typed
	for _, r := range "crashy-api" {
		tm.literal(t, string(r))
	}
	tm.waitFor(t, "switcher typed", 3*time.Second, contains(":crashy-api"))
	tm.key(t, "Enter")
	tm.waitFor(t, "crash verdict", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "demo-org/crashy-api") &&
			(strings.Contains(s, "crash-loop") || strings.Contains(s, "gave up") || strings.Contains(s, "crashed"))
	})

	// c opens the pre-deploy checklist, esc closes it.
	tm.key(t, "c")
	tm.waitFor(t, "checklist", 5*time.Second, contains("Pre-deploy checklist"))
	tm.key(t, "Escape")
	tm.waitFor(t, "checklist closed", 3*time.Second, func(s string) bool { return !strings.Contains(s, "Pre-deploy checklist") })

	// q exits within ~3 s and the shell's normal screen is back.
	quitAt := time.Now()
	tm.key(t, "q")
	screen = tm.waitFor(t, "exit", 3*time.Second, contains("EXITED"))
	t.Logf("q → process exited in %v", time.Since(quitAt).Round(10*time.Millisecond))
	if !strings.Contains(screen, "EXITED 0") {
		t.Errorf("flywake did not exit 0:\n%s", screen)
	}
	for _, leftover := range []string{"sleepy-api", "crashy-api", "Machines", "? help", "┃", "│"} {
		if strings.Contains(screen, leftover) {
			t.Errorf("the normal screen shows %q after exit (alternate screen not restored):\n%s", leftover, screen)
		}
	}
	for flag, want := range map[string]string{"alternate_on": "0", "cursor_flag": "1", "mouse_any_flag": "0"} {
		if got := tm.display(t, "#{"+flag+"}"); got != want {
			t.Errorf("after exit %s = %q, want %q", flag, got, want)
		}
	}
	t.Logf("end-to-end run took %v", time.Since(started).Round(100*time.Millisecond))
}

// built is the binary the end-to-end tests run, built once per test
// process (each build took 1.5 s and more; nine tests asked for one) and
// removed when the tests end (TestMain).
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildFlywake builds the binary from the module root, two levels up, the
// first time a test asks, and returns its path.
func buildFlywake(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "flywake-e2e-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "flywake")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/flywake")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// removeBuilt removes what buildFlywake built.
func removeBuilt() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}

// tmuxTerm is one tmux server on its own socket with one session.
type tmuxTerm struct {
	path, socket, session string
}

// tileTitles are the dashboard's tiles in tab order, from its registry.
var tileTitles = app.TileTitles()

// focusTitle is tile i's title when it is focused and shown alone:
// "Cold starts · 2/N", N the registry's count of tiles.
func focusTitle(i int) string {
	return fmt.Sprintf("%s · %d/%d", tileTitles[i], i+1, len(tileTitles))
}

// needTmux is tmux's path for an end-to-end test, which it skips under
// -short or where tmux is not installed — except under CI=true, where a
// missing tmux fails the test: CI must not pass what it did not run
// (.ci/run installs tmux). The end-to-end tests run in parallel: each has
// its own tmux server (newTmux) and its own flywake, and most of their time
// is spent waiting for a screen.
func needTmux(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: skipped under -short")
	}
	path, err := exec.LookPath("tmux")
	switch {
	case err != nil && os.Getenv("CI") == "true":
		t.Fatal("end-to-end: tmux is not installed, and CI=true must run this test (.ci/run installs it)")
	case err != nil:
		t.Skip("end-to-end: tmux is not installed")
	}
	return path
}

func newTmux(t *testing.T, path string, w, h int, shellCmd string) *tmuxTerm {
	t.Helper()
	tm := &tmuxTerm{path: path, socket: fmt.Sprintf("flywake-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), session: "e2e"}
	t.Cleanup(func() {
		// Every process the pane started is killed before its terminal goes:
		// a flywake that failed its test must not live on without one.
		pids := tm.paneProcesses()
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		_ = exec.Command(tm.path, "-L", tm.socket, "kill-server").Run()
		for _, pid := range pids {
			for deadline := time.Now().Add(5 * time.Second); running(pid) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
		}
	})
	// -f /dev/null: no user config; NO_COLOR unset so the colour path runs;
	// an empty config directory, so no key file of the machine's applies.
	tm.run(t, "-f", "/dev/null", "new-session", "-d", "-s", tm.session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h),
		"-e", "NO_COLOR=", "-e", "XDG_CONFIG_HOME="+t.TempDir(), "sh", "-c", shellCmd)
	return tm
}

// paneProcesses are the pane's shell and every process under it, children
// first (read from /proc; none when the session has already ended).
func (tm *tmuxTerm) paneProcesses() []int {
	out, err := exec.Command(tm.path, "-L", tm.socket, "list-panes", "-a", "-F", "#{pane_pid}").Output()
	if err != nil {
		return nil
	}
	var pids []int
	var walk func(pid int)
	walk = func(pid int) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		for _, f := range strings.Fields(string(b)) {
			if child, err := strconv.Atoi(f); err == nil {
				walk(child)
			}
		}
		pids = append(pids, pid)
	}
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			walk(pid)
		}
	}
	return pids
}

func (tm *tmuxTerm) run(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(tm.path, append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// key sends one key by its tmux name, then lets the program draw.
func (tm *tmuxTerm) key(t *testing.T, name string) {
	t.Helper()
	tm.run(t, "send-keys", "-t", tm.session, name)
	time.Sleep(60 * time.Millisecond)
}

// literal types one character as text, not as a key name.
func (tm *tmuxTerm) literal(t *testing.T, s string) {
	t.Helper()
	tm.run(t, "send-keys", "-t", tm.session, "-l", s)
	time.Sleep(40 * time.Millisecond)
}

func (tm *tmuxTerm) capture(t *testing.T) string {
	t.Helper()
	return tm.run(t, "capture-pane", "-p", "-t", tm.session)
}

func (tm *tmuxTerm) display(t *testing.T, format string) string {
	t.Helper()
	return strings.TrimSpace(tm.run(t, "display-message", "-p", "-t", tm.session, format))
}

// waitFor polls the screen until ok holds or d passes.
func (tm *tmuxTerm) waitFor(t *testing.T, what string, d time.Duration, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(d)
	var s string
	for {
		s = tm.capture(t)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s; screen:\n%s", d, what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func contains(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

// rowStates are the state words of the table rows on screen: a row starts,
// after the pane border and the cursor mark, with a state glyph and word.
var stateCell = regexp.MustCompile(`^[┃│][ ›▌>]?([●○◎▲▼◔◇✗◌†·?]) ([a-z]+) `)

func rowStates(screen string) []string {
	var out []string
	inMachines := false
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.Contains(l, "Machines"):
			inMachines = true
		case strings.HasPrefix(l, "╰") || strings.HasPrefix(l, "┗"):
			inMachines = false // the machines box ends: another pane may follow
		}
		if m := stateCell.FindStringSubmatch(l); m != nil && inMachines {
			out = append(out, m[2])
		}
	}
	return out
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
