// Package backlog is the Backlog pane (the CLOSE_WAIT story): per machine, the
// concurrency its service applies (type, soft limit, hard limit — "none",
// never "0"), its sockets by state from /proc/net/tcp{,6} with the probe's
// age, and one verdict line: with no hard limit the proxy keeps feeding
// machines that are drowning in CLOSE_WAIT.
package backlog
