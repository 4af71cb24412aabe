package pane

// WidthMemo remembers what a pane's Height (or Needs) answered at one
// width until Forget: the root lays the panes out after every message,
// and wrapping the same lines again each time is most of what a message
// costs a small app. A pane forgets whenever what it measures changes.
// The zero value remembers nothing.
type WidthMemo struct {
	width, value int
	ok           bool
}

// Get is measure(width), worked out only when the width is not the one
// remembered.
func (w *WidthMemo) Get(width int, measure func(int) int) int {
	if !w.ok || w.width != width {
		w.width, w.value, w.ok = width, measure(width), true
	}
	return w.value
}

// Forget drops what is remembered.
func (w *WidthMemo) Forget() { w.ok = false }
