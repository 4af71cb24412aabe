package checklist

import (
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// project builds a Project from in-memory files through the real parsers.
func project(t *testing.T, files map[string]string) (*repo.Project, []error) {
	t.Helper()
	fsys := fstestMap(files)
	return repo.LoadFS(fsys)
}

// TestRules drives single rules with hand-built evidence; wantText must
// appear in one evidence line, so wording with numbers is checked too.
func TestRules(t *testing.T) {
	s := time.Second
	cases := []struct {
		name     string
		rule     func(Evidence) Item
		files    map[string]string // nil = no project
		e        Evidence
		want     Status
		wantText string
	}{
		// cold_start
		{"cold start over patience", coldRule(0), nil, Evidence{ColdStart: &ColdStart{P50: 25 * s, P95: 33 * s, Max: 33 * s, Boots: 92}}, Fail, "p95 33.0s reaches the proxy's patience (30.0s)"},
		{"cold start over the CDN timeout", coldRule(15 * s), nil, Evidence{ColdStart: &ColdStart{P50: 10 * s, P95: 16 * s, Max: 16 * s, Boots: 5}}, Fail, "the CDN's origin timeout (15.0s)"},
		{"cold start slow tail", coldRule(0), nil, Evidence{ColdStart: &ColdStart{P50: 2 * s, P95: 5 * s, Max: 31 * s, Boots: 20}}, Warn, "slowest boot (31.0s)"},
		{"cold start a third of patience", coldRule(0), nil, Evidence{ColdStart: &ColdStart{P50: 10 * s, P95: 11 * s, Max: 11 * s, Boots: 2}}, Warn, "over a third"},
		{"cold start quick", coldRule(0), nil, Evidence{ColdStart: &ColdStart{P50: 250 * time.Millisecond, P95: 435 * time.Millisecond, Max: time.Second, Boots: 3}}, Pass, "p95 435ms"},
		{"cold start no boots", coldRule(0), nil, Evidence{ColdStart: &ColdStart{}}, Unknown, "no boot measured"},
		{"cold start only crash restarts", coldRule(0), nil, Evidence{ColdStart: &ColdStart{CrashRestarts: 385}}, Unknown, "every start in 24 h (385) crashed"},
		{"cold start crash restarts beside quick boots", coldRule(0), nil, Evidence{ColdStart: &ColdStart{P50: 2 * s, P95: 3 * s, Max: 3 * s, Boots: 2, CrashRestarts: 383}}, Pass, "383 crash restarts left out"},

		// release_work
		{"release work in CMD", releaseWorkRule, map[string]string{"Dockerfile": "FROM python:3.14\nCMD python manage.py migrate && exec gunicorn app.wsgi\n"}, Evidence{}, Fail, "migrations: `python manage.py migrate` runs before the server"},
		{"release_command only", releaseWorkRule, map[string]string{"Dockerfile": "FROM python:3.14\nCMD [\"gunicorn\", \"app.wsgi\"]\n", "fly.toml": "[deploy]\nrelease_command = 'python manage.py migrate'\n"}, Evidence{}, Pass, "release_command runs `python manage.py migrate` once per release"},
		{"release work logs: once per release", releaseWorkRule, nil, Evidence{ReleaseWork: &ReleaseWorkLogs{Boots: 10, BootsWithWork: 2, Releases: 2, Window: "24 h"}}, Pass, "2 of 10 boots, once per release"},
		{"release work logs: some boots", releaseWorkRule, nil, Evidence{ReleaseWork: &ReleaseWorkLogs{Boots: 10, BootsWithWork: 4, Releases: 1, Kinds: []string{"migrations"}, Window: "24 h"}}, Fail, "migrations ran on 4 of 10 boots, 1 release in 24 h"},
		{"release work logs: no boots", releaseWorkRule, nil, Evidence{ReleaseWork: &ReleaseWorkLogs{}}, Unknown, "no boots"},
		{"release work logs: resumes only", releaseWorkRule, nil, Evidence{ReleaseWork: &ReleaseWorkLogs{Resumes: 41, Window: "24 h"}}, Unknown, "no cold boot in 24 h to count release work in: the logs hold 41 resumes from suspend"},
		{"release work no Dockerfile", releaseWorkRule, map[string]string{"fly.toml": "app = 'x'\n"}, Evidence{}, NA, "no Dockerfile"},

		// bytecode
		{"bytecode not python", bytecodeRule, nil, Evidence{Bytecode: &Bytecode{NotPython: true}}, NA, "no python3"},
		{"bytecode: a Python project replacing an image without python3", bytecodeRule, map[string]string{"Dockerfile": "FROM python:3.14\n"}, Evidence{Bytecode: &Bytecode{NotPython: true}}, Warn, "deployed image has no python3"},
		{"bytecode non-python Dockerfile", bytecodeRule, map[string]string{"Dockerfile": "FROM node:22\nCMD [\"node\", \"server.js\"]\n"}, Evidence{}, NA, "does not look like a Python image"},
		{"bytecode no compileall", bytecodeRule, map[string]string{"Dockerfile": "FROM python:3.14\nCMD [\"gunicorn\", \"app\"]\n"}, Evidence{}, Warn, "lost at every cold boot"},
		{"bytecode few pyc", bytecodeRule, nil, Evidence{Bytecode: &Bytecode{SitePy: 100, SitePyc: 10}}, Warn, "100 .py files and only 10 .pyc"},
		{"bytecode probe good", bytecodeRule, nil, Evidence{Bytecode: &Bytecode{SitePy: 100, SitePyc: 100, Python: "3.14.0"}}, Pass, "100 .pyc (Python 3.14.0)"},

		// sleep_wake
		{"autostart off", sleepWakeRule, map[string]string{"fly.toml": "[http_service]\nauto_stop_machines = 'suspend'\nauto_start_machines = false\n"}, Evidence{}, Fail, "nothing wakes the machines again"},
		{"autostop off", sleepWakeRule, map[string]string{"fly.toml": "[http_service]\nauto_stop_machines = false\n"}, Evidence{}, Pass, "autostop is off"},
		{"swap in use", sleepWakeRule, map[string]string{"fly.toml": "swap_size_mb = 512\n[http_service]\nauto_stop_machines = 'stop'\n"}, Evidence{Deployed: deployedLike(1, "stop", 512, diagnose.Concurrency{}), Swap: &SwapUse{UsedKB: map[string]int{"m1": 2048}}}, Warn, "2,048 kB on m1"},
		{"swap not probed", sleepWakeRule, map[string]string{"fly.toml": "swap_size_mb = 512\n[http_service]\nauto_stop_machines = 'stop'\n"}, Evidence{}, Warn, "needs a running machine"},
		{"suspend with big memory", sleepWakeRule, map[string]string{"fly.toml": "[http_service]\nauto_stop_machines = 'suspend'\n[[vm]]\nmemory = '4gb'\n"}, Evidence{}, Warn, "4,096 MB of memory"},
		{"runtime config only", sleepWakeRule, nil, Evidence{Deployed: deployedLike(1, "suspend", 0, diagnose.Concurrency{})}, Pass, "resume from a snapshot"},
		{"no fly.toml", sleepWakeRule, map[string]string{"Dockerfile": "FROM python:3.14\n"}, Evidence{}, NA, "no fly.toml"},

		// edge_origin
		{"edge gap small", edgeOriginRule, nil, Evidence{EdgeOrigin: &EdgeOrigin{Hour: &StatusCounts{Edge: map[string]float64{"2xx": 9980, "5xx": 20}, App: map[string]float64{"2xx": 9980}}}}, Warn, "the edge answered 20 requests the app never saw in the last hour (0.2 %)"},
		{"edge gap by status", edgeOriginRule, nil, Evidence{EdgeOrigin: &EdgeOrigin{Hour: &StatusCounts{Edge: map[string]float64{"200": 9980, "502": 20}, App: map[string]float64{"200": 9980}}}}, Warn, "edge 10,000 · app 9,980 in the last hour; edge minus app by status: 5xx +20"},
		{"edge agrees", edgeOriginRule, nil, Evidence{EdgeOrigin: &EdgeOrigin{Day: &StatusCounts{Edge: map[string]float64{"200": 100, "500": 2}, App: map[string]float64{"200": 100, "500": 2}}}}, Pass, "edge and app agree: 102 requests in 24 h"},
		{"edge behind the app: a backlog", edgeOriginRule, nil, Evidence{EdgeOrigin: &EdgeOrigin{Day: &StatusCounts{Edge: map[string]float64{"200": 6365}, App: map[string]float64{"200": 7938}}}}, Fail,
			"the app answered 1,573 requests in 24 h that no client received (19.8 % of its 7,938): their clients had gone before the answer came back — a backlog: see concurrency and backlog"},
		{"edge behind the app: both figures", edgeOriginRule, nil, Evidence{EdgeOrigin: &EdgeOrigin{Day: &StatusCounts{Edge: map[string]float64{"200": 6365}, App: map[string]float64{"200": 7938}}}}, Fail,
			"edge 6,365 · app 7,938 in 24 h; app minus edge by status: 2xx +1,573"},
		{"edge no traffic", edgeOriginRule, nil, Evidence{EdgeOrigin: &EdgeOrigin{Day: &StatusCounts{}}}, Unknown, "no requests"},

		// crash_loop
		{"crash gave up", crashLoopRule, nil, Evidence{Crash: &Crash{Known: true, GaveUp: true}}, Fail, "max restart count"},
		{"crash not judged", crashLoopRule, nil, Evidence{Crash: &Crash{}}, Unknown, "not enough events"},

		// concurrency
		{"no hard limit", concurrencyRule, map[string]string{"fly.toml": "[http_service]\ninternal_port = 8080\n[http_service.concurrency]\nsoft_limit = 25\n"}, Evidence{}, Warn, "no hard_limit (soft_limit 25, connections)"},
		{"no concurrency block", concurrencyRule, map[string]string{"fly.toml": "[http_service]\ninternal_port = 8080\n"}, Evidence{}, Warn, "soft_limit 20"},
		{"CLOSE_WAIT with a hard limit", concurrencyRule, nil, Evidence{Deployed: deployedLike(1, "off", 0, diagnose.Concurrency{Hard: 25, Soft: 20, Configured: true}), Sockets: &Sockets{CloseWait: map[string]int{"m1": 60}}}, Warn, "60 sockets in CLOSE_WAIT"},
		{"worker app", concurrencyRule, map[string]string{"fly.toml": "app = 'worker'\n"}, Evidence{}, NA, "no [http_service]"},

		// health_checks
		{"no checks", healthChecksRule, map[string]string{"fly.toml": "[http_service]\ninternal_port = 8080\n"}, Evidence{}, Warn, "no health check"},
		{"tcp check", healthChecksRule, map[string]string{"fly.toml": "[[services]]\ninternal_port = 8080\n[[services.tcp_checks]]\ninterval = '10s'\n"}, Evidence{}, Warn, "an open port is not a working app"},
		{"top-level http check", healthChecksRule, map[string]string{"fly.toml": "[checks.web]\ntype = 'http'\nport = 8080\npath = '/healthz'\n"}, Evidence{}, Pass, "GET /healthz"},
		{"critical runtime check", healthChecksRule, nil, Evidence{HealthChecks: &HealthChecks{Checks: []HealthCheck{{Name: "web", Machine: "m1", Status: "critical"}}}}, Warn, "check web is critical on m1"},
		{"health no fly.toml", healthChecksRule, map[string]string{"Dockerfile": "FROM python:3.14\n"}, Evidence{}, NA, "no fly.toml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.e
			if tc.files != nil {
				e.Project, e.ProjectErrors = project(t, tc.files)
			}
			it := tc.rule(e)
			if it.Status != tc.want {
				t.Errorf("status %s, want %s; evidence %+v", it.Status, tc.want, it.Evidence)
			}
			if !hasText(it, tc.wantText) {
				t.Errorf("no evidence mentions %q: %+v", tc.wantText, it.Evidence)
			}
		})
	}
}

func TestHealthReminderAlwaysPresent(t *testing.T) {
	p, errs := demo(t, "tuned")
	it := healthChecksRule(Evidence{Project: p, ProjectErrors: errs})
	if !hasText(it, "cannot see the boot window") {
		t.Errorf("reminder missing: %+v", it.Evidence)
	}
}

func TestNeedsRunningMachine(t *testing.T) {
	p, errs := demo(t, "backlog")
	items := Evaluate(Evidence{Project: p, ProjectErrors: errs}, Options{})
	want := map[string]bool{IDBytecode: true, IDConcurrency: true}
	for _, it := range items {
		if it.NeedsRunningMachine != want[it.ID] {
			t.Errorf("%s NeedsRunningMachine = %v, want %v", it.ID, it.NeedsRunningMachine, want[it.ID])
		}
	}
}

func coldRule(cdn time.Duration) func(Evidence) Item {
	return func(e Evidence) Item {
		return coldStartRule(e, Options{ProxyPatience: DefaultProxyPatience, CDNOriginTimeout: cdn})
	}
}

func hasText(it Item, text string) bool {
	for _, f := range it.Evidence {
		if strings.Contains(f.Text, text) {
			return true
		}
	}
	return false
}
