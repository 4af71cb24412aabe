package app

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
)

// describeCmd asks the data layer for one machine for the machines
// pane's describe view; the answer goes to the pane (onDescribed), and a
// reply for another app's generation is dropped.
func (m *Model) describeCmd(r machines.DescribeRequest) tea.Cmd {
	if !m.cfg.Source.Ready() {
		return m.updatePane(machinesPane(m), machines.Described{MachineID: r.MachineID, Req: r.Req, Err: watch.ErrNoPlatform})
	}
	m.sched.Ask(watch.Job{Kind: watch.DescribeJob, Machine: r.MachineID, Ref: r.Req})
	return m.schedule()
}

// onDescribed hands the describe view its machine.
func (m *Model) onDescribed(r watch.Reply) tea.Cmd {
	err, secrets := r.Err, m.cfg.Secrets
	if err != nil {
		err = errors.New(sanitize.Redact(cell.OneLine(err.Error()), secrets...))
	}
	return m.updatePane(machinesPane(m), machines.Described{MachineID: r.Machine, Req: r.Ref, Lines: r.Lines, Err: err})
}

// machinesPane is the machines tile.
func machinesPane(m *Model) pane.Pane { return m.paneByID(machines.ID) }

// onCopy puts text on the terminal's clipboard through OSC 52 and says so.
func (m *Model) onCopy(c pane.CopyText) tea.Cmd {
	if m.cfg.Clipboard == nil {
		return m.setNotice(noticeWarn, "no terminal clipboard to copy the "+c.What+" to")
	}
	clip, text := m.cfg.Clipboard, c.Text
	return tea.Batch(
		func() tea.Msg { clip(text); return nil },
		m.setNotice(noticeInfo, copied(c)),
	)
}

// copyShown is as much of a copied text as its notice quotes: an id whole,
// a log line by its start (the notice is one line, not the line again).
const copyShown = 32

// copied is the notice for c: what was copied, quoted whole when short,
// else by its start and length, and how it travelled.
func copied(c pane.CopyText) string {
	text := sanitize.Line(c.Text)
	quote := "“" + text + "”"
	if n := ansi.StringWidth(text); n > copyShown {
		quote = "“" + ansi.Truncate(text, copyShown, "…") + "” (" + words.Count(len([]rune(c.Text)), "character", "characters") + ")"
	}
	return "copied the " + c.What + " " + quote + " (OSC 52; tmux needs set-clipboard on)"
}
