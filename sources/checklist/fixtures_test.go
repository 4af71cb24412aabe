package checklist

import (
	"fmt"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

func ptr[T any](v T) *T { return &v }

// demo loads one embedded demo project.
func demo(t *testing.T, name string) (*repo.Project, []error) {
	t.Helper()
	fsys, ok := repo.DemoProject(name)
	if !ok {
		t.Fatalf("no demo project %q", name)
	}
	return repo.LoadFS(fsys)
}

// testdata loads a test-only fixture from sources/repo/testdata.
func testdata(t *testing.T, name string) (*repo.Project, []error) {
	t.Helper()
	return repo.Load("../repo/testdata/" + name)
}

// scaleToZeroRuntime is the README's day of the scale-to-zero app.
func scaleToZeroRuntime() Evidence {
	return Evidence{
		ColdStart: &ColdStart{P50: 28 * time.Second, P95: 32500 * time.Millisecond, Max: 33 * time.Second,
			Boots: 92, PerDay: 92, Dominant: "migrate", DominantDur: 11 * time.Second, DominantReleaseWork: true, Source: "logs (24 h)"},
		ReleaseWork: &ReleaseWorkLogs{Boots: 92, BootsWithWork: 92, Releases: 1, Kinds: []string{"migrations", "collectstatic"}, Window: "24 h", Source: "logs (24 h)"},
		Bytecode:    &Bytecode{Python: "3.14.0", SitePy: 5707, SitePyc: 0, ForeignPyc: 218, ForeignTags: []string{"cpython-315"}, DontWriteBytecode: true, Source: "exec bytecode probe on 3d8d9e1c"},
		Deployed:    deployedLike(1, "stop", 2048, diagnose.Concurrency{Type: "requests", Soft: 12, Hard: 25, Configured: true}),
		Swap: &SwapUse{UsedKB: map[string]int{"3d8d9e1c": 0, "91e5f02a": 0, "e2869d4b": 0},
			MachinesProbed: 3, Source: "exec /proc/meminfo on 3 machines"},
		EdgeOrigin: &EdgeOrigin{Source: "Prometheus",
			Day:  &StatusCounts{Edge: map[string]float64{"200": 3100, "304": 1122, "504": 1184}, App: map[string]float64{"200": 3100, "304": 1122}},
			Hour: &StatusCounts{Edge: map[string]float64{"200": 120, "504": 30}, App: map[string]float64{"200": 120}}},
		Crash:        &Crash{Known: true, Machines: 10, Source: "machine events"},
		Sockets:      &Sockets{CloseWait: map[string]int{"3d8d9e1c": 1}, Source: "exec /proc/net/tcp on 3d8d9e1c"},
		HealthChecks: &HealthChecks{Checks: []HealthCheck{{Name: "servicecheck-00-http-8000", Machine: "3d8d9e1c", Status: "passing"}}, Source: "check status on 3 machines"},
	}
}

func tunedRuntime() Evidence {
	return Evidence{
		ColdStart:    &ColdStart{P50: 300 * time.Millisecond, P95: 435 * time.Millisecond, Max: 9 * time.Second, Boots: 40, Source: "wake test"},
		ReleaseWork:  &ReleaseWorkLogs{Boots: 12, BootsWithWork: 1, Releases: 1, Kinds: []string{"migrations"}, Window: "24 h", Source: "logs (24 h)"},
		Bytecode:     &Bytecode{Python: "3.14.0", SitePy: 5707, SitePyc: 5707, Source: "exec bytecode probe on 5683d0e1"},
		Deployed:     deployedLike(1, "suspend", 0, diagnose.Concurrency{Type: "requests", Soft: 12, Hard: 25, Configured: true}),
		Swap:         &SwapUse{UsedKB: map[string]int{"5683d0e1": 0}, MachinesProbed: 1, Source: "exec /proc/meminfo on 5683d0e1"},
		EdgeOrigin:   &EdgeOrigin{Source: "Prometheus", Day: &StatusCounts{Edge: map[string]float64{"200": 5400, "304": 6}, App: map[string]float64{"200": 5400, "304": 6}}},
		Crash:        &Crash{Known: true, Machines: 4, Source: "machine events"},
		Sockets:      &Sockets{CloseWait: map[string]int{"5683d0e1": 0}, Source: "exec /proc/net/tcp on 5683d0e1"},
		HealthChecks: &HealthChecks{Checks: []HealthCheck{{Name: "servicecheck-00-http-8000", Status: "passing"}}, Source: "check status on 1 machine"},
	}
}

// deployedLike is a deployed release of one machine config in the group
// "app", like the demo projects': an HTTP service on port 8000 with
// autostart on, a check on /api/health/ every 15 s and 1 GB of memory.
func deployedLike(minRunning int, autostop string, swapMB int, conc diagnose.Concurrency) *Deployed {
	var blockers []string
	if swapMB > 0 {
		blockers = []string{fmt.Sprintf("swap (%d MB)", swapMB)}
	}
	return &Deployed{Groups: []DeployedGroup{{
		Name: "app", Machine: "m1", SwapMB: swapMB, MemoryMB: 1024, SuspendBlockers: blockers,
		Services: []DeployedService{{
			InternalPort: 8000, AutoStop: autostop, AutoStart: ptr(true), MinRunning: ptr(minRunning), Concurrency: conc,
			Checks: []HealthCheck{{Kind: "http", Path: "/api/health/", Interval: 15 * time.Second}},
		}},
	}}}
}

// withProject adds a loaded project to runtime evidence.
func withProject(e Evidence, p *repo.Project, errs []error) Evidence {
	e.Project, e.ProjectErrors = p, errs
	return e
}
