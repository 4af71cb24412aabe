package app

import (
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/panes/machines"
)

// req identifies a request: the app generation it was made for (bumped on
// every app switch) and a sequence number. Replies from another generation,
// or older than a reply already applied, are dropped.
type req struct {
	gen int
	id  int
}

// machinesMsg answers one machines listing.
type machinesMsg struct {
	req
	listing fly.Listing
	err     error
}

// logsMsg answers one logs fetch; token continues the paging.
type logsMsg struct {
	req
	lines []diagnose.LogLine
	token string
	err   error
}

// waitMsg: a wait long-poll for one machine returned (reached, timed out or failed).
type waitMsg struct {
	req
	machine string
	err     error
}

// probeMsg answers one exec probe.
type probeMsg struct {
	req
	probe  snapshot.ProbeRequest
	result snapshot.ExecResult
}

// metricsMsg answers the edge/origin query.
type metricsMsg struct {
	req
	metrics snapshot.EdgeOrigin
}

// appsMsg answers ListApps for the app switcher's completion.
type appsMsg struct {
	req
	apps []string
	err  error
}

// actionMsg answers a start, stop or suspend call.
type actionMsg struct {
	req
	action  machines.Action
	machine string
	err     error
}

// noticeMsg fires when a notice has been shown long enough.
type noticeMsg struct{ req }

// pollKind names a timer that asks for a refresh.
type pollKind int

const (
	pollMachines pollKind = iota
	pollLogs
	pollMetrics
)

// pollMsg fires when a refresh timer runs out. Only the newest timer of its
// kind counts (id), so a reset timer never fires twice.
type pollMsg struct {
	req
	kind pollKind
}

// clockMsg is the 1 s tick for "updated N s ago" and animating panes.
type clockMsg struct{ at time.Time }
