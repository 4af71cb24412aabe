// Package scroll is how panes scroll, in two shapes:
//
//   - View: a block of lines the pane has built, in a bubbles/viewport
//     moved by the key map's navigation keys (bytecode, traffic, the wake
//     test's setup and result, a machine's drill-down).
//   - Window and Reveal: the one clamp for lists that keep a cursor on
//     screen and draw only the rows in view (the table, the cold-start
//     history, the logs view, the checklist). A viewport holds its whole
//     content as lines, so it cannot serve a list that must stay
//     O(visible) per frame and per move.
package scroll

// Window is the first row of a page-row window over n rows that shows row
// cursor, as near to offset as it can be and with no blank rows after the
// last one.
func Window(offset, cursor, page, n int) int {
	return Reveal(offset, cursor, cursor+1, page, n)
}

// Reveal is the first row of a page-row window over n rows that shows the
// rows start..end-1 (an item of several lines), moving as little as it can
// from offset. When they do not all fit, start stays in view.
func Reveal(offset, start, end, page, n int) int {
	page = max(page, 1)
	offset = max(offset, end-page)
	offset = min(offset, start)
	return Clamp(offset, page, n)
}

// Clamp keeps offset within 0..n-page: no blank rows after the last one.
func Clamp(offset, page, n int) int {
	return min(max(offset, 0), max(n-max(page, 1), 0))
}
