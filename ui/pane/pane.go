// Package pane defines what every dashboard pane is to the root model: the
// root routes messages and lays panes out; each pane owns its own state
// (cursor, scroll, expanded rows) and reads the app's model (sources/snapshot)
// it is handed. Panes never do I/O: when they need something they return a
// tea.Cmd built by the root (see Context.Do).
package pane

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// Context is what every pane shares: built once by the root.
type Context struct {
	Theme    *theme.Theme
	Keys     *keys.KeyMap
	ReadOnly bool
}

// Pane is one tile of the dashboard.
type Pane interface {
	// Title is the pane's name in its border and in the pane switcher.
	Title() string
	// SetData hands the pane the app's model after it changed, with the
	// platform time it was taken at. Panes derive their rows here, not in View.
	SetData(a *snapshot.App, now time.Time)
	// Update receives key messages while the pane is focused, and every
	// non-key message. It returns a command, or nil.
	Update(msg tea.Msg) tea.Cmd
	// View renders exactly width×height cells (the root draws the border).
	View(width, height int, focused bool, now time.Time) string
	// Animating reports whether the pane shows something that changes with
	// time alone (a live boot timer), so the root keeps its clock ticking.
	Animating() bool
	// Capturing reports whether the pane is taking raw text input (a filter
	// being typed), so the root must not treat keys as global shortcuts.
	Capturing() bool
}
