package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/longtest"
	"github.com/flywake/flywake/sources/race"
)

// TestMain lets the scripts exec `flywake`: the test binary itself, run
// through main as the built command would be. The end-to-end tests' own
// build is removed when the tests end.
func TestMain(m *testing.M) {
	testscript.Main(thenRemoveBuilt{m}, map[string]func(){"flywake": main})
}

type thenRemoveBuilt struct{ m *testing.M }

// Run runs up to eight parallel tests at once (outside -race): the scripts and the --demo
// commands beside them, which wait on platforms (a verdict's settle, a
// wake test's requests) about as much as they compute.
//
// No test writes into the user's state directory: XDG_STATE_HOME is a
// directory of the run's for every test, so one that only needs to be kept
// out of it (not to read its own) runs in parallel without t.Setenv.
func (r thenRemoveBuilt) Run() int {
	defer removeBuilt()
	state, err := os.MkdirTemp("", "flywake-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(state)
	os.Setenv("XDG_STATE_HOME", state)
	longtest.WaitParallel(8)
	return r.m.Run()
}

// TestScripts runs testdata/script/*.txtar: every command as the README
// shows it, exit codes included,
// against the embedded platform on 127.0.0.1.
//
//	go test ./cmd/flywake -run TestScripts/status   # one script
func TestScripts(t *testing.T) {
	t.Parallel()
	if race.Enabled {
		// Each script command is the test binary again, building a demo
		// platform under the detector: the most of this package's race
		// time, for code the tests beside these run in process, under it.
		t.Skip("the command scripts run without -race; their commands run under it in the tests beside them")
	}
	apps := make([]string, 0, len(flysim.DemoApps()))
	for _, p := range flysim.DemoApps() {
		apps = append(apps, p.Name)
	}
	slices.Sort(apps)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// Nothing leaks in from the machine running the tests.
			for _, k := range []string{"FLY_ACCESS_TOKEN", "FLY_API_TOKEN", "FLY_APP", "FLY_ORG", "FLY_FLAPS_BASE_URL", "FLY_API_BASE_URL", "NO_COLOR"} {
				env.Setenv(k, "")
			}
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/state")
			env.Setenv("FLYWAKE_DEMO_TOKEN", secretsCanary)
			env.Setenv("DEMO_APPS", strings.Join(apps, ","))
			env.Setenv("DEMO_APP_COUNT", strconv.Itoa(len(apps)))
			ids := slices.Clone(checklist.IDs)
			slices.Sort(ids)
			env.Setenv("CHECK_IDS", strings.Join(ids, ","))
			env.Setenv("SECRET", secretsCanary)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":       cmdExits,
			"json":        cmdJSON,
			"count":       cmdCount,
			"waitfor":     cmdWaitFor,
			"sim":         cmdSim,
			"listen":      cmdListen,
			"connections": cmdConnections,
		},
	})
}

// exits CODE PROGRAM ARGS... runs PROGRAM and checks its exit status (the
// builtin exec tells only zero from non-zero); stdout and stderr are kept
// for the next checks, as exec keeps them.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// json FILE PATH WANT checks one value of a JSON file: PATH is dot-separated
// keys and indices, "*" collects every element (sorted, comma-joined);
// WANT is a literal, or @PATH for another value of the same file.
func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: json FILE PATH WANT")
	}
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("%s is not JSON: %v", args[0], err)
	}
	got := jsonAt(ts, doc, args[1])
	want := args[2]
	if p, ok := strings.CutPrefix(want, "@"); ok {
		want = jsonAt(ts, doc, p)
	}
	if (got == want) == neg {
		ts.Fatalf("%s: %s is %q, want %s%q", args[0], args[1], got, map[bool]string{true: "not "}[neg], want)
	}
}

func jsonAt(ts *testscript.TestScript, v any, path string) string {
	vals := []any{v}
	for _, key := range strings.Split(path, ".") {
		var next []any
		for _, v := range vals {
			switch x := v.(type) {
			case map[string]any:
				if e, ok := x[key]; ok {
					next = append(next, e)
				}
			case []any:
				if key == "*" {
					next = append(next, x...)
				} else if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(x) {
					next = append(next, x[i])
				}
			}
		}
		if len(next) == 0 {
			ts.Fatalf("no %s in the JSON", path)
		}
		vals = next
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case string:
			out[i] = x
		case nil:
			out[i] = "null"
		default:
			b, _ := json.Marshal(x)
			out[i] = string(b)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// count N FILE REGEXP checks how many lines of FILE match.
func cmdCount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: count N FILE REGEXP")
	}
	re, err := regexp.Compile(args[2])
	if err != nil {
		ts.Fatalf("count: %v", err)
	}
	n := 0
	for _, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		if re.MatchString(line) {
			n++
		}
	}
	if strconv.Itoa(n) != args[0] {
		ts.Fatalf("%d lines of %s match %s, want %s", n, args[1], args[2], args[0])
	}
}

// waitfor FILE REGEXP [N] waits up to 60 s for N lines (default 1) of FILE
// to match: the output file of a command running in the background.
func cmdWaitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: waitfor FILE REGEXP [N]")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	if err != nil {
		ts.Fatalf("waitfor: %v", err)
	}
	n := 1
	if len(args) == 3 {
		if n, err = strconv.Atoi(args[2]); err != nil {
			ts.Fatalf("waitfor: %v", err)
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(ts.MkAbs(args[0]))
		if len(re.FindAll(b, -1)) >= n {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s never had %d lines matching %s; it holds:\n%s", args[0], n, args[1], b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
