package app

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/components/prompt"
	"github.com/flywake/flywake/ui/panes/machines"
)

// Machine actions (s start, S stop, Z suspend) go: the machines pane asks
// (machines.ActionRequest), the root refuses what makes no sense or asks
// "Stop machine … (started) of app? y/N", and only y sends the call. The
// client runs each call under the machine's lease, so a deploy holding it
// refuses the action before anything changes. One action is in flight at a
// time, so its reply is never confused with another.

// confirm is an open y/N question.
type confirm struct {
	action   machines.Action
	machine  string
	state    string // as listed when asked; y re-checks it
	question prompt.Question
}

// acting is the action call in flight.
type acting struct {
	id      int // the job's
	action  machines.Action
	machine string
}

// onActionRequest answers a pane's request: nothing in read-only mode, a
// refusal notice, or the confirmation prompt.
func (m Model) onActionRequest(r machines.ActionRequest) (tea.Model, tea.Cmd) {
	if m.cfg.ReadOnly || m.keys.IsReadOnly() || m.fatal != nil {
		return m, nil
	}
	if m.acting != nil {
		return m, m.setNotice(noticeWarn, "a "+m.acting.action.String()+" of "+m.acting.machine+
			" is still in flight — try again when it answers")
	}
	mc, ok := m.app.Machine(r.MachineID)
	if !ok {
		return m, m.setNotice(noticeWarn, "machine "+r.MachineID+" is no longer listed — nothing sent")
	}
	if why := refusal(r.Action, mc, m.app.Name); why != "" {
		return m, m.setNotice(noticeWarn, why)
	}
	m.notice = notice{}
	m.confirm = &confirm{action: r.Action, machine: mc.ID, state: mc.State, question: prompt.Question{
		Text: promptText(r.Action, mc.ID, mc.State, m.app.Name), Warnings: actionWarnings(r.Action, mc, m.app.Machines)}}
	return m, nil
}

// updateConfirm answers the prompt: only yes (prompt.YesKey) proceeds,
// any other key cancels.
func (m Model) updateConfirm(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	c := *m.confirm
	m.confirm = nil
	verb := c.action.String()
	if !prompt.YesKey(msg, m.keys) {
		return m, m.setNotice(noticeInfo, verb+" cancelled — nothing was sent to "+c.machine)
	}
	mc, ok := m.app.Machine(c.machine)
	switch {
	case !ok:
		return m, m.setNotice(noticeWarn, "machine "+c.machine+" is no longer listed — nothing sent")
	case mc.State != c.state:
		return m, m.setNotice(noticeWarn, "machine "+c.machine+" is "+mc.State+" now (was "+c.state+
			") — nothing sent; ask again if you still want to "+verb+" it")
	case !m.cfg.Source.Ready():
		return m, m.setNotice(noticeFail, "no platform to "+verb+" "+c.machine+" on — nothing sent")
	}
	m.notice = notice{kind: noticeInfo, text: "sending " + verb + " to " + c.machine + "…"}
	return m, m.actionCmd(c.action, c.machine)
}

// actionCmd asks the data layer to make the call (watch.Source.Act says
// what each sends).
func (m *Model) actionCmd(a machines.Action, id string) tea.Cmd {
	j := m.sched.Ask(watch.Job{Kind: watch.ActJob, Machine: id, Action: watchAction(a)})
	m.acting = &acting{id: j.ID, action: a, machine: id}
	return m.schedule()
}

// watchAction is the pane's action as the data layer sends it.
func watchAction(a machines.Action) watch.Action {
	switch a {
	case machines.ActionStart, machines.ActionResume: // a start of a suspended machine resumes it
		return watch.Start
	case machines.ActionStop:
		return watch.Stop
	case machines.ActionSuspend:
		return watch.Suspend
	}
	return 0
}

// onAction shows the outcome and lists the machines at once; the wait
// long-polls then follow the transition.
func (m *Model) onAction(msg watch.Reply) tea.Cmd {
	if m.acting == nil || msg.ID != m.acting.id {
		return nil // not the call in flight
	}
	a := m.acting
	m.acting = nil
	verb, machine, err := a.action.String(), a.machine, msg.Err
	var note tea.Cmd
	refusal := watch.RefusalOf(err)
	switch {
	case err == nil:
		note = m.setNotice(noticeInfo, verb+" sent to "+machine+" — watching it settle")
	case refusal.Held:
		// A deploy (or another operator) holds the machine: nothing was sent.
		note = m.setNotice(noticeWarn, verb+" not sent: "+m.redact(cell.OneLine(refusal.Text)))
	case refusal.Refused:
		// The API's own words, as they came: they say what the platform wants.
		note = m.setNotice(noticeFail, "Fly refused to "+verb+" "+machine+": "+m.redact(refusal.Text))
	default:
		note = m.setNotice(noticeFail, verb+" of "+machine+" failed: "+m.redact(cell.OneLine(err.Error())))
	}
	return note // the scheduler lists the machines at once: the waits then follow the transition
}

// redact scrubs every secret (the token) from s; the client's errors are
// already clean, this is the second line of defence.
func (m *Model) redact(s string) string { return sanitize.Redact(s, m.cfg.Secrets...) }
