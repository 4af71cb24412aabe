// Package coldstart is the Cold starts pane: a live timer for every machine
// that is booting, the cold-boot spread (p50/p95/max), boots per hour and per
// day counted from logs, the phase that dominates, a 24 h sparkline, and a
// scrollable history of boots with a per-boot phase bar that shows where the
// seconds go.
package coldstart
