package checklist

import (
	"time"

	"github.com/flywake/flywake/sources/repo"
)

// Evidence is everything the rules judge. Every field is optional: nil
// means "not gathered" and turns the parts that need it into unknown.
type Evidence struct {
	// Project is the local project directory; nil when none was read.
	Project *repo.Project
	// ProjectErrors are repo.Load's per-file errors (*repo.FileError).
	ProjectErrors []error
	// Release is the deployed release the platform's evidence is about
	// ("57"); "" when no machine names one.
	Release string

	ColdStart    *ColdStart
	ReleaseWork  *ReleaseWorkLogs
	Bytecode     *Bytecode
	SleepWake    *SleepWake
	EdgeOrigin   *EdgeOrigin
	Crash        *Crash
	Concurrency  *Concurrency
	HealthChecks *HealthChecks
}

// ColdStart summarises boots until serving (boot history or a wake test).
type ColdStart struct {
	P50, P95, Max time.Duration
	Boots         int // boots measured
	PerDay        int // boots a day (0 = unknown)
	// CrashRestarts are starts that crashed or restarted after a crash:
	// never among Boots, so they neither pass nor fail the item.
	CrashRestarts       int
	Dominant            string
	DominantDur         time.Duration
	DominantReleaseWork bool // the slowest phase is release work (migrate, collectstatic…)
	Source              string
}

// ReleaseWorkLogs counts boots whose logs show release work, against the
// number of releases in the same window.
type ReleaseWorkLogs struct {
	Boots         int // cold boots that served (crash restarts among them: they run the entrypoint too)
	BootsWithWork int
	// Resumes from suspend in the same window: read, but a resume runs no
	// entrypoint, so none of them can show release work.
	Resumes  int
	Releases int
	Kinds    []string // e.g. "migrations", "collectstatic"
	Window   string   // e.g. "24 h"
	Source   string
}

// Bytecode is the summary of the image probe on one machine.
type Bytecode struct {
	NotPython         bool // the image has no python3
	Python            string
	SitePy, SitePyc   int
	ForeignPyc        int      // .pyc compiled by another Python version
	ForeignTags       []string // e.g. "cpython-315"
	DontWriteBytecode bool
	Source            string // e.g. "exec bytecode probe on 3d8d9e1c"
}

// SleepWake is the deployed autostop configuration and what the machines
// say about swap.
type SleepWake struct {
	AutoStop         string // "off", "stop", "suspend"; "" = take it from fly.toml
	AutoStart        *bool
	MinRunning       *int
	SuspendBlockers  []string       // reasons the platform refuses suspend
	SwapConfiguredMB int            // from the machine config
	SwapUsedKB       map[string]int // machine id -> SwapTotal-SwapFree; nil = not probed
	MachinesProbed   int
	Source           string // e.g. "exec /proc/meminfo on 3 machines"
}

// EdgeOrigin holds response counts by status ("200", "502" or "5xx") as
// the edge and the app counted them.
type EdgeOrigin struct {
	Hour, Day *StatusCounts
	Source    string // e.g. "Prometheus"
}

// StatusCounts is one window of edge and app counts.
type StatusCounts struct {
	Edge, App map[string]float64
}

// Crash is the crash-loop verdict of the current release.
type Crash struct {
	Looping, GaveUp bool
	Machines        int // machines judged
	Reason          string
	Known           bool // false: not enough events to judge
	Source          string
}

// Concurrency is the deployed concurrency block and CLOSE_WAIT counts.
type Concurrency struct {
	FromConfig bool // the limits below come from the machine config
	HardLimit  *int
	SoftLimit  int
	Type       string
	CloseWait  map[string]int // machine id -> sockets in CLOSE_WAIT; nil = not probed
	Source     string
}

// HealthChecks are the checks of the deployed machine config.
type HealthChecks struct {
	Checks []HealthCheck
	Source string
}

// HealthCheck is one service or machine check.
type HealthCheck struct {
	Name     string
	Kind     string // "http" or "tcp"
	Path     string
	Interval time.Duration
	Status   string // "passing", "warning", "critical"; "" = unknown
}
