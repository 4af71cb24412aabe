// Package snapshot is what flywake knows about one app at a moment: its
// machines, its boots (from logs), probe results, crash verdicts and the
// edge-versus-origin counts. It is pure: the dashboard's tea.Cmds and the
// headless commands (status, check) fetch data elsewhere (sources/watch) and
// apply it here, so the TUI and `flywake status` show the same model.
package snapshot
