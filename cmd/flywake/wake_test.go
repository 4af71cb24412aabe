package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/waketest"
)

// runFlywake runs flywake as main would, with args, and returns stdout,
// stderr and the exit code.
func runFlywake(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errOut bytes.Buffer
	code := run(args, stdin, &out, &errOut)
	return out.String(), errOut.String(), code
}

// runFlywakeEnv is runFlywake reading env as the whole environment
// (testEnv, simEnv), not the process's.
func runFlywakeEnv(t *testing.T, env map[string]string, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errOut bytes.Buffer
	code := runEnv(lookup(env), args, stdin, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestWakeRefusals(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	tests := []struct {
		name    string
		stdin   io.Reader
		args    []string
		wantErr string
	}{
		{"readonly", nil, []string{"wake", "--demo", "--readonly", "--yes"}, "read-only"},
		{"forced instance", nil, []string{"wake", "--demo", "--yes", "--force-instance", "148e"}, "bypasses the proxy's wake logic"},
		{"bad mode", nil, []string{"wake", "--demo", "--yes", "--mode", "restart"}, "mode must be"},
		{"no terminal, no --yes", strings.NewReader("y\n"), []string{"wake", "--demo", "--speed", "50", "-a", "snappy-api"}, "pass --yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runFlywake(t, tt.stdin, tt.args...)
			if code != 1 || !strings.Contains(errOut, tt.wantErr) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, tt.wantErr)
			}
		})
	}
}

func TestWakeConfirmation(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	defer func(f func(io.Reader) bool) { isTerminal = f }(isTerminal)
	isTerminal = func(io.Reader) bool { return true }
	_, errOut, code := runFlywake(t, strings.NewReader("n\n"), "wake", "--demo", "--speed", "50", "-a", "snappy-api", "--mode", "stop")
	if code != 1 || !strings.Contains(errOut, "not confirmed") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// The question names the app and the machines: all but the one
	// min_machines_running keeps in snappy-api's primary region.
	if !strings.Contains(errOut, "This will stop 5 machines of snappy-api (") {
		t.Errorf("confirmation %q does not name the app and machines", errOut)
	}
}

func TestWakeJSON(t *testing.T) {
	t.Parallel()
	out, errOut, code := runFlywake(t, nil, "wake", "--demo", "--speed", "30", "--seed", "3", "-a", "snappy-api",
		"--mode", "suspend", "--yes", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		App   string  `json:"app"`
		Speed float64 `json:"speed"`
		Runs  []struct {
			Mode     string `json:"mode"`
			OK       int    `json:"ok"`
			Requests int    `json:"requests"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not only JSON: %v\n%s", err, out)
	}
	if doc.App != "snappy-api" || doc.Speed != 30 || len(doc.Runs) != 1 || doc.Runs[0].Mode != "suspend" || doc.Runs[0].OK != doc.Runs[0].Requests {
		t.Errorf("report %+v", doc)
	}
	if !strings.Contains(errOut, "[suspend] sending 40 requests") {
		t.Errorf("progress missing from stderr: %s", errOut)
	}
	// Saved under the state dir (the run's, script_test.go), as stderr says.
	_, path, _ := strings.Cut(errOut, "\nsaved ")
	path, _, _ = strings.Cut(path, "\n")
	want := filepath.Join(os.Getenv("XDG_STATE_HOME"), "flywake", "wake")
	if filepath.Dir(path) != want || !strings.HasPrefix(filepath.Base(path), "snappy-api-") {
		t.Fatalf("saved at %q, want a snappy-api file in %s; stderr:\n%s", path, want, errOut)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved), "flysim_") {
		t.Error("the saved result holds the demo token")
	}
}

// The plan names each target's region (it used to end in a padded, empty
// column) and no line ends in blanks.
func TestWakePlanText(t *testing.T) {
	plan := &waketest.Plan{
		Setup:    waketest.Setup{App: "sleepy-api", Mode: waketest.ModeStop},
		Requests: 40, URL: "http://127.0.0.1:1", Path: "/api/health/",
		Targets: []waketest.Target{
			{ID: "34e7a7551b57e2", Region: "ams", State: "stopped", Blockers: []string{"swap (2048 MB)"}},
			{ID: "3a1b98f9d502e8", Region: "sin", State: "started"},
			{ID: "43e8c9d1db1b7a", State: "suspended"},
		},
		Kept: []string{"b6cfb876f1a383"},
	}
	var out bytes.Buffer
	writePlan(&out, plan)
	want := `wake test of sleepy-api (stop): 40 requests to http://127.0.0.1:1/api/health/
  34e7a7551b57e2  ams  stopped  suspend blocked by swap (2048 MB)
  3a1b98f9d502e8  sin  started
  43e8c9d1db1b7a  -    suspended
  kept running (min_machines_running): b6cfb876f1a383
`
	if got := out.String(); got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
}
