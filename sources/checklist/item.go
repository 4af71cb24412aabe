package checklist

import "time"

// Status of one checklist item.
type Status string

const (
	Pass    Status = "pass"
	Warn    Status = "warn"
	Fail    Status = "fail"
	Unknown Status = "unknown"
	NA      Status = "n/a"
)

// severity orders statuses for combining parts of an item: the worst wins,
// and any real answer beats "unknown", which beats "n/a".
func (s Status) severity() int {
	switch s {
	case Fail:
		return 4
	case Warn:
		return 3
	case Pass:
		return 2
	case Unknown:
		return 1
	}
	return 0
}

// Worse returns the more severe of two statuses.
func Worse(a, b Status) Status {
	if b.severity() > a.severity() {
		return b
	}
	return a
}

// Item ids: a stable contract with the CLI's JSON and the TUI.
const (
	IDColdStart    = "cold_start"
	IDReleaseWork  = "release_work"
	IDBytecode     = "bytecode"
	IDSleepWake    = "sleep_wake"
	IDEdgeOrigin   = "edge_origin"
	IDCrashLoop    = "crash_loop"
	IDConcurrency  = "concurrency"
	IDHealthChecks = "health_checks"
)

// IDs lists the item ids in checklist order.
var IDs = []string{IDColdStart, IDReleaseWork, IDBytecode, IDSleepWake, IDEdgeOrigin, IDCrashLoop, IDConcurrency, IDHealthChecks}

// Titles maps each id to its human title.
var Titles = map[string]string{
	IDColdStart:    "Cold start until serving",
	IDReleaseWork:  "Release work run on every boot",
	IDBytecode:     "Bytecode cache",
	IDSleepWake:    "Sleep and wake",
	IDEdgeOrigin:   "Edge versus origin",
	IDCrashLoop:    "Crash loop",
	IDConcurrency:  "Concurrency and backlog",
	IDHealthChecks: "Health checks",
}

// Fact is one piece of evidence and where it came from, e.g.
// "fly.toml:7", "logs (24 h)", "exec /proc/meminfo on 3d8d9e1c", "Prometheus".
type Fact struct {
	Text   string `json:"text"`
	Source string `json:"source,omitempty"`
}

// Item is one answered checklist question.
type Item struct {
	ID                  string `json:"id"`
	Title               string `json:"title"`
	Status              Status `json:"status"`
	Evidence            []Fact `json:"evidence"`
	Fix                 string `json:"fix"`
	NeedsRunningMachine bool   `json:"needs_running_machine"`
}

// Options tune the thresholds of the rules.
type Options struct {
	// ProxyPatience is how long the edge holds a request for a waking
	// machine before it answers an error (30 s when zero).
	ProxyPatience time.Duration
	// CDNOriginTimeout is the origin timeout of a CDN in front of the app;
	// 0 = no CDN. The smaller of the two bounds a cold start.
	CDNOriginTimeout time.Duration
}

// DefaultProxyPatience is the proxy's wait for a waking machine.
const DefaultProxyPatience = 30 * time.Second

// ExitCode is the CLI's exit status for a checklist: 0 when nothing warns or
// fails (unknown and n/a do not count), 1 on warnings, 2 on failures.
func ExitCode(items []Item) int {
	code := 0
	for _, it := range items {
		switch it.Status {
		case Fail:
			return 2
		case Warn:
			code = 1
		}
	}
	return code
}
