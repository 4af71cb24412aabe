package app

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Each handler drops replies from another app generation, applies the data,
// hands it to the panes and arms the next fetch.

func (m *Model) onMachines(msg machinesMsg) []tea.Cmd {
	if msg.gen != m.gen || msg.id < m.fetch.listApplied {
		return nil
	}
	m.fetch.listing = false
	m.fetch.listApplied = msg.id
	if msg.err != nil {
		if isFatal(msg.err) {
			m.fatal = msg.err
			return nil
		}
		delay := m.fail.next()
		m.fail = failure{err: msg.err, delay: delay, retryAt: m.wall().Add(delay)}
		m.setStale(true)
		m.fetch.relist = false
		return []tea.Cmd{m.pollAfter(pollMachines, delay)}
	}
	m.fail = failure{}
	m.setStale(false)
	m.app.ApplyListing(msg.listing, m.now())
	m.setData()
	var cmds []tea.Cmd
	if m.fetch.relist {
		m.fetch.relist = false
		cmds = append(cmds, m.listCmd())
	} else {
		cmds = append(cmds, m.pollAfter(pollMachines, m.listInterval()))
	}
	cmds = append(cmds, m.waitCmds()...)
	return append(cmds, m.probeCmds()...)
}

// listInterval adapts to what the machines are doing.
func (m *Model) listInterval() time.Duration {
	if m.app.Transitioning() {
		return listFast
	}
	return listSteady
}

func (m *Model) onWait(msg waitMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	delete(m.fetch.waits, msg.machine)
	m.fetch.waitEnded[msg.machine] = m.wall()
	if m.ctx.Err() != nil {
		return nil // quitting
	}
	// Reached, timed out or failed: the listing says what the machine is now.
	// (waitCooldown keeps a wait that fails at once from spinning.)
	return m.listCmd()
}

func (m *Model) onLogs(msg logsMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.fetch.logsBusy = false
	if msg.err != nil {
		m.fetch.logsErr = msg.err.Error()
	} else {
		m.fetch.logsErr = ""
	}
	if msg.token != "" {
		m.fetch.logsToken = msg.token
	}
	if len(msg.lines) > 0 || m.app.Boots == nil {
		m.app.ApplyLogs(msg.lines)
		m.setData()
	}
	return m.pollAfter(pollLogs, logsInterval(len(msg.lines) > 0 || msg.err != nil, m.app.Transitioning()))
}

// logsInterval paces the logs poll: every logsEvery while lines arrive or a
// machine is moving (boot phases land in logs), slower on a quiet app, where
// each empty poll only costs a call and a redraw.
func logsInterval(busy, transitioning bool) time.Duration {
	if busy || transitioning {
		return logsEvery
	}
	return logsQuiet
}

func (m *Model) onProbe(msg probeMsg) []tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	delete(m.fetch.probes, probeKey(msg.probe))
	m.app.ApplyProbe(msg.probe, msg.result, m.now())
	m.setData()
	return m.probeCmds()
}

func (m *Model) onMetrics(msg metricsMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.fetch.metricsBusy = false
	eo := msg.metrics
	m.app.Metrics = &eo
	m.setData()
	return m.pollAfter(pollMetrics, metricsEvery)
}

// onPoll runs the fetch whose timer fired, if that timer is still current.
func (m *Model) onPoll(msg pollMsg) tea.Cmd {
	if msg.gen != m.gen || m.fetch.timers[msg.kind] != msg.id || m.fatal != nil {
		return nil
	}
	switch msg.kind {
	case pollMachines:
		return m.listCmd()
	case pollLogs:
		return m.logsCmd()
	default:
		return m.metricsCmd()
	}
}
