package checklist

import (
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/repo"
)

// Evidence is everything the rules judge. Every field is optional: nil
// means "not gathered" and turns the parts that need it into unknown.
type Evidence struct {
	// Project is the local project directory; nil when none was read.
	Project *repo.Project
	// ProjectErrors are repo.Load's per-file errors (*textfile.FileError).
	ProjectErrors []error
	// Release is the deployed release the platform's evidence is about
	// ("57"); "" when no machine names one.
	Release string
	// Unread are the platform's answers that could not be read (an API
	// that failed): the items that read them cannot pass.
	Unread map[Input]Unread

	// Deployed is the configuration the running release applies: what a
	// deploy of the project replaces, and what the items judge when no
	// project file answers them.
	Deployed *Deployed

	ColdStart    *ColdStart
	ReleaseWork  *ReleaseWorkLogs
	Bytecode     *Bytecode
	Swap         *SwapUse
	EdgeOrigin   *EdgeOrigin
	Crash        *Crash
	Sockets      *Sockets
	HealthChecks *HealthChecks
}

// Deployed holds one machine's config for each process group of the
// running release (the machines of a group share it).
type Deployed struct {
	Groups []DeployedGroup
}

// DeployedGroup is one process group's machine config.
type DeployedGroup struct {
	Name     string // process group; "app" when the machine names none
	Machine  string // the machine whose config this is
	Services []DeployedService
	Checks   []HealthCheck // top-level machine checks
	SwapMB   int
	MemoryMB int
	// SuspendBlockers say why the platform cannot suspend these machines
	// (swap, memory, a GPU, a schedule).
	SuspendBlockers []string
}

// DeployedService is one service of a machine config.
type DeployedService struct {
	InternalPort int
	AutoStop     string // "off", "stop", "suspend"
	AutoStart    *bool  // nil: unset, Fly's default (on)
	MinRunning   *int   // nil: unset, Fly's default (0)
	// Concurrency is the block as configured (Configured false: none, so
	// Fly's defaults apply).
	Concurrency diagnose.Concurrency
	Checks      []HealthCheck
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

// SwapUse is what the deployed machines say about their swap.
type SwapUse struct {
	UsedKB         map[string]int // machine id -> SwapTotal-SwapFree; nil = not probed
	MachinesProbed int
	Source         string // e.g. "exec /proc/meminfo on 3 machines"
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
	// Unread counts what the listing held that could not be read and
	// could hide a crash (a machine entry skipped, events it cannot time);
	// UnreadReason says what, with the counts.
	Unread       int
	UnreadReason string
}

// Sockets are the CLOSE_WAIT counts of the deployed machines.
type Sockets struct {
	CloseWait map[string]int // machine id -> sockets in CLOSE_WAIT; nil = not probed
	Source    string
}

// HealthChecks are the statuses of the checks on the deployed machines.
type HealthChecks struct {
	Checks []HealthCheck
	Source string
}

// HealthCheck is one service or machine check: as configured, and on a
// machine with its status.
type HealthCheck struct {
	Name     string
	Kind     string // "http" or "tcp"
	Path     string
	Interval time.Duration
	Machine  string // the machine it ran on ("" in a config)
	Status   string // "passing", "warning", "critical"; "" = unknown
}
