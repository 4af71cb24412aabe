package wake

import (
	"fmt"
	"strings"

	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/waketest"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/prompt"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/theme"
)

// labelW is the width of the setup's field labels.
const labelW = 10

func (p *Pane) setupLines(width int) []string {
	t := p.theme
	head := p.bold.Render("Wake test of " + p.base.App)
	if p.plan != nil {
		head += t.Dim.Render(" · process group " + p.plan.ProcessGroup)
		if p.plan.Release != "" {
			head += t.Dim.Render(" · release " + words.Release(p.plan.Release))
		}
	}
	if p.preparing {
		head += t.Dim.Render(" · reading the machines…")
	}
	lines := []string{head, ""}
	field := func(label, value string) {
		lines = append(lines, cell.Fit(t.Dim.Render(label), labelW, cell.Left)+value)
	}
	// The chooser's labels are padded (the selection is a reverse-video
	// block), so every other value starts one cell in to line up.
	field("mode", p.modeChooser()+t.Dim.Render("  ←/→ or 1 2 3"))
	field("requests", " "+p.requestsText())
	if p.plan != nil {
		field("path", " "+p.plan.Path+t.Dim.Render(" at "+p.plan.URL+", through the edge"))
	}
	timeout := " " + words.Duration(p.timeout(), words.Tenths) + " per request, platform time"
	if p.base.Speed > 1 {
		timeout += fmt.Sprintf(" (the demo clock runs %g× faster)", p.base.Speed)
	}
	field("timeout", timeout)
	lines = append(lines, "")

	switch {
	case p.prepErr != nil:
		lines = append(lines, wrap(t.Fail.Render(theme.GlyphFail+" cannot plan the test: ")+p.errLine(p.prepErr), width)...)
		lines = append(lines, t.Dim.Render(keys.Short(p.keys.Refresh)+" reads the machines again"))
		return lines
	case p.plan == nil:
		return append(lines, t.Dim.Render("reading the machines of "+p.base.App+"…"))
	}
	return append(lines, p.targetLines(p.plan, width)...)
}

func (p *Pane) timeout() time.Duration {
	if p.base.Timeout > 0 {
		return p.base.Timeout
	}
	return waketest.DefaultTimeout
}

// modeChooser shows the three modes with the chosen one selected; the
// selection is reverse video, visible without colour.
func (p *Pane) modeChooser() string {
	var parts []string
	for _, m := range modes {
		label := " " + string(m) + " "
		if m == p.mode {
			parts = append(parts, p.theme.Selected.Render(label))
		} else {
			parts = append(parts, label)
		}
	}
	return strings.Join(parts, " ")
}

func (p *Pane) requestsText() string {
	t := p.theme
	n := p.shownRequests()
	s := p.bold.Render(cell.Thousands(n))
	switch {
	case p.plan == nil:
	case p.requests == 0 || p.requests == p.plan.Requests:
		s += t.Dim.Render(fmt.Sprintf(" (default: max(%d, %d running × soft limit %d + 1))",
			waketest.MinDefaultRequests, p.plan.Running, p.plan.SoftLimit))
	default:
		s += t.Dim.Render(fmt.Sprintf(" (default %d; 0 restores it)", p.plan.Requests))
	}
	return s + t.Dim.Render(" · +/- 10")
}

// verb says what the test does to the targets.
func verb(m waketest.Mode) string {
	switch m {
	case waketest.ModeStop:
		return "stop"
	case waketest.ModeSuspend:
		return "suspend"
	}
	return "stop, then suspend,"
}

// targetLines are the preflight: every target with its state and what
// blocks its suspend, the machines kept running, and the warnings.
func (p *Pane) targetLines(plan *waketest.Plan, width int) []string {
	t := p.theme
	// Warnings first: with many targets the table scrolls, they must not.
	lines := p.warningLines(plan, width)
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	lines = append(lines, t.TableHeader.Render("TARGETS")+
		t.Dim.Render(fmt.Sprintf("  %d machines to %s", len(plan.Targets), strings.TrimSuffix(verb(plan.Setup.Mode), ","))))
	idW := len("MACHINE")
	for _, tg := range plan.Targets {
		idW = max(idW, ansi.StringWidth(tg.ID))
	}
	const stateW, regionW = 12, 6
	row := func(id, state, region, suspend string) string {
		return cell.Fit(id, idW, cell.Left) + "  " + cell.Fit(state, stateW, cell.Left) + "  " +
			cell.Fit(region, regionW, cell.Left) + "  " + suspend
	}
	lines = append(lines, t.Dim.Render(row("MACHINE", "STATE", "REGION", "SUSPEND")))
	for _, tg := range plan.Targets {
		look := t.State(tg.State)
		suspend := t.Level(diagnose.Pass).Style.Render(theme.GlyphPass + " can suspend")
		if !tg.CanSuspend {
			suspend = t.Level(diagnose.Fail).Style.Render(theme.GlyphFail + " blocked: " + strings.Join(tg.Blockers, ", "))
		}
		lines = append(lines, row(tg.ID, look.Render(), tg.Region, suspend))
	}
	if len(plan.Kept) > 0 {
		lines = append(lines, wrap(t.Dim.Render("kept running (min_machines_running): "+strings.Join(plan.Kept, ", ")), width)...)
	}
	return lines
}

// confirmLines ask y/N, naming the app and every machine the test touches.
func (p *Pane) confirmLines(width int) []string {
	t := p.theme
	plan := p.plan
	v := verb(plan.Setup.Mode)
	q := prompt.Question{Text: fmt.Sprintf("%s %d machines of %s: %s?", strings.ToUpper(v[:1])+v[1:], len(plan.Targets),
		plan.Setup.App, strings.Join(plan.TargetIDs(), ", "))}
	lines := q.Lines(t, width)
	lines = append(lines, "")
	lines = append(lines, wrap(fmt.Sprintf("Then %s requests go at once to %s%s through the edge, the way users arrive; "+
		"anyone using %s meanwhile waits for the machines to wake too.", cell.Thousands(p.plannedRequests()),
		plan.URL, plan.Path, plan.Setup.App), width)...)
	if ws := p.warningLines(plan, width); len(ws) > 0 {
		lines = append(lines, "")
		lines = append(lines, ws...)
	}
	return lines
}

// warningLines are the plan's warnings and, for the request count on
// screen, what would keep the machines staying up from answering the
// requests meant for the sleeping ones (it changes with +/-).
func (p *Pane) warningLines(plan *waketest.Plan, width int) []string {
	warnings := plan.Warnings
	if advice := plan.WakeAdvice(p.shownRequests()); advice != "" {
		warnings = append(append([]string{}, warnings...), advice)
	}
	var lines []string
	for _, w := range warnings {
		ws := indentWrap(w, width, 2)
		ws[0] = p.theme.Warn.Render("!") + ws[0][1:]
		lines = append(lines, ws...)
	}
	return lines
}
