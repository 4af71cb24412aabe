package scroll

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/keys"
)

// View scrolls a block of lines: a bubbles/viewport keeps the offset
// (scrolling, paging, clamping, the mouse wheel), moved by the key map's
// navigation keys, so a rebound key scrolls and the viewport's own key map
// never acts. A line wider than the view is cut with an ellipsis
// (cell.Fit), never silently. The zero value is empty; SetSize before View.
type View struct {
	vp    viewport.Model
	raw   []string // as given
	lines []string // raw fitted to the width (raw itself when all fit)
}

// SetSize is the size View draws at; the offset is kept in range. At
// width 0 lines are not fitted: the caller cuts Window to its width.
func (v *View) SetSize(width, height int) {
	width, height = max(width, 0), max(height, 0)
	refit := width != v.vp.Width
	v.vp.Width, v.vp.Height = width, height
	if refit {
		v.refit()
	}
	v.vp.SetYOffset(v.vp.YOffset)
}

// SetLines replaces the content, one entry per line, and keeps the offset
// in range. View keeps lines: do not change them afterwards.
func (v *View) SetLines(lines []string) {
	v.raw = lines
	v.refit()
}

func (v *View) refit() {
	fitted, cloned := v.raw, false
	if w := v.vp.Width; w > 0 {
		for i, l := range v.raw {
			if ansi.StringWidth(l) <= w {
				continue
			}
			if !cloned {
				fitted, cloned = slices.Clone(v.raw), true
			}
			fitted[i] = cell.Fit(l, w, cell.Left)
		}
	}
	// The panes set their lines on every refresh, and most refreshes change
	// nothing: the viewport need not split its content again.
	same := slices.Equal(fitted, v.lines)
	v.lines = fitted
	if !same {
		v.vp.SetContent(strings.Join(fitted, "\n"))
	}
	v.vp.SetYOffset(v.vp.YOffset)
}

// HandleKey scrolls for the navigation keys of km (up, down, page up and
// down, home, end) and reports whether the key was one of them.
func (v *View) HandleKey(msg tea.KeyMsg, km keys.KeyMap) bool {
	switch {
	case key.Matches(msg, km.Up):
		v.vp.ScrollUp(1)
	case key.Matches(msg, km.Down):
		v.vp.ScrollDown(1)
	case key.Matches(msg, km.PageUp):
		v.vp.PageUp()
	case key.Matches(msg, km.PageDown):
		v.vp.PageDown()
	case key.Matches(msg, km.Home):
		v.vp.GotoTop()
	case key.Matches(msg, km.End):
		v.vp.GotoBottom()
	default:
		return false
	}
	return true
}

// ScrollBy moves n lines down (up when negative), as the mouse wheel does.
func (v *View) ScrollBy(n int) {
	if n < 0 {
		v.vp.ScrollUp(-n)
	} else if n > 0 {
		v.vp.ScrollDown(n)
	}
}

// Top scrolls back to the first line.
func (v *View) Top() { v.vp.GotoTop() }

// ScrollTo puts line (0-based) at the top, kept in range.
func (v *View) ScrollTo(line int) { v.vp.SetYOffset(line) }

// Height is the SetSize height: how many lines the view shows.
func (v View) Height() int { return v.vp.Height }

// Offset is the first line shown.
func (v View) Offset() int { return v.vp.YOffset }

// Lines is how many lines the content has.
func (v View) Lines() int { return len(v.lines) }

// Below is how many lines are past the bottom of the view.
func (v View) Below() int {
	return max(len(v.lines)-v.vp.YOffset-v.vp.Height, 0)
}

// Scrolls reports whether the content is taller than the view.
func (v View) Scrolls() bool { return len(v.lines) > v.vp.Height }

// Window is the lines in view, at most the SetSize height of them.
func (v View) Window() []string {
	top := min(v.vp.YOffset, len(v.lines))
	return v.lines[top:min(top+v.vp.Height, len(v.lines))]
}

// View draws the lines in view, exactly the SetSize width×height cells.
// It cuts the viewport's window itself: viewport.View renders the same
// cells through lipgloss, 16 more allocations and 7 KB a frame per pane
// (BenchmarkRootView).
func (v View) View() string {
	w, h := v.vp.Width, v.vp.Height
	if w <= 0 || h <= 0 {
		return ""
	}
	return cell.Block(strings.Join(v.Window(), "\n"), w, h)
}
