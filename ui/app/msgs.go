package app

import (
	"time"

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
	listing snapshot.Converted // converted in the command: Update only merges it
	err     error
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

// listPollMsg fires when the listing's refresh timer runs out. Only the
// newest timer counts (id), so a reset timer never fires twice.
type listPollMsg struct{ req }

// clockMsg is the 1 s tick for "updated N s ago" and animating panes.
type clockMsg struct{ at time.Time }
