package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/textfile"
)

// startSim runs flysim on 127.0.0.1 and points the real-platform path of
// every command at it, as a user's FLY_* settings would.
func startSim(t *testing.T) *flysim.Sim {
	t.Helper()
	sim, _ := startSimEnv(t)
	simtest.UseAsFly(t, sim, sim.Token())
	return sim
}

// startSimEnv is startSim with the platform in an environment of the
// test's own (runFlywakeEnv), not the process's.
func startSimEnv(t *testing.T) (*flysim.Sim, map[string]string) {
	t.Helper()
	sim := simtest.StartSim(t, flysim.Options{Seed: 3, Speed: 20, Token: "fo1_CANARY_hardening_0123456789abcdef", NoTraffic: true})
	return sim, simEnv(t, sim, sim.Token())
}

// A null machine, check and event in the listing crashed status and check
// with a raw Go panic (exit 2, "failures" for check). They now skip the
// entries, say so, and judge the rest.
func TestStatusAndCheckSurviveNullEntries(t *testing.T) {
	t.Parallel()
	sim, env := startSimEnv(t)
	sim.SetFault("list", flysim.Fault{NullEntries: true})
	out, errOut, code := runFlywakeEnv(t, env, nil, "status", "-a", flysim.DemoTuned)
	if code != 0 || !strings.Contains(out, "malformed entries skipped") || !strings.Contains(out, "started") {
		t.Errorf("status: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	out, errOut, code = runFlywakeEnv(t, env, nil, "check", "-a", flysim.DemoTuned, "--dir", t.TempDir(), "--format", "json")
	if code == 2 && strings.Contains(errOut, "panic") || !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Errorf("check: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// check against a project file it cannot read — a FIFO named fly.toml or
// entrypoint.sh (which hung it past its own 3-minute limit), a 2.7 MB
// entrypoint full of migrations (which passed) — ends promptly, calls the
// affected items unknown with the reason and could_not_read, and exits 3:
// it could not check (it used to exit 0, passing CI).
func TestCheckNeverPassesWhatItCouldNotRead(t *testing.T) {
	t.Parallel()
	dockerfile := "FROM python:3.12-slim\nENTRYPOINT [\"/app/entrypoint.sh\"]\n"
	tests := []struct {
		name  string
		files map[string]string
		dir   string
		item  string
		want  string
	}{
		{"FIFO fly.toml", map[string]string{"fly.toml": "FIFO", "Dockerfile": dockerfile, "app/entrypoint.sh": "exec granian app\n"}, "", "sleep_wake", "named pipe"},
		{"FIFO entrypoint", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": "FIFO"}, "", "release_work", "named pipe"},
		{"2.7 MB entrypoint", map[string]string{"Dockerfile": dockerfile, "app/entrypoint.sh": strings.Repeat("python manage.py migrate\n", 115_000)}, "", "release_work", "over the 1.0 MB read limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := tt.dir
			if dir == "" {
				dir = writeProject(t, tt.files)
			}
			start := time.Now()
			out, errOut, code := runFlywake(t, nil, "check", "--demo", "-a", "snappy-api", "--dir", dir, "--format", "json")
			// The hang this guards against ran into check's own 3-minute
			// limit; a read ends at textfile.Timeout. The bound sits between
			// them, so a loaded runner under -race (1m47s seen) does not
			// read as the hang.
			if took := time.Since(start); took > 150*time.Second {
				t.Errorf("check took %s, as long as the hang it once had", took)
			}
			var rep struct {
				Items []struct {
					ID           string `json:"id"`
					Status       string `json:"status"`
					CouldNotRead bool   `json:"could_not_read"`
					Evidence     []struct {
						Text string `json:"text"`
					} `json:"evidence"`
				} `json:"items"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("exit %d, stdout not JSON: %v\n%s\n%s", code, err, out, errOut)
			}
			if code != checklist.ExitCannotCheck {
				t.Errorf("exit %d, want %d (could not check)", code, checklist.ExitCannotCheck)
			}
			for _, it := range rep.Items {
				if it.ID != tt.item {
					continue
				}
				var texts []string
				for _, e := range it.Evidence {
					texts = append(texts, e.Text)
				}
				if it.Status != "unknown" || !it.CouldNotRead || !strings.Contains(strings.Join(texts, " | "), tt.want) {
					t.Errorf("%s: %s (could_not_read %v), want unknown saying %q: %v", it.ID, it.Status, it.CouldNotRead, tt.want, texts)
				}
				return
			}
			t.Fatalf("no %s item in %s", tt.item, out)
		})
	}
}

// A --dir check cannot read — missing, a file, not listable — is refused
// with exit 3 and the reason, before the platform is asked anything: a CI
// step pointed at the wrong directory fails instead of passing, and its
// report says why (could_not_read).
func TestCheckRefusesADirItCannotRead(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fly.toml")
	if err := os.WriteFile(file, []byte("app = 'x'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, dir, want string }{
		{"missing", "/nonexistent/flywake-project", "cannot read --dir /nonexistent/flywake-project: project directory does not exist; nothing was checked"},
		{"a file", file, "cannot read --dir " + file + ": not a directory"},
	}
	if os.Geteuid() != 0 { // root reads a mode-000 directory anyway
		locked := filepath.Join(t.TempDir(), "locked")
		if err := os.Mkdir(locked, 0o000); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
		tests = append(tests, struct{ name, dir, want string }{"not readable", locked, "permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runFlywake(t, nil, "check", "--demo", "-a", "snappy-api", "--dir", tt.dir, "--format", "json")
			if code != checklist.ExitCannotCheck || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, checklist.ExitCannotCheck, tt.want)
			}
			var rep checklist.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("stdout is not the report: %v\n%s", err, out)
			}
			if c := rep.CouldNotCheck; rep.Exit != checklist.ExitCannotCheck || c == nil || c.Cause != "could_not_read" || len(c.Items) != len(checklist.IDs) {
				t.Errorf("exit_code %d, could_not_check %+v", rep.Exit, c)
			}
			for _, it := range rep.Items {
				if it.Status == checklist.Pass {
					t.Errorf("%s passes with the project unread", it.ID)
				}
			}
		})
	}
}

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if body == "FIFO" {
			err = syscall.Mkfifo(path, 0o644)
		} else {
			err = os.WriteFile(path, []byte(body), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// /dev/null is a character device, not a terminal: the wake test does not
// prompt on it (and then refuse); it refuses at once, naming --yes.
func TestWakeDoesNotPromptOnDevNull(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Fatal("isTerminal(/dev/null) = true")
	}
	_, errOut, code := runFlywake(t, null, "wake", "--demo", "-a", "snappy-api")
	if code == 0 || strings.Contains(errOut, "Continue?") || !strings.Contains(errOut, "pass --yes") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// A key file that is a FIFO held the dashboard before its first frame,
// waiting for a writer: it is refused at once, named, and nothing starts.
func TestDashboardRefusesAFIFOKeyFile(t *testing.T) {
	config := t.TempDir()
	if err := os.MkdirAll(filepath.Join(config, "flywake"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(config, "flywake", "keys.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", config)
	done := make(chan struct{})
	var errOut string
	var code int
	go func() {
		defer close(done)
		_, errOut, code = runFlywake(t, nil, "--demo", "-a", "sleepy-api")
	}()
	select {
	case <-done:
	case <-time.After(textfile.Timeout + 5*time.Second):
		t.Fatalf("the dashboard still waits on the FIFO key file after %s", textfile.Timeout+5*time.Second)
	}
	for _, want := range []string{"reading the key file " + path + ": is a named pipe (FIFO)", "nothing was started"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}

// A command that could not read an answer makes no second attempt at it, so
// its message promises none (the error said "…; retrying" as the dashboard
// exited, from text meant for the dashboard, whose header says when it
// retries).
func TestHeadlessCommandsPromiseNoRetry(t *testing.T) {
	sim := startSim(t)
	sim.SetFault("list", flysim.Fault{Malformed: true})
	dir := writeProject(t, map[string]string{"fly.toml": "app = 'x'\n"})
	for _, args := range [][]string{
		{"status", "-a", flysim.DemoScaleToZero},
		{"status", "-a", flysim.DemoScaleToZero, "--json"},
		{"check", "-a", flysim.DemoScaleToZero, "--dir", dir},
	} {
		out, errOut, code := runFlywake(t, nil, args...)
		if code == 0 || !strings.Contains(out+errOut, "the API answered something that is not JSON") {
			t.Errorf("%v: exit %d, want the unreadable answer named; stdout:\n%s\nstderr:\n%s", args, code, out, errOut)
		}
		if strings.Contains(out+errOut, "retrying") {
			t.Errorf("%v promises a retry it does not make:\n%s%s", args, out, errOut)
		}
	}
}
