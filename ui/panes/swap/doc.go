// Package swap is the Swap pane: per machine, the configured swap, guest
// memory, what /proc/meminfo says swap holds right now, and OOM kills from
// exit events; above them one verdict line and what the swap costs (it
// blocks suspend, so every autosuspend becomes a stop and a cold boot).
package swap
