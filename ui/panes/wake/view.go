package wake

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/prompt"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
)

// View draws the current stage in exactly the SetSize width×height cells.
func (p *Pane) View(_ bool, _ time.Time) string {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return ""
	}
	lines, hint, scrolls := p.frame()
	return p.compose(lines, hint, scrolls, width, height)
}

// settle hands the scrolling stages' lines to the body's viewport, sized
// to the lines above the notice and hint; Update, Open and SetSize end
// with it, so View finds them in place.
func (p *Pane) settle() {
	width, height := p.Size()
	if width <= 0 || height <= 0 {
		return
	}
	lines, _, scrolls := p.frame()
	if !scrolls {
		lines = nil
	}
	p.body.SetSize(width, max(height-p.footerLines(), 0))
	p.body.SetLines(lines)
}

// frame is the current stage's body lines and key hint, and whether the
// body scrolls.
func (p *Pane) frame() (lines []string, hint string, scrolls bool) {
	width, height := p.Size()
	hint = p.hints(p.stageKeys(true)...)
	switch p.stage {
	case StageReadOnly:
		lines = p.readOnlyLines(width)
	case StageClosed, StageSetup:
		lines, scrolls = p.setupLines(width), true
	case StageConfirm:
		lines = p.confirmLines(width)
	case StageRunning:
		lines = p.liveLines(width, height-p.footerLines())
		hint = p.hints(p.abortKey()) // ctrl+c is the footer's: it is the way out past the pane
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
				"↓ "+words.Count(below, "more line", "more lines")+" ("+pane.Arrows(&p.keys, "").Help().Key+" scroll)"))
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

// hints renders bindings as the footer does: key, then description.
func (p *Pane) hints(bs ...key.Binding) string {
	var parts []string
	for _, b := range bs {
		parts = append(parts, p.theme.Help.ShortKey.Render(b.Help().Key)+" "+p.theme.Help.ShortDesc.Render(b.Help().Desc))
	}
	return strings.Join(parts, p.theme.Help.ShortSeparator.Render(" · "))
}

// stageKeys are the keys that act at the current stage, from the key map:
// the pane's own hint line (withClose: esc "close" too) and the footer
// (Keys; the root's footer names esc itself) both show them.
func (p *Pane) stageKeys(withClose bool) []key.Binding {
	k := &p.keys
	var out []key.Binding
	switch p.stage {
	case StageClosed, StageSetup:
		out = []key.Binding{pane.Relabel(k.Enter, "", "start"), keys.Pair(k.WakeModePrev, k.WakeModeNext, "mode"),
			keys.Pair(k.WakeMore, k.WakeFewer, "requests"), pane.Relabel(k.Refresh, "", "re-read")}
	case StageConfirm:
		return prompt.Keys(&p.keys, "start the test")
	case StageRunning:
		return []key.Binding{p.abortKey(), p.quitNowKey()}
	case StageAborting:
		return []key.Binding{p.quitNowKey()}
	case StageDone:
		out = []key.Binding{pane.Relabel(k.Enter, "", "new test")}
		if p.previous != nil {
			desc := "beside previous"
			if p.compare {
				desc = "hide previous"
			}
			out = append(out, pane.Relabel(k.Compare, "", desc))
		}
		out = append(out, pane.Arrows(k, "scroll"))
	}
	if withClose {
		out = append(out, pane.Relabel(k.Back, "", "close"))
	}
	return out
}

func (p *Pane) abortKey() key.Binding { return pane.Relabel(p.keys.Back, "", "abort") }

func (p *Pane) quitNowKey() key.Binding {
	return pane.Relabel(p.keys.Interrupt, "", "quit now, leaving machines as they are")
}

// Keys are the stage's keys for the footer.
func (p *Pane) Keys() []key.Binding { return p.stageKeys(false) }

func (p *Pane) readOnlyLines(width int) []string {
	return wrap(p.theme.Warn.Render("The wake test is off in read-only mode:")+
		" it stops or suspends the app's machines. Run flywake without --readonly to use it.", width)
}

// wrap breaks s into lines of at most width cells, at spaces when it can.
func wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	return cell.WrapText(s, width)
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
