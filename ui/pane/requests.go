package pane

import "time"

// Requests a pane makes of the root: a pane's command returns one of these,
// the root intercepts it (it reaches no pane as such) and acts.

// OpenApp asks the root to show app's dashboard (the overview's enter).
type OpenApp struct{ App string }

// ShowLogs asks the root to open the logs view on the open app, filtered:
// one machine, a time window, one provider ("" leaves a filter off).
// Why names the jump in the view's title ("boot of 0e28…").
type ShowLogs struct {
	Machine  string
	Provider string
	// ProxyErrors keeps only the proxy's error lines (a code such as PR04
	// or PM03, diagnose.ProxyErrorCode): what lost requests leave behind.
	ProxyErrors bool
	From, To    time.Time
	Why         string
}

// Relist asks the root to list the machines now, instead of at its next
// timer: the pane's command changed one (a demo deploy's step).
type Relist struct{}
