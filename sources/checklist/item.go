package checklist

import (
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// Status is the checklist's name for diagnose.Level: one scale, one type,
// written in JSON as pass, warn, fail, unknown or n/a.
type Status = diagnose.Level

// The statuses, as the rules write them.
const (
	Pass    = diagnose.Pass
	Warn    = diagnose.Warn
	Fail    = diagnose.Fail
	Unknown = diagnose.Unknown
	NA      = diagnose.NA
)

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
	// markdown is Text for Markdown, its quotes escaped (Fact.Markdown).
	markdown string
}

// Item is one answered checklist question.
type Item struct {
	ID                  string `json:"id"`
	Title               string `json:"title"`
	Status              Status `json:"status"`
	Evidence            []Fact `json:"evidence"`
	Fix                 string `json:"fix"`
	NeedsRunningMachine bool   `json:"needs_running_machine"`
	// CouldNotRead: an input this item needs could not be read — a project
	// file (too large, a directory, a FIFO, unreadable, or the project
	// itself) or a platform API that failed — so the item could not be
	// checked in full. An item unknown only for want of a running machine
	// is not.
	CouldNotRead bool `json:"could_not_read"`
	// Cause says why, when CouldNotRead: could_not_read for a project
	// file, else the API's failure (auth, unknown_app, api_down,
	// rate_limited, timeout, bad_answer); "" otherwise.
	Cause diagnose.Cause `json:"cause"`
	// Judges is what the status rests on: JudgesProject (the project's
	// files, as Fly will apply them) or JudgesDeployed (the release running
	// now, named by Release: boot history, metrics, probes, or its config
	// when no project file answers the item).
	Judges string `json:"judges"`
	// Release is the deployed release the item's platform evidence is
	// about ("v57"); "" when no machine names one.
	Release string `json:"release"`
	// Changes are the settings the deploy changes, the deployed value
	// beside the project's; empty when the project agrees with the
	// deployed release or either is unknown.
	Changes []Change `json:"changes"`
	// unread are the sentences saying what could not be read, for the
	// report's could_not_check.
	unread []string
}

// What an item judges.
const (
	JudgesProject  = "project"
	JudgesDeployed = "deployed"
)

// Change is one setting as deployed and as the project will deploy it.
type Change struct {
	Setting  string `json:"setting"`  // e.g. "[http_service.concurrency] hard_limit"
	Deployed string `json:"deployed"` // e.g. "25"
	Project  string `json:"project"`  // e.g. "none"
	Source   string `json:"source"`   // the project's line, e.g. "fly.toml:22"
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

// Exit codes of `flywake check` (the README's "in CI": a stable contract
// for CI).
const (
	ExitOK          = 0
	ExitWarnings    = 1
	ExitFailures    = 2
	ExitCannotCheck = 3
)

// ExitCode is the CLI's exit status for a checklist: 2 when an item fails;
// else 3 (could not check) when an item could not read an input it needs
// (a project file, an API that failed) — what it could not read might have
// failed, so neither a pass nor "only warnings" can be claimed; else 1 on
// warnings; else 0 (unknown and n/a do not count).
func ExitCode(items []Item) int {
	code := ExitOK
	for _, it := range items {
		switch {
		case it.Status == Fail:
			return ExitFailures
		case it.CouldNotRead:
			code = ExitCannotCheck
		case it.Status == Warn && code == ExitOK:
			code = ExitWarnings
		}
	}
	return code
}
