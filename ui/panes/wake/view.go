package wake

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/ui/components/cell"
)

// View draws the current stage in exactly width×height cells.
func (p *Pane) View(width, height int, _ bool, _ time.Time) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	var lines []string
	var hint string
	scrolls := false
	switch p.stage {
	case StageReadOnly:
		lines, hint = p.readOnlyLines(width), p.hints("esc", "close")
	case StageClosed, StageSetup:
		lines, hint, scrolls = p.setupLines(width), p.setupHint(), true
	case StageConfirm:
		lines, hint = p.confirmLines(width), p.hints("y", "start the test", "any other key", "back")
	case StageRunning:
		lines, hint = p.liveLines(width, height-p.footerLines()), p.hints("esc", "abort")
	case StageAborting:
		lines, hint = p.liveLines(width, height-p.footerLines()), p.theme.Dim.Render("aborting…")
	case StageDone:
		lines, hint, scrolls = p.resultLines(width), p.doneHint(), true
	}
	return p.compose(lines, hint, scrolls, width, height)
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
		last := max(len(lines)-bodyH, 0)
		p.offset = min(p.offset, last) // View clamps so paging past the end stops there
		lines = lines[p.offset:]
		if p.offset < last && bodyH > 0 {
			lines = append(lines[:bodyH-1:bodyH-1], p.theme.Dim.Render(
				"↓ "+itoa(last-p.offset)+" more lines (↑/↓ scroll)"))
		}
	} else if scrolls {
		p.offset = 0
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

func (p *Pane) setupHint() string {
	return p.hints("enter", "start", "←/→", "mode", "+/-", "requests", "r", "re-read", "esc", "close")
}

func (p *Pane) doneHint() string {
	pairs := []string{"enter", "new test"}
	if p.previous != nil {
		if p.compare {
			pairs = append(pairs, "v", "hide previous")
		} else {
			pairs = append(pairs, "v", "beside previous")
		}
	}
	return p.hints(append(pairs, "↑/↓", "scroll", "esc", "close")...)
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

func itoa(n int) string { return cell.Thousands(n) }
