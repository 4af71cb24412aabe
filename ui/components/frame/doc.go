// Package frame holds pure render helpers for the dashboard's chrome: the
// header and footer, the help overlay, pane boxes, the too-small and stale
// notices, and the small charts (sparkline, histogram).
//
// Each helper returns a string of a known size, so the root model can tile
// panes without measuring them. Nothing here builds styles: they come from
// the theme.
package frame
