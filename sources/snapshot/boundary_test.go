package snapshot

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/diagnose"
)

func inert(t *testing.T, what, s string) {
	t.Helper()
	if strings.ContainsAny(s, "\x1b\x07\u009b\u009d") {
		t.Errorf("%s = %q is not inert", what, s)
	}
}

// Log lines, exec output and metrics labels enter the model inert.
func TestEveryInputIsSanitisedAtTheBoundary(t *testing.T) {
	a := New("org", "app", nil)
	a.ApplyLogs([]diagnose.LogLine{{Time: t0, Machine: "m1" + hostile, Provider: "app" + hostile, Message: "GET /" + hostile + " 200"}})
	for _, l := range a.Logs() {
		inert(t, "log machine", l.Machine)
		inert(t, "log provider", l.Provider)
		inert(t, "log message", l.Message)
		if !strings.Contains(l.Message, "␛]0;pwned␇") {
			t.Errorf("the hostile sequence is not shown: %q", l.Message)
		}
	}

	q, _ := json.Marshal("3.12" + hostile)
	bytecode := `{"python":` + string(q) + `,"cache_tag":"cpython-312","app_dir":"/app\u001b]0;x\u0007",` +
		`"site_packages":{"dir":"/sp\u009b2J","py":1,"pyc":1,"foreign_pyc":1,"foreign_tags":["cpython-311\u001b[31m"]}}`
	a.ApplyProbe(ProbeRequest{Kind: ProbeBytecode, Machine: "m1", Key: "d"}, ExecResult{Stdout: bytecode}, t0)
	r := a.Bytecode["d"].Value
	if !strings.HasPrefix(r.Python, "3.12") || len(r.SitePackages.ForeignTags) != 1 {
		t.Fatalf("the probe did not parse: %+v (%s)", r, a.Bytecode["d"].Err)
	}
	for what, s := range map[string]string{"python": r.Python, "site dir": r.SitePackages.Dir, "app dir": r.App.Dir, "err": a.Bytecode["d"].Err} {
		inert(t, what, s)
	}
	for _, tag := range r.SitePackages.ForeignTags {
		inert(t, "foreign tag", tag)
	}
	a.ApplyProbe(ProbeRequest{Kind: ProbeMeminfo, Machine: "m1", Key: "k"}, ExecResult{ExitCode: 1, Stderr: "cat: " + hostile}, t0)
	inert(t, "meminfo stderr", a.Meminfo["m1"].Err)
	a.ApplyProbe(ProbeRequest{Kind: ProbeSockets, Machine: "m1", Key: "k"}, ExecResult{Err: errors.New("exec: " + hostile)}, t0)
	inert(t, "sockets error", a.Sockets["m1"].Err)

	a.ApplyEdgeOrigin(EdgeOrigin{Edge1h: map[string]float64{"200" + hostile: 3}, Err: "prom: " + hostile})
	inert(t, "metrics error", a.Metrics.Err)
	for k := range a.Metrics.Edge1h {
		inert(t, "status label", k)
	}
}
