// Package pane defines what every dashboard pane is to the root model: the
// root routes messages and lays panes out; each pane owns its own state
// (cursor, scroll, expanded rows) and reads the app's model (sources/snapshot)
// it is handed. Panes never do I/O themselves: what they need runs in the
// tea.Cmds they return, and the root addresses those commands' replies back
// to them (see Msg).
package pane

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// ID names a pane: stable, lower case, unique among the registered panes
// and overlays ("machines", "coldstart", "swap", …).
type ID string

// Context is what every pane shares: built once by the root.
type Context struct {
	Theme    *theme.Theme
	Keys     *keys.KeyMap
	ReadOnly bool
}

// Themed is the shared theme; a test's empty Context gets the coloured
// default.
func (c Context) Themed() *theme.Theme {
	if c.Theme == nil {
		return theme.New(false)
	}
	return c.Theme
}

// KeyMap is a copy of the shared key map (the user's, rebound and
// read-only as the root built it); a test's empty Context gets the default.
func (c Context) KeyMap() keys.KeyMap {
	if c.Keys == nil {
		return keys.Default()
	}
	return *c.Keys
}

// Pane is one tile of the dashboard, or an overlay (see Overlay).
//
// The root calls SetSize whenever the layout changes and before the first
// View; View draws at that size. View must not change the pane: anything
// that depends on the size (a page length, a clamped scroll offset, wrapped
// lines) is worked out in SetSize, SetData or Update.
type Pane interface {
	// ID names the pane; messages addressed to it carry this ID.
	ID() ID
	// Title is the pane's name in its border and in the pane switcher.
	Title() string
	// SetData hands the pane the app's model after it changed, with the
	// platform time it was taken at. Panes derive plain rows here; styling
	// (lipgloss) is View's work, and only for what is on screen.
	SetData(a *snapshot.App, now time.Time)
	// SetSize is the inner size (inside the border) View will draw at.
	SetSize(width, height int)
	// SetStale says the data is the last good one, not a fresh one: the
	// pane dims what it shows until SetStale(false).
	SetStale(stale bool)
	// Update receives key messages while the pane is focused, and the
	// messages addressed to it (the replies to its own commands, unwrapped).
	Update(msg tea.Msg) tea.Cmd
	// View renders exactly the SetSize width×height cells. It is pure.
	View(focused bool, now time.Time) string
	// Height is the number of inner lines the pane wants at this width, to
	// show everything it has (the layout may give it fewer, or more).
	Height(width int) int
	// Keys are the bindings that act in the pane right now, for the footer
	// and help; the root adds its own global keys.
	Keys() []key.Binding
	// Capturing reports whether the pane takes every key (text being typed,
	// a y/N question): the root then treats no key as a global shortcut,
	// and the footer shows only the pane's keys.
	Capturing() bool
}

// Overflow is a pane that knows how much of what it has is off screen; the
// root names it in the pane's bottom border ("↓ 12 more lines"), so a cut
// pane never looks whole.
type Overflow interface {
	// Below is how many lines are past the bottom of the pane as drawn at
	// its size now; scrolls reports whether its up/down keys bring them into
	// view (otherwise only a bigger box, a zoom, shows them).
	Below() (lines int, scrolls bool)
}

// Priority is a pane with lines the layout keeps on screen before it
// gives other panes what they ask for (the Traffic chart's lost and boots
// rows).
type Priority interface {
	// Needs is how many inner lines at width hold what must be seen.
	Needs(width int) int
}

// OrgPane is a pane that reads the org model (snapshot.Org) as well as
// the open app's: the root hands it with SetOrgData whenever either
// changed, after SetData, as it hands the app. The pane keeps what it
// derives, never the model.
type OrgPane interface {
	Pane
	SetOrgData(org *snapshot.Org, now time.Time)
}

// Overlay is a pane that takes the whole body while it is open (the
// checklist, the wake test). It keeps receiving data while closed.
type Overlay interface {
	Pane
	// Open is called each time the overlay is shown; its command's replies
	// are addressed to the overlay.
	Open() tea.Cmd
	// CanClose reports whether esc closes the overlay now; false while esc
	// means something else to it (back out of a question, abort a run).
	CanClose() bool
}

// Msg is a message addressed to one pane. The root wraps every command a
// pane returns so that its reply comes back as a Msg to that pane and
// reaches no other; Gen is the root's app generation when the command was
// made (a reply for an app no longer shown is dropped).
type Msg struct {
	To  ID
	Gen int
	Msg tea.Msg
}

// Base gives a pane the defaults most panes share: the size and the stale
// flag, and no text capture. Embed it and override what differs.
type Base struct {
	width, height int
	stale         bool
}

// SetSize records the size View draws at.
func (b *Base) SetSize(width, height int) { b.width, b.height = max(width, 0), max(height, 0) }

// Size is the size of the last SetSize.
func (b *Base) Size() (width, height int) { return b.width, b.height }

// SetStale records whether the data is stale.
func (b *Base) SetStale(stale bool) { b.stale = stale }

// Stale reports whether the data is stale (draw it dimmed, see Dim).
func (b *Base) Stale() bool { return b.stale }

// Capturing is false: the pane takes no text input.
func (b *Base) Capturing() bool { return false }
