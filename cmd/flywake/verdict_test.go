package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/flysim"
)

// Usage errors exit 1, before any platform is touched; a refused deploy
// names what to do instead.
func TestVerdictAndDeployUsage(t *testing.T) {
	isolateEnv(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"verdict", "--demo", "--format", "xml"}, 1, "--format must be text, markdown or json"},
		{[]string{"verdict", "--demo", "--timeout", "0s"}, 1, "--timeout must be positive"},
		{[]string{"verdict", "--demo", "--settle", "5m"}, 1, "leaves no room for a second look"},
		{[]string{"verdict", "--demo", "--no-such-flag"}, 1, "unknown flag"},
		{[]string{"verdict", "--demo-release", "crashing", "-a", "x"}, 1, "add --demo"},
		{[]string{"verdict", "--demo", "--demo-release", "broken"}, 1, "healthy or crashing"},
		{[]string{"verdict", "--demo", "--readonly", "--demo-release", "crashing"}, 1, "--readonly"},
		{[]string{"deploy", "-a", "x"}, 1, "needs --demo-release"},
		{[]string{"deploy", "--demo", "--demo-release", "crashing"}, 1, "flywake verdict --demo --demo-release crashing"},
		{[]string{"deploy", "--readonly", "--demo-release", "crashing", "-a", "x"}, 1, "--readonly"},
	} {
		out, errOut, code := runFlywake(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want %d with %q", tc.args, code, errOut, out, tc.code, tc.want)
		}
	}
}

// Against a Machines API that is not on this computer, deploy refuses before
// it sends anything.
func TestDeployRefusesARealPlatform(t *testing.T) {
	isolateEnv(t)
	t.Setenv("FLY_API_TOKEN", "fo1_not_a_real_token")
	t.Setenv("FLY_ORG", "personal") // no organization lookup
	t.Setenv("FLY_FLAPS_BASE_URL", "https://api.machines.dev")
	_, errOut, code := runFlywake(t, nil, "deploy", "--demo-release", "crashing", "--yes", "-a", "my-app")
	if code != 1 || !strings.Contains(errOut, "only rolls out to the embedded platform") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// The presenter's two terminals, as one test: `flywake sim` runs the
// platform (here, in the test), `flywake deploy` rolls the crashing release
// out to it through FLY_FLAPS_BASE_URL — refusing without a terminal to
// confirm on, unless --yes — and `flywake verdict` judges it: exit 2, the
// JSON document saying why, its first crash's traceback included.
func TestDeployThenVerdictAgainstTheSim(t *testing.T) {
	t.Parallel()
	sim, env := startSimEnv(t)
	_, errOut, code := runFlywakeEnv(t, env, nil, "deploy", "--demo-release", "crashing", "-a", flysim.DemoTuned)
	if code != 1 || !strings.Contains(errOut, "no terminal to confirm on — pass --yes") {
		t.Fatalf("deploy without --yes and no terminal: exit %d %s", code, errOut)
	}
	out, errOut, code := runFlywakeEnv(t, env, nil, "deploy", "--demo-release", "crashing", "--yes", "-a", flysim.DemoTuned)
	if code != 0 || !strings.Contains(out, "rolled out release v58") || !strings.Contains(errOut, "v57 → v58, started") {
		t.Fatalf("deploy: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	out, errOut, code = runFlywakeEnv(t, env, nil, "verdict", "-a", flysim.DemoTuned, "--format", "json")
	var doc struct {
		Verdict  string `json:"verdict"`
		ExitCode int    `json:"exit_code"`
		Release  string `json:"release"`
		Reason   string `json:"reason"`
		Machines []struct {
			Status    string `json:"status"`
			ExitCodes []int  `json:"exit_codes"`
		} `json:"machines"`
		Logs *struct {
			Lines []string `json:"lines"`
		} `json:"first_crash_logs"`
		Calls int `json:"api_calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not the JSON document (%v):\n%s\nstderr %s", err, out, errOut)
	}
	// The sim runs 20 times faster than the wall: by the verdict the
	// platform may already have given up restarting the machine.
	crashed := doc.Reason == diagnose.CrashLoopReason || strings.Contains(doc.Reason, "gave up restarting")
	if code != 2 || doc.Verdict != "failed" || doc.ExitCode != 2 || doc.Release != "58" || !crashed {
		t.Fatalf("verdict: exit %d %+v", code, doc)
	}
	if doc.Logs == nil || !strings.Contains(strings.Join(doc.Logs.Lines, "\n"), "KeyError") || doc.Calls == 0 {
		t.Errorf("logs %+v calls %d", doc.Logs, doc.Calls)
	}
	assertNoSecret(t, "verdict stdout", out)
	if strings.Contains(out+errOut, sim.Token()) {
		t.Error("the token reached the output")
	}
}

// `verdict --demo --demo-release crashing` deploys and judges in one
// command on its private platform; the text says what fixing it takes.
func TestVerdictDemoRelease(t *testing.T) {
	t.Parallel()
	out, errOut, code := runFlywakeEnv(t, testEnv(t), nil, "verdict", "--demo", "--speed", "10", "-a", flysim.DemoTuned, "--demo-release", "crashing")
	if code != 2 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	for _, want := range []string{"FAILED — roll back", "EXIT CODES", "earliest crash seen"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// The platform runs faster than the wall: on a busy machine it may have
	// given up restarting the crashing machine by the time it is judged.
	if !strings.Contains(out, diagnose.CrashLoopReason) && !strings.Contains(out, "gave up restarting") {
		t.Errorf("stdout names no crash loop:\n%s", out)
	}
	if !strings.Contains(errOut, "rolling out release v58") {
		t.Errorf("no deploy progress on stderr: %s", errOut)
	}
	assertNoSecret(t, "verdict stdout", out+errOut)
}

// With the API down, verdict cannot judge: exit 3, and the report says so.
func TestVerdictAPIDownExits3(t *testing.T) {
	sim := startSim(t)
	if err := sim.Pause(); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFlywake(t, nil, "verdict", "-a", flysim.DemoTuned)
	if code != 3 || !strings.Contains(out, "COULD NOT JUDGE (api down)") || !strings.Contains(out, "not answering") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}
