package checklist

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// flyToml is a one-service fly.toml, the demo's shape, with the parts a
// case changes: hard limit (0: none), autostop mode, autostart, min
// machines running and the check path ("" = no check).
func flyToml(hard int, autostop string, autostart bool, minRunning int, checkPath string) string {
	var b strings.Builder
	b.WriteString("app = 'snappy-api'\nprimary_region = 'ams'\n\n[http_service]\n  internal_port = 8000\n")
	fmt.Fprintf(&b, "  auto_stop_machines = '%s'\n  auto_start_machines = %v\n  min_machines_running = %d\n", autostop, autostart, minRunning)
	b.WriteString("\n  [http_service.concurrency]\n    type = 'requests'\n    soft_limit = 12\n")
	if hard > 0 {
		fmt.Fprintf(&b, "    hard_limit = %d\n", hard)
	}
	if checkPath != "" {
		fmt.Fprintf(&b, "\n  [[http_service.checks]]\n    interval = '15s'\n    path = '%s'\n", checkPath)
	}
	return b.String()
}

// The lines of flyToml's keys (the tests cite them).
const (
	lineAutoStop   = "fly.toml:6"
	lineAutoStart  = "fly.toml:7"
	lineMinRunning = "fly.toml:8"
	lineConc       = "fly.toml:10"
	lineHard       = "fly.toml:13"
	lineService    = "fly.toml:4"
)

var (
	goodToml = flyToml(25, "suspend", true, 1, "/api/health/")
	// The change: no hard limit, stop without autostart, none kept running, no check.
	riskyToml = flyToml(0, "stop", false, 0, "")

	cleanDockerfile = "FROM python:3.14\nRUN python -m compileall -q /app\nCMD [\"gunicorn\", \"app.wsgi\"]\n"
	workDockerfile  = "FROM python:3.14\nCMD python manage.py migrate && exec gunicorn app.wsgi\n"
)

// deployedGood is the deployed release goodToml describes.
func deployedGood() Evidence {
	return Evidence{Release: "57", Deployed: deployedLike(1, "suspend", 0, diagnose.Concurrency{Type: "requests", Soft: 12, Hard: 25, Configured: true})}
}

// TestProjectBesideDeployed drives every item through the four ways a
// project and a deployed release meet: the project alone, the deployed
// release alone, both agreeing and both differing. An item the project's
// files answer judges the project, cites its line and lists what the deploy
// changes; an item only the platform answers judges the deployed release
// and says which.
func TestProjectBesideDeployed(t *testing.T) {
	s := time.Second
	slowBoots := &ColdStart{P50: 25 * s, P95: 33 * s, Max: 33 * s, Boots: 92, Source: "logs (24 h)"}
	lostEdge := &EdgeOrigin{Source: "Prometheus", Day: &StatusCounts{Edge: map[string]float64{"200": 800, "502": 200}, App: map[string]float64{"200": 800}}}
	looping := &Crash{Known: true, Looping: true, Machines: 2, Source: "machine events"}
	workEveryBoot := &ReleaseWorkLogs{Boots: 10, BootsWithWork: 10, Releases: 1, Kinds: []string{"migrations"}, Window: "24 h", Source: "logs (24 h)"}
	noPyc := &Bytecode{Python: "3.14.0", SitePy: 100, SitePyc: 0, Source: "exec bytecode probe on image abc"}
	allPyc := &Bytecode{Python: "3.14.0", SitePy: 100, SitePyc: 100, Source: "exec bytecode probe on image abc"}

	with := func(e Evidence, f func(*Evidence)) Evidence { f(&e); return e }
	deployedRisky := func() Evidence {
		e := deployedGood()
		svc := &e.Deployed.Groups[0].Services[0]
		svc.AutoStop, svc.AutoStart, svc.MinRunning = "stop", ptr(false), ptr(0)
		svc.Concurrency = diagnose.Concurrency{Type: "requests", Soft: 12, Configured: true}
		svc.Checks = nil
		return e
	}

	cases := []struct {
		id, name   string
		files      map[string]string // nil: no project
		e          Evidence
		status     Status
		judges     string
		fact, from string   // one fact's text and source must hold these
		changes    []Change // exactly these (Source checked by prefix)
		never      string   // no fact may say this (a contradiction)
	}{
		// Only the platform answers these three: the project changes nothing.
		{IDColdStart, "project only", map[string]string{"fly.toml": goodToml}, Evidence{Release: "57"}, Unknown, JudgesDeployed, "no boot measured", "", nil, ""},
		{IDColdStart, "deployed only", nil, Evidence{Release: "57", ColdStart: slowBoots}, Fail, JudgesDeployed, "p95 33.0s", "logs", nil, ""},
		{IDColdStart, "both agreeing", map[string]string{"fly.toml": goodToml}, with(deployedGood(), func(e *Evidence) { e.ColdStart = slowBoots }), Fail, JudgesDeployed, "p95 33.0s", "logs", nil, ""},
		{IDColdStart, "both differing", map[string]string{"fly.toml": riskyToml}, with(deployedGood(), func(e *Evidence) { e.ColdStart = slowBoots }), Fail, JudgesDeployed, "p95 33.0s", "logs", nil, ""},

		{IDEdgeOrigin, "project only", map[string]string{"fly.toml": goodToml}, Evidence{Release: "57"}, Unknown, JudgesDeployed, "not read", "", nil, ""},
		{IDEdgeOrigin, "deployed only", nil, Evidence{Release: "57", EdgeOrigin: lostEdge}, Fail, JudgesDeployed, "edge 1,000 · app 800 in 24 h", "Prometheus", nil, ""},
		{IDEdgeOrigin, "both agreeing", map[string]string{"fly.toml": goodToml}, with(deployedGood(), func(e *Evidence) { e.EdgeOrigin = lostEdge }), Fail, JudgesDeployed, "edge 1,000 · app 800 in 24 h", "Prometheus", nil, ""},
		{IDEdgeOrigin, "both differing", map[string]string{"fly.toml": riskyToml}, with(deployedGood(), func(e *Evidence) { e.EdgeOrigin = lostEdge }), Fail, JudgesDeployed, "edge 1,000 · app 800 in 24 h", "Prometheus", nil, ""},

		{IDCrashLoop, "project only", map[string]string{"fly.toml": goodToml}, Evidence{Release: "57"}, Unknown, JudgesDeployed, "not read", "", nil, ""},
		{IDCrashLoop, "deployed only", nil, Evidence{Release: "57", Crash: looping}, Fail, JudgesDeployed, "crashed repeatedly", "machine events", nil, ""},
		{IDCrashLoop, "both agreeing", map[string]string{"fly.toml": goodToml}, with(deployedGood(), func(e *Evidence) { e.Crash = looping }), Fail, JudgesDeployed, "crashed repeatedly", "machine events", nil, ""},
		{IDCrashLoop, "both differing", map[string]string{"fly.toml": riskyToml}, with(deployedGood(), func(e *Evidence) { e.Crash = looping }), Fail, JudgesDeployed, "crashed repeatedly", "machine events", nil, ""},

		// Release work: the project's boot path decides; the logs are the deployed release's.
		{IDReleaseWork, "project only", map[string]string{"Dockerfile": workDockerfile}, Evidence{}, Fail, JudgesProject, "runs before the server on every boot", "Dockerfile:2", nil, ""},
		{IDReleaseWork, "deployed only", nil, Evidence{Release: "57", ReleaseWork: workEveryBoot}, Fail, JudgesDeployed, "migrations run on every boot: 10 boots", "deployed v57 · logs", nil, ""},
		{IDReleaseWork, "both agreeing", map[string]string{"Dockerfile": workDockerfile}, Evidence{Release: "57", ReleaseWork: workEveryBoot}, Fail, JudgesProject, "migrations run on every boot: 10 boots", "deployed v57 · logs", nil, ""},
		{IDReleaseWork, "both differing", map[string]string{"Dockerfile": cleanDockerfile}, Evidence{Release: "57", ReleaseWork: workEveryBoot}, Warn, JudgesProject, "this project's boot path runs none: the deploy should end it", "deployed v57 · logs", nil, ""},

		// Bytecode: the Dockerfile decides; the probe tells what the deployed image holds.
		{IDBytecode, "project only", map[string]string{"Dockerfile": cleanDockerfile}, Evidence{}, Pass, JudgesProject, "compiled at build time", "Dockerfile:2", nil, ""},
		{IDBytecode, "deployed only", nil, Evidence{Release: "57", Bytecode: noPyc}, Fail, JudgesDeployed, "100 .py files and 0 .pyc", "deployed v57 · exec bytecode probe", nil, ""},
		{IDBytecode, "both agreeing", map[string]string{"Dockerfile": cleanDockerfile}, Evidence{Release: "57", Bytecode: allPyc}, Pass, JudgesProject, "100 .py files and 100 .pyc", "deployed v57 · exec bytecode probe", nil, ""},
		{IDBytecode, "both differing", map[string]string{"Dockerfile": cleanDockerfile}, Evidence{Release: "57", Bytecode: noPyc}, Warn, JudgesProject, "so the deploy should fix it", "deployed v57 · exec bytecode probe", nil, ""},

		// Sleep and wake: fly.toml with Fly's defaults, beside the deployed services.
		{IDSleepWake, "project only", map[string]string{"fly.toml": riskyToml}, Evidence{}, Fail, JudgesProject, "auto_start_machines = false while autostop is 'stop'", lineAutoStart, nil, ""},
		{IDSleepWake, "deployed only", nil, deployedGood(), Pass, JudgesDeployed, "resume from a snapshot", "deployed v57 · machine config of m1", nil, ""},
		{IDSleepWake, "both agreeing", map[string]string{"fly.toml": goodToml}, deployedGood(), Pass, JudgesProject, "resume from a snapshot", lineAutoStop, nil, ""},
		{IDSleepWake, "both differing", map[string]string{"fly.toml": riskyToml}, deployedGood(), Fail, JudgesProject, "min_machines_running = 0 with autostop 'stop'", lineMinRunning, []Change{
			{Setting: "auto_stop_machines", Deployed: "suspend", Project: "stop", Source: lineAutoStop},
			{Setting: "auto_start_machines", Deployed: "true", Project: "false", Source: lineAutoStart},
			{Setting: "min_machines_running", Deployed: "1", Project: "0", Source: lineMinRunning},
		}, "resume from a snapshot"},

		// Concurrency: the limits Fly will apply (none unless set), beside the deployed ones.
		{IDConcurrency, "project only", map[string]string{"fly.toml": riskyToml}, Evidence{}, Warn, JudgesProject, "no hard_limit (soft_limit 12, requests)", lineConc, nil, ""},
		{IDConcurrency, "deployed only", nil, deployedGood(), Pass, JudgesDeployed, "hard_limit 25, soft_limit 12 (requests)", "deployed v57 · machine config of m1", nil, ""},
		{IDConcurrency, "both agreeing", map[string]string{"fly.toml": goodToml}, deployedGood(), Pass, JudgesProject, "hard_limit 25, soft_limit 12 (requests)", lineHard, nil, ""},
		{IDConcurrency, "both differing", map[string]string{"fly.toml": riskyToml}, deployedGood(), Warn, JudgesProject, "no hard_limit", lineConc, []Change{
			{Setting: "hard_limit", Deployed: "25", Project: "none", Source: lineConc},
		}, "hard_limit 25"},
		{IDConcurrency, "both differing, the other way", map[string]string{"fly.toml": goodToml}, deployedRisky(), Pass, JudgesProject, "hard_limit 25", lineHard, []Change{
			{Setting: "hard_limit", Deployed: "none", Project: "25", Source: lineHard},
		}, "no hard_limit"},

		// Health checks: the project's checks, beside the deployed ones; never both "none" and "a check".
		{IDHealthChecks, "project only", map[string]string{"fly.toml": riskyToml}, Evidence{}, Warn, JudgesProject, "no health check", lineService, nil, ""},
		{IDHealthChecks, "deployed only", nil, deployedGood(), Pass, JudgesDeployed, "HTTP check GET /api/health/ every 15s", "deployed v57 · machine config of m1", nil, ""},
		{IDHealthChecks, "both agreeing", map[string]string{"fly.toml": goodToml}, deployedGood(), Pass, JudgesProject, "HTTP check GET /api/health/ every 15s", "fly.toml:15", nil, ""},
		{IDHealthChecks, "both differing", map[string]string{"fly.toml": riskyToml}, deployedGood(), Warn, JudgesProject, "no health check", lineService, []Change{
			{Setting: "checks", Deployed: "HTTP GET /api/health/ every 15s", Project: "none", Source: lineService},
		}, "HTTP check GET"},
	}
	covered := map[string]map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			e := tc.e
			if tc.files != nil {
				e.Project, e.ProjectErrors = project(t, tc.files)
				if len(e.ProjectErrors) > 0 {
					t.Fatalf("the fixture has errors: %v", e.ProjectErrors)
				}
			}
			it := itemOf(Evaluate(e, Options{}), tc.id)
			if it.Status != tc.status || it.Judges != tc.judges {
				t.Errorf("%s judging %q, want %s judging %q; evidence %+v", it.Status, it.Judges, tc.status, tc.judges, it.Evidence)
			}
			if wantRel := releaseName(e.Release); it.Release != wantRel {
				t.Errorf("release %q, want %q", it.Release, wantRel)
			}
			found := false
			for _, f := range it.Evidence {
				if strings.Contains(f.Text, tc.fact) && strings.Contains(f.Source, tc.from) {
					found = true
				}
				if tc.never != "" && strings.Contains(f.Text, tc.never) {
					t.Errorf("a fact says %q beside %q: %+v", tc.never, tc.fact, f)
				}
			}
			if !found {
				t.Errorf("no fact says %q from %q: %+v", tc.fact, tc.from, it.Evidence)
			}
			if len(it.Changes) != len(tc.changes) {
				t.Fatalf("changes %+v, want %+v", it.Changes, tc.changes)
			}
			for i, c := range tc.changes {
				if got := it.Changes[i]; got != c {
					t.Errorf("change %d = %+v, want %+v", i, got, c)
				}
			}
		})
		if covered[tc.id] == nil {
			covered[tc.id] = map[string]bool{}
		}
		covered[tc.id][tc.name] = true
	}
	for _, id := range IDs {
		for _, name := range []string{"project only", "deployed only", "both agreeing", "both differing"} {
			if !covered[id][name] {
				t.Errorf("no %q case for %s", name, id)
			}
		}
	}
}

// Each service is compared with the deployed machines of its own process
// group, on its own port: a web service and a worker's service never
// borrow each other's limits, and each change names its service.
func TestServicesMeetTheirOwnGroup(t *testing.T) {
	toml := `app = 'x'
[processes]
  web = 'gunicorn app.wsgi'
  worker = 'celery -A app worker'

[http_service]
  internal_port = 8080
  processes = ['web']
  auto_stop_machines = 'off'
  [http_service.concurrency]
    soft_limit = 20
    hard_limit = 30

[[services]]
  internal_port = 9000
  processes = ['worker']
  auto_stop_machines = 'off'
  [services.concurrency]
    soft_limit = 5
`
	p, errs := project(t, map[string]string{"fly.toml": toml})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	dep := &Deployed{Groups: []DeployedGroup{
		{Name: "worker", Machine: "w1", Services: []DeployedService{{InternalPort: 9000, AutoStop: "off",
			Concurrency: diagnose.Concurrency{Soft: 5, Hard: 10, Configured: true}}}},
		{Name: "web", Machine: "m1", Services: []DeployedService{{InternalPort: 8080, AutoStop: "off",
			Concurrency: diagnose.Concurrency{Soft: 20, Hard: 25, Configured: true}}}},
	}}
	it := itemOf(Evaluate(Evidence{Project: p, Deployed: dep, Release: "3"}, Options{}), IDConcurrency)
	want := []Change{
		{Setting: "[http_service] hard_limit", Deployed: "25", Project: "30", Source: "fly.toml:12"},
		{Setting: "[[services]] #1 (internal_port 9000) hard_limit", Deployed: "10", Project: "none", Source: "fly.toml:18"},
	}
	if len(it.Changes) != len(want) {
		t.Fatalf("changes %+v, want %+v", it.Changes, want)
	}
	for i := range want {
		if it.Changes[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, it.Changes[i], want[i])
		}
	}
	if it.Status != Warn || !hasText(it, "[[services]] #1 (internal_port 9000): no hard_limit (soft_limit 5, connections)") {
		t.Errorf("%s: %+v", it.Status, it.Evidence)
	}
}
