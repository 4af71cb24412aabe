// Package profile describes the apps a simulated platform plays: how each
// boots, what it runs, how its clients load it. The demo org's four apps
// are DemoApps; SteadyOrg builds quiet orgs of any size for scale tests.
// The platform seeds each app's machines from its profile; after that
// each machine's own config decides.
package profile

import (
	"time"

	"github.com/flywake/flywake/sources/flysim/guest"
)

// Span is a duration range a simulated step draws from (seeded).
type Span struct{ Min, Max time.Duration }

// Phase is one step of an app's own boot, logged by the app as it happens.
type Phase struct {
	Name     string
	Lines    []string // logged when the phase begins
	EndLines []string // logged when it ends
	Took     Span
}

// App is everything the simulator needs to play one app. The demo apps
// (DemoApps) are built from these; tests build their own.
type App struct {
	Name    string
	Project string // the demo project (sources/demoproject) its image holds
	// Region is the primary region (fly.toml primary_region, PRIMARY_REGION
	// in every machine's env): min_machines_running holds there only.
	Region string
	// Machines is how many machines the app's process group has in its
	// primary region.
	Machines int
	// MoreRegions are the process group's machines in other regions, as
	// `fly scale count N --region X` adds them. Autostop runs per region and
	// keeps none of them running.
	MoreRegions  []RegionGroup
	ProcessGroup string
	Release      int // current fly_release_version
	Image        string
	Tag          string

	CPUKind    string
	CPUs       int
	MemoryMB   int
	SwapMB     int
	Schedule   string
	Autostop   string // off | stop | suspend
	Autostart  bool
	MinRunning int

	InternalPort     int
	HealthPath       string
	ConcurrencyType  string // requests | connections
	SoftLimit        int
	HardLimit        int // 0 = none
	RestartRetries   int // on-failure max_retries (Fly's default 10)
	KillTimeout      time.Duration
	PlatformBoot     Span    // runner: "Configuring firecracker" → "Machine started in"
	InitTook         Span    // init: until the entrypoint runs
	Phases           []Phase // the app's own boot, up to listening
	FirstHealth      Span    // listening → first health 200
	Resume           Span    // suspended → started
	SnapshotLossRate float64 // chance a resume silently cold-boots
	StopTook         Span
	SuspendTook      Span
	// CrashAfter > 0 makes the current release exit 1 this long after it
	// reaches started (a release that died ~2.5 s after every start).
	CrashAfter   time.Duration
	RestartDelay Span
	ServerLines  []string // lines logged on a crash (traceback)
	// Server is the command line the app's entrypoint or CMD runs for good
	// (its image's own), Workers how many worker processes it forks: what
	// ps shows once the machine serves.
	Server       string
	Workers      int
	Env          map[string]string // shown by printenv, minus secrets
	SecretEnv    map[string]string // present in the guest, never in API output
	Bytecode     guest.Bytecode
	PollPaths    []string // endpoints its clients poll
	InitialAwake int      // machines started and serving when history begins
	DeployedAgo  time.Duration
	ResponseTime Span // a warm request's service time
	Backlog      bool // the app keeps serving a stale queue in order (a server without a concurrency guard)
	MemAvailPct  int  // share of guest memory available in /proc/meminfo
	SwapUsedKB   int  // swap in use reported by the guest
	VolumeGB     int  // each machine mounts a volume "data" of this size at /data; 0 = none
	// VolumeFiles are what the app keeps on its volume; the first, sized 0,
	// takes what the others leave of the volume's used part.
	VolumeFiles []guest.VolumeFile
}

// MachineCount is how many machines the app has in all its regions.
func (p *App) MachineCount() int {
	n := p.Machines
	for _, g := range p.MoreRegions {
		n += g.Machines
	}
	return n
}

// RegionGroup is an app's machines in one region besides its primary.
type RegionGroup struct {
	Region       string
	Machines     int
	InitialAwake int // started and serving when history begins
}

// Seconds is the span from min to max seconds.
func Seconds(min, max float64) Span {
	return Span{time.Duration(min * float64(time.Second)), time.Duration(max * float64(time.Second))}
}

// Demo app names are stable across runs: screenshots, docs and tests use them.
const (
	DemoScaleToZero = "sleepy-api"
	DemoTuned       = "snappy-api"
	DemoCrash       = "crashy-api"
	DemoBacklog     = "backlog-web"
	DemoOrg         = "demo-org"
)

// DemoApps are the four apps of the demo org.
func DemoApps() []App {
	django := []Phase{
		{Name: "migrations", Took: Seconds(9.0, 11.5), Lines: []string{
			"entrypoint: python manage.py migrate --noinput",
			"Operations to perform:",
			"  Apply all migrations: admin, auth, contenttypes, notifications, sessions, users",
			"Running migrations:",
			"  No migrations to apply.",
		}, EndLines: []string{"Migrations complete"}},
		{Name: "static files", Took: Seconds(7.0, 9.5), Lines: []string{
			"entrypoint: python manage.py collectstatic --noinput &",
		}, EndLines: []string{"0 static files copied to '/app/staticfiles', 1268 unmodified."}},
		{Name: "server start", Took: Seconds(5.5, 7.5), Lines: []string{
			"entrypoint: exec granian --interface wsgi config.wsgi:application",
			"[INFO] Starting granian (WSGI; workers 2)",
		}, EndLines: []string{"[INFO] Listening at: http://0.0.0.0:8000"}},
	}
	tuned := []Phase{
		{Name: "release gate", Took: Seconds(1.6, 2.4), Lines: []string{
			"release gate: checking release for image registry.fly.io/snappy-api:deployment-01KB2",
		}, EndLines: []string{"release gate: this release is already prepared, starting straight away"}},
		{Name: "server start", Took: Seconds(3.4, 4.2), Lines: []string{
			"[INFO] Starting granian (WSGI; workers 2)",
		}, EndLines: []string{"[INFO] Listening at: http://0.0.0.0:8000"}},
	}
	pySite := guest.Bytecode{Python: "3.14.0", CacheTag: "cpython-314", AppDir: "/app"}

	sleepy := pySite
	sleepy.DontWriteBytecode = true
	sleepy.SitePy, sleepy.SitePyc = 5707, 0
	sleepy.AppPy, sleepy.AppPyc, sleepy.AppForeignPyc = 412, 218, 218
	sleepy.ForeignTags = []string{"cpython-315"}

	snappy := pySite
	snappy.DontWriteBytecode = true
	snappy.SitePy, snappy.SitePyc = 5707, 5707
	snappy.AppPy, snappy.AppPyc = 412, 412

	crashy := guest.Bytecode{Python: "3.13.5", CacheTag: "cpython-313", AppDir: "/app",
		SitePy: 3120, SitePyc: 3120, AppPy: 96, AppPyc: 96}
	backlog := guest.Bytecode{Python: "3.12.11", CacheTag: "cpython-312", AppDir: "/app",
		SitePy: 2451, SitePyc: 2451, AppPy: 38, AppPyc: 38}

	secrets := func(app string) map[string]string {
		return map[string]string{
			"DATABASE_URL": "postgres://" + app + ":flysim-secret-do-not-show@" + app + "-db.flycast:5432/" + app,
			"SECRET_KEY":   "flysim-secret-do-not-show",
		}
	}
	return []App{
		{
			Name: DemoScaleToZero, Project: "scale-to-zero", Region: "ams", Machines: 10, ProcessGroup: "app",
			Release: 42, Image: "sleepy-api", Tag: "deployment-01KB1Y6Q3T8M2",
			CPUKind: "shared", CPUs: 1, MemoryMB: 1024, SwapMB: 2048,
			Autostop: "stop", Autostart: true, MinRunning: 1,
			InternalPort: 8000, HealthPath: "/api/health/", ConcurrencyType: "requests", SoftLimit: 12, HardLimit: 25,
			RestartRetries: 10, KillTimeout: 5 * time.Second,
			PlatformBoot: Seconds(0.8, 1.5), InitTook: Seconds(0.2, 0.4), Phases: django, FirstHealth: Seconds(1.5, 2.5),
			Resume: Seconds(0.25, 0.45), StopTook: Seconds(1.0, 2.5), SuspendTook: Seconds(0.8, 1.4),
			RestartDelay: Seconds(0.5, 1.0),
			Env:          map[string]string{"PYTHONDONTWRITEBYTECODE": "1", "DJANGO_SETTINGS_MODULE": "config.settings"},
			SecretEnv:    secrets("sleepy"), Bytecode: sleepy,
			Server: "granian --interface wsgi --host 0.0.0.0 --port 8000 --workers 2 --workers-max-rss 800 config.wsgi:application", Workers: 2,
			PollPaths:    []string{"/api/v1/notifications/unread_count/", "/api/v1/notifications/"},
			InitialAwake: 1, DeployedAgo: 3 * 24 * time.Hour,
			ResponseTime: Seconds(0.044, 0.105), MemAvailPct: 58,
		},
		{
			Name: DemoTuned, Project: "tuned", Region: "ams", Machines: 4, ProcessGroup: "app",
			// Two more in Chicago for its American users: autostop puts them
			// to sleep like any others, and min_machines_running (primary
			// region only) keeps none of them up.
			MoreRegions: []RegionGroup{{Region: "ord", Machines: 2, InitialAwake: 1}},
			Release:     57, Image: "snappy-api", Tag: "deployment-01KB2C0XG4V9R",
			CPUKind: "shared", CPUs: 1, MemoryMB: 1024,
			Autostop: "suspend", Autostart: true, MinRunning: 1,
			InternalPort: 8000, HealthPath: "/api/health/", ConcurrencyType: "requests", SoftLimit: 12, HardLimit: 25,
			RestartRetries: 10, KillTimeout: 5 * time.Second,
			PlatformBoot: Seconds(0.8, 1.3), InitTook: Seconds(0.2, 0.3), Phases: tuned, FirstHealth: Seconds(0.8, 1.2),
			Resume: Seconds(0.25, 0.43), StopTook: Seconds(1.0, 2.0), SuspendTook: Seconds(0.8, 1.4),
			RestartDelay: Seconds(0.5, 1.0),
			Env:          map[string]string{"PYTHONDONTWRITEBYTECODE": "1", "DJANGO_SETTINGS_MODULE": "config.settings"},
			SecretEnv:    secrets("snappy"), Bytecode: snappy,
			Server: "granian --interface wsgi --host 0.0.0.0 --port 8000 --workers 2 --workers-max-rss 800 config.wsgi:application", Workers: 2,
			PollPaths:    []string{"/api/v1/notifications/unread_count/", "/api/v1/notifications/"},
			InitialAwake: 1, DeployedAgo: 26 * time.Hour,
			ResponseTime: Seconds(0.030, 0.080), MemAvailPct: 61,
		},
		{
			Name: DemoCrash, Project: "crash", Region: "fra", Machines: 2, ProcessGroup: "app",
			Release: 7, Image: "crashy-api", Tag: "deployment-01KB2D7ZPQ1E3",
			CPUKind: "shared", CPUs: 1, MemoryMB: 512,
			Autostop: "stop", Autostart: true, MinRunning: 0,
			InternalPort: 8080, HealthPath: "/healthz", ConcurrencyType: "connections", SoftLimit: 20, HardLimit: 25,
			RestartRetries: 10, KillTimeout: 5 * time.Second,
			PlatformBoot: Seconds(0.6, 1.0), InitTook: Seconds(0.2, 0.3),
			Phases: []Phase{{Name: "server start", Took: Seconds(0.8, 1.2), Lines: []string{
				"[INFO] Starting uvicorn (workers 1)",
			}, EndLines: []string{"[INFO] Listening at: http://0.0.0.0:8080"}}},
			FirstHealth: Seconds(0.5, 0.8), Resume: Seconds(0.3, 0.5), StopTook: Seconds(0.5, 1.0), SuspendTook: Seconds(0.5, 1.0),
			CrashAfter: 2500 * time.Millisecond, RestartDelay: Seconds(0.4, 0.8),
			ServerLines: []string{
				"Traceback (most recent call last):",
				`  File "/app/main.py", line 4, in <module>`,
				"    from config import settings",
				"ImportError: cannot import name 'settings' from 'config' (/app/config/__init__.py)",
			},
			Env: map[string]string{"APP_ENV": "production"}, SecretEnv: secrets("crashy"), Bytecode: crashy,
			Server: "uvicorn main:app --host 0.0.0.0 --port 8080 --workers 1", Workers: 1,
			PollPaths:    []string{"/api/orders/"},
			InitialAwake: 2, DeployedAgo: 6 * time.Minute, ResponseTime: Seconds(0.02, 0.05), MemAvailPct: 64,
		},
		{
			Name: DemoBacklog, Project: "backlog", Region: "iad", Machines: 2, ProcessGroup: "app",
			Release: 19, Image: "backlog-web", Tag: "deployment-01KB1V5K8D2HN",
			CPUKind: "shared", CPUs: 2, MemoryMB: 2048,
			Autostop: "off", Autostart: true, MinRunning: 0,
			InternalPort: 8080, HealthPath: "/health", ConcurrencyType: "connections", SoftLimit: 25, HardLimit: 0,
			RestartRetries: 10, KillTimeout: 30 * time.Second,
			PlatformBoot: Seconds(0.8, 1.3), InitTook: Seconds(0.2, 0.3),
			Phases: []Phase{{Name: "server start", Took: Seconds(3.0, 4.0), Lines: []string{
				"[INFO] Starting gunicorn 23.0.0",
			}, EndLines: []string{"[INFO] Listening at: http://0.0.0.0:8080 (1)"}}},
			FirstHealth: Seconds(0.5, 1.0), Resume: Seconds(0.3, 0.5), StopTook: Seconds(1.0, 3.0), SuspendTook: Seconds(1.0, 2.0),
			RestartDelay: Seconds(0.5, 1.0),
			Env:          map[string]string{"WEB_CONCURRENCY": "4"}, SecretEnv: secrets("backlog"), Bytecode: backlog,
			Server:       "gunicorn app.main:app --worker-class uvicorn.workers.UvicornWorker --workers 4 --bind 0.0.0.0:8080 --timeout 120",
			Workers:      4,
			PollPaths:    []string{"/api/board", "/api/items"},
			InitialAwake: 2, DeployedAgo: 9 * 24 * time.Hour, ResponseTime: Seconds(0.05, 0.2), Backlog: true, MemAvailPct: 40,
			VolumeGB: 1, VolumeFiles: []guest.VolumeFile{{Name: "app.db"}, {Name: "app.db-shm", Size: 32 << 10}, {Name: "app.db-wal", Size: 4_124_152}}, // app/main.py's SQLite, in WAL mode
		},
	}
}
