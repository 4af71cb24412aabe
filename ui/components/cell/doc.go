// Package cell holds the small, ANSI-aware text helpers every pane needs:
// fitting a string into an exact number of terminal cells, cutting a block
// to an exact width×height, and compact number and duration formats.
//
// Widths are measured in terminal cells (github.com/charmbracelet/x/ansi),
// never in bytes or runes, so styled text and wide glyphs line up.
package cell
