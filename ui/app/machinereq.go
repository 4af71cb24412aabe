package app

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
)

// describeTimeout bounds the GET machine behind the describe view.
const describeTimeout = 15 * time.Second

// describeCmd fetches one machine for the machines pane's describe view;
// the answer is addressed to the pane, so a reply for another app's
// generation is dropped.
func (m *Model) describeCmd(r machines.DescribeRequest) tea.Cmd {
	reply := func(lines []string, err error) tea.Msg {
		return machines.Described{MachineID: r.MachineID, Req: r.Req, Lines: lines, Err: err}
	}
	ctx, src, app, secrets := m.genCtx, m.cfg.Source, m.app.Name, m.cfg.Secrets
	return m.addressed(machines.ID, func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, describeTimeout)
		defer cancel()
		lines, err := src.Describe(ctx, app, r.MachineID)
		if err != nil {
			err = errors.New(sanitize.Redact(cell.OneLine(err.Error()), secrets...))
		}
		return reply(lines, err)
	})
}

// onCopy puts text on the terminal's clipboard through OSC 52 and says so.
func (m *Model) onCopy(c pane.CopyText) tea.Cmd {
	if m.cfg.Clipboard == nil {
		return m.setNotice(noticeWarn, "no terminal clipboard to copy the "+c.What+" to")
	}
	clip, text := m.cfg.Clipboard, c.Text
	return tea.Batch(
		func() tea.Msg { clip(text); return nil },
		m.setNotice(noticeInfo, "copied "+c.What+" "+c.Text+" to the clipboard (OSC 52: the terminal, or tmux with set-clipboard, must allow it)"),
	)
}
