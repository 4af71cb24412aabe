package main

import (
	"strings"
	"testing"

	"github.com/flywake/flywake/sources/flysim"
)

// startSim runs flysim on 127.0.0.1 and points the real-platform path of
// every command at it, as a user's FLY_* settings would.
func startSim(t *testing.T) *flysim.Sim {
	t.Helper()
	sim := flysim.New(flysim.Options{Seed: 3, Speed: 20, Token: "fo1_CANARY_hardening_0123456789abcdef", NoTraffic: true})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	t.Setenv("HOME", t.TempDir())
	t.Setenv("FLY_FLAPS_BASE_URL", sim.URL())
	t.Setenv("FLY_API_BASE_URL", sim.URL())
	t.Setenv("FLY_API_TOKEN", sim.Token())
	t.Setenv("FLY_ACCESS_TOKEN", "")
	t.Setenv("FLY_ORG", sim.Org())
	t.Setenv("FLY_APP", "")
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
