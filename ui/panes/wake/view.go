package wake

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/pane"
)

// View draws the current stage in exactly the SetSize width×height cells.
func (p *Pane) View(_ bool, _ time.Time) string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	lines, hint, scrolls := p.frame()
	return p.compose(lines, hint, scrolls, p.width, p.height)
}

// settle hands the scrolling stages' lines to the body's viewport, sized
// to the lines above the notice and hint; Update, Open and SetSize end
// with it, so View finds them in place.
func (p *Pane) settle() {
	if p.width <= 0 || p.height <= 0 {
		return
	}
	lines, _, scrolls := p.frame()
	if !scrolls {
		lines = nil
	}
	p.body.SetSize(p.width, max(p.height-p.footerLines(), 0))
	p.body.SetLines(lines)
}

// frame is the current stage's body lines and key hint, and whether the
// body scrolls.
func (p *Pane) frame() (lines []string, hint string, scrolls bool) {
	width, height := p.width, p.height
	hint = p.hints(p.keyPairs()...)
	switch p.stage {
	case StageReadOnly:
		lines = p.readOnlyLines(width)
	case StageClosed, StageSetup:
		lines, scrolls = p.setupLines(width), true
	case StageConfirm:
		lines = p.confirmLines(width)
	case StageRunning:
		lines = p.liveLines(width, height-p.footerLines())
		hint = p.hints("esc", "abort") // ctrl+c is the footer's: it is the way out past the pane
	case StageAborting:
		lines, hint = p.liveLines(width, height-p.footerLines()), p.theme.Dim.Render("aborting…")
	case StageDone:
		lines, scrolls = p.resultLines(width), true
	}
	return lines, hint, scrolls
}

// footerLines are the notice (when set) and the key hint.
func (p *Pane) footerLines() int {
	if p.notice != "" {
		return 2
	}
	return 1
}

// compose puts the body above the notice and hint, scrolled when it
// overflows, and fits it all to width×height.
func (p *Pane) compose(lines []string, hint string, scrolls bool, width, height int) string {
	foot := []string{hint}
	if p.notice != "" {
		foot = append([]string{p.theme.Warn.Render(p.notice)}, foot...)
	}
	bodyH := max(height-len(foot), 0)
	if scrolls && len(lines) > bodyH {
		lines = slices.Clone(p.body.Window())
		if below := p.body.Below(); below > 0 && bodyH > 0 && len(lines) == bodyH {
			lines = append(lines[:bodyH-1], p.theme.Dim.Render(
				"↓ "+cell.Thousands(below)+" more lines (↑/↓ scroll)"))
		}
	}
	if len(lines) > bodyH {
		lines = lines[:bodyH]
	}
	for len(lines) < bodyH {
		lines = append(lines, "")
	}
	return cell.Block(strings.Join(append(lines, foot...), "\n"), width, height)
}

// hints renders key/description pairs in the footer's styles.
func (p *Pane) hints(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, p.theme.Help.ShortKey.Render(pairs[i])+" "+p.theme.Help.ShortDesc.Render(pairs[i+1]))
	}
	return strings.Join(parts, p.theme.Help.ShortSeparator.Render(" · "))
}

// keyPairs are the keys that act at the current stage, as key/description
// pairs: the pane's own hint line and the footer (Keys) both show them.
func (p *Pane) keyPairs() []string {
	switch p.stage {
	case StageReadOnly:
		return []string{"esc", "close"}
	case StageClosed, StageSetup:
		return []string{"enter", "start", "←/→", "mode", "+/-", "requests", "r", "re-read", "esc", "close"}
	case StageConfirm:
		return []string{"y", "start the test", "any other key", "back"}
	case StageRunning:
		return []string{"esc", "abort", "ctrl+c", "quit now, leaving machines as they are"}
	case StageDone:
		pairs := []string{"enter", "new test"}
		if p.previous != nil {
			if p.compare {
				pairs = append(pairs, "v", "hide previous")
			} else {
				pairs = append(pairs, "v", "beside previous")
			}
		}
		return append(pairs, "↑/↓", "scroll", "esc", "close")
	}
	return nil
}

// Keys are the stage's keys for the footer.
func (p *Pane) Keys() []key.Binding {
	pairs := p.keyPairs()
	if p.stage == StageAborting {
		pairs = []string{"ctrl+c", "quit now, leaving machines as they are"}
	}
	out := make([]key.Binding, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] == "esc" && p.CanClose() {
			continue // closing is the root's: its footer names esc
		}
		out = append(out, pane.Hint(pairs[i], pairs[i+1]))
	}
	return out
}

func (p *Pane) readOnlyLines(width int) []string {
	return wrap(p.theme.Warn.Render("The wake test is off in read-only mode:")+
		" it stops or suspends the app's machines. Run flywake without --readonly to use it.", width)
}

// wrap breaks s into lines of at most width cells, at spaces when it can.
func wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, width, " "), "\n")
}

// indentWrap wraps s at width-n and indents every line by n spaces.
func indentWrap(s string, width, n int) []string {
	lines := wrap(s, max(width-n, 1))
	pad := strings.Repeat(" ", n)
	for i := range lines {
		lines[i] = pad + lines[i]
	}
	return lines
}
