// Package wake is the dashboard's wake test (the `w` key): the TUI of the
// suspend-vs-stop test in sources/waketest, the same engine `flywake wake`
// drives headless.
//
// The pane walks through stages: setup (mode, request count, the targets
// and their preflight, warnings) → a confirmation naming the app and every
// machine it will stop or suspend → the live run (progress bar, status
// counts, latency histogram, per-machine wake timeline) → the results (the
// side-by-side table, saved to the state directory, optionally beside the
// previous saved result). esc during a run aborts it and the pane shows the
// truthful partial report.
//
// The pane does no I/O: every platform call and file access is a method of
// the Runner the root hands it, called only inside the tea.Cmds the pane
// returns. A run's events reach the pane through a feed that never blocks
// the engine, read by one re-issued command at a time; every message
// carries the pane and run it belongs to, so replies from an old run or a
// discarded pane are dropped.
package wake
