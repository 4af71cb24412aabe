package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
)

// startSim runs flysim on 127.0.0.1 and points the real-platform path of
// every command at it, as a user's FLY_* settings would.
func startSim(t *testing.T) *flysim.Sim {
	t.Helper()
	sim := simtest.StartSim(t, flysim.Options{Seed: 3, Speed: 20, Token: "fo1_CANARY_hardening_0123456789abcdef", NoTraffic: true})
	simtest.UseAsFly(t, sim, sim.Token())
	return sim
}

// A null machine, check and event in the listing crashed status and check
// with a raw Go panic (exit 2, "failures" for check). They now skip the
// entries, say so, and judge the rest.
func TestStatusAndCheckSurviveNullEntries(t *testing.T) {
	sim := startSim(t)
	sim.SetFault("list", flysim.Fault{NullEntries: true})
	out, errOut, code := runFlywake(t, nil, "status", "-a", flysim.DemoTuned)
	if code != 0 || !strings.Contains(out, "malformed entries skipped") || !strings.Contains(out, "started") {
		t.Errorf("status: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	out, errOut, code = runFlywake(t, nil, "check", "-a", flysim.DemoTuned, "--dir", t.TempDir(), "--format", "json")
	if code == 2 && strings.Contains(errOut, "panic") || !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Errorf("check: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// check against a project it cannot read — a FIFO named fly.toml or
// entrypoint.sh (which hung it past its own 3-minute limit), a 2.7 MB
// entrypoint full of migrations (which passed), a --dir that does not exist —
// ends promptly and calls the affected items unknown, with the reason.
func TestCheckNeverPassesWhatItCouldNotRead(t *testing.T) {
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
		{"missing --dir", nil, "/nonexistent/flywake-project", "release_work", "project directory does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = writeProject(t, tt.files)
			}
			start := time.Now()
			out, errOut, code := runFlywake(t, nil, "check", "--demo", "-a", "snappy-api", "--dir", dir, "--format", "json")
			if took := time.Since(start); took > time.Minute {
				t.Errorf("check took %s", took)
			}
			var rep struct {
				Items []struct {
					ID       string `json:"id"`
					Status   string `json:"status"`
					Evidence []struct {
						Text string `json:"text"`
					} `json:"evidence"`
				} `json:"items"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("exit %d, stdout not JSON: %v\n%s\n%s", code, err, out, errOut)
			}
			for _, it := range rep.Items {
				if it.ID != tt.item {
					continue
				}
				var texts []string
				for _, e := range it.Evidence {
					texts = append(texts, e.Text)
				}
				if it.Status != "unknown" || !strings.Contains(strings.Join(texts, " | "), tt.want) {
					t.Errorf("%s: %s, want unknown saying %q: %v", it.ID, it.Status, tt.want, texts)
				}
				return
			}
			t.Fatalf("no %s item in %s", tt.item, out)
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
