package pane

// CopyText asks the root to put Text on the terminal's clipboard (OSC 52,
// which terminals and tmux pass to the system clipboard); What names it in
// the notice that says it was copied ("machine id").
type CopyText struct {
	Text string
	What string
}
