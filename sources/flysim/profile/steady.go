package profile

import (
	"fmt"
	"time"

	"github.com/flywake/flywake/sources/flysim/guest"
)

// SteadyOrg is an org of n quiet apps with perApp machines each, for tests
// and benchmarks of flywake at org scale (the budget: 100 apps with
// 10,000 machines). Every app is the same small service: autostop off, so
// no machine changes state on its own; half its machines started, the rest
// stopped; names steady-000, steady-001, …. Use them as Options.Apps, with
// NoTraffic (and a short History) so the platform starts in seconds.
func SteadyOrg(n, perApp int) []App {
	out := make([]App, 0, n)
	for i := range n {
		out = append(out, App{
			Name: SteadyAppName(i), Region: "ams", Machines: perApp, ProcessGroup: "app",
			Release: 3, Image: fmt.Sprintf("steady-%03d", i), Tag: "deployment-01KB3",
			CPUKind: "shared", CPUs: 1, MemoryMB: 256,
			Autostop: "off", Autostart: true, MinRunning: 0,
			InternalPort: 8080, HealthPath: "/health", ConcurrencyType: "requests", SoftLimit: 20, HardLimit: 25,
			RestartRetries: 10, KillTimeout: 5 * time.Second,
			PlatformBoot: Seconds(0.5, 0.9), InitTook: Seconds(0.1, 0.2),
			Phases: []Phase{{Name: "server start", Took: Seconds(0.5, 0.8), Lines: []string{
				"[INFO] Starting gunicorn 23.0.0",
			}, EndLines: []string{"[INFO] Listening at: http://0.0.0.0:8080 (1)"}}},
			FirstHealth: Seconds(0.3, 0.5), Resume: Seconds(0.2, 0.3), StopTook: Seconds(0.5, 1.0), SuspendTook: Seconds(0.5, 1.0),
			RestartDelay: Seconds(0.5, 1.0),
			Bytecode:     guest.Bytecode{NotPython: true},
			PollPaths:    []string{"/"},
			InitialAwake: perApp / 2, DeployedAgo: 48 * time.Hour, ResponseTime: Seconds(0.01, 0.03), MemAvailPct: 50,
		})
	}
	return out
}

// SteadyAppName is the name of SteadyOrg's app i.
func SteadyAppName(i int) string { return fmt.Sprintf("steady-%03d", i) }

// Blank is an app created over the API, before anything is deployed to
// it: no machines, no release, the timings of a small service for the
// machines it gets, its primary region region.
func Blank(name, region string) App {
	p := SteadyOrg(1, 0)[0]
	p.Name, p.Image, p.Tag, p.Region, p.Release, p.DeployedAgo, p.Phases, p.PollPaths = name, name, "", region, 0, 0, nil, nil
	return p
}
