package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// A server without a concurrency guard, behind a service with no
// hard limit, accepts everything the proxy feeds it and works through the
// queue in order. Clients that give up leave their socket in CLOSE_WAIT
// until the server reaches their request (hundreds in the demo's
// backlog-web); new
// requests queue behind and time out too. A hard limit makes the proxy stop
// sending (it queues or answers 503 itself instead).

// DefaultSoftLimit is Fly's soft_limit when a service sets none; Fly sets no
// hard limit by default (apps/concurrency).
const DefaultSoftLimit = 20

// CLOSE_WAIT sockets on one machine at which the backlog warns, and at which
// it fails when no hard limit stops the proxy. Every reader of the backlog
// (the checklist's concurrency item, the Backlog pane, the Machines pane's
// badge) judges by CloseWaitLevel.
const (
	CloseWaitWarn = 10
	CloseWaitFail = 50
)

// CloseWaitLevel grades one machine's CLOSE_WAIT count.
func CloseWaitLevel(closeWait int, hardLimited bool) Level {
	switch {
	case closeWait >= CloseWaitFail && !hardLimited:
		return Fail
	case closeWait >= CloseWaitWarn:
		return Warn
	}
	return Pass
}

// Concurrency is a service's concurrency block as the platform applies it.
type Concurrency struct {
	Type string // "connections" or "requests"
	Soft int
	Hard int // 0: none
	// Configured: the service has a concurrency block (else the defaults apply).
	Configured bool
}

// HardLimit spells the hard limit for people: "none" when there is none,
// never "0" (which reads like a limit of zero).
func (c Concurrency) HardLimit() string {
	if c.Hard <= 0 {
		return "none"
	}
	return words.Thousands(c.Hard)
}

// SoftLimit is the soft limit in force: Fly's default when none is set.
func (c Concurrency) SoftLimit() int {
	if c.Soft <= 0 {
		return DefaultSoftLimit
	}
	return c.Soft
}

// Kind is the type in force ("connections" by default).
func (c Concurrency) Kind() string {
	if c.Type == "" {
		return "connections"
	}
	return c.Type
}

// BacklogMachine is what the backlog verdict weighs for one machine.
type BacklogMachine struct {
	ID    string
	State string
	// Served: the machine has a service the proxy routes to (a worker
	// without one has no limits to judge).
	Served bool
	Conc   Concurrency
	// Sockets counts /proc/net/tcp{,6} rows by state; nil when not probed.
	Sockets  map[string]int
	ProbedAt time.Time
	ProbeErr string
}

// CloseWait is the machine's CLOSE_WAIT count, -1 when not probed.
func (m BacklogMachine) CloseWait() int {
	if m.Sockets == nil {
		return -1
	}
	return m.Sockets["CLOSE_WAIT"]
}

// Level grades the machine (Unknown when not probed, NA without a service).
func (m BacklogMachine) Level() Level {
	switch {
	case !m.Served:
		return NA
	case m.Sockets == nil:
		return Unknown
	}
	return CloseWaitLevel(m.CloseWait(), m.Conc.Hard > 0)
}

// Reason says why the machine's backlog is graded as it is, with its
// CLOSE_WAIT count and its limits: what an ALERT "backlog" stands for.
func (m BacklogMachine) Reason() string {
	cw := words.Count(m.CloseWait(), "socket", "sockets") + " in CLOSE_WAIT"
	limits := fmt.Sprintf("soft limit %s %s", words.Thousands(m.Conc.SoftLimit()), m.Conc.Kind())
	switch lvl := m.Level(); {
	case lvl == NA:
		return "no service: the proxy routes no traffic here"
	case lvl == Unknown && m.ProbeErr != "":
		return "sockets not read: " + m.ProbeErr
	case lvl == Unknown:
		return "sockets not probed in this boot"
	case lvl == Fail:
		return fmt.Sprintf("%s, no hard limit (%s): the proxy keeps feeding a machine that is drowning", cw, limits)
	case lvl == Warn && m.Conc.Hard > 0:
		return fmt.Sprintf("%s despite a hard limit of %s (%s): clients give up before the app answers", cw, m.Conc.HardLimit(), limits)
	case lvl == Warn:
		return fmt.Sprintf("%s, no hard limit (%s): clients give up before the app answers", cw, limits)
	}
	return fmt.Sprintf("%s; hard limit %s, %s", cw, m.Conc.HardLimit(), limits)
}

// BacklogVerdict is the Backlog pane's one line over every machine, e.g.
// "no hard limit: the proxy keeps feeding machines that are drowning — 969
// sockets in CLOSE_WAIT on 2 machines".
func BacklogVerdict(ms []BacklogMachine) Verdict {
	probed, served := 0, 0
	total, calm := 0, 0 // CLOSE_WAIT on the backed-up machines, and on the rest
	var drowning, backed []string
	allHard, backedHard := true, true // every served machine / every backed-up one has a hard limit
	for _, m := range ms {
		if !m.Served {
			continue
		}
		served++
		allHard = allHard && m.Conc.Hard > 0
		if m.Sockets == nil {
			continue
		}
		probed++
		switch m.Level() {
		case Fail:
			drowning = append(drowning, m.ID)
		case Warn:
			backed = append(backed, m.ID)
			backedHard = backedHard && m.Conc.Hard > 0
		default:
			calm += m.CloseWait()
			continue
		}
		total += m.CloseWait()
	}
	machines := func(n int) string { return words.Count(n, "machine", "machines") }
	sockets := words.Count(total, "socket", "sockets") + " in CLOSE_WAIT"
	switch {
	case served == 0:
		return Verdict{NA, "no machine with a service: the proxy routes no traffic here"}
	case probed == 0 && !allHard:
		return Verdict{Unknown, "no hard limit, so a burst queues on the machines; sockets not probed yet: the probe reads /proc/net/tcp{,6} on started machines"}
	case probed == 0:
		return Verdict{Unknown, "sockets not probed yet: the probe reads /proc/net/tcp{,6} on started machines"}
	case len(drowning) > 0:
		// Fail needs a machine without a hard limit (CloseWaitLevel).
		return Verdict{Fail, fmt.Sprintf("no hard limit: the proxy keeps feeding machines that are drowning — %s on %s", sockets, machines(len(drowning)+len(backed)))}
	case len(backed) > 0 && backedHard:
		return Verdict{Warn, fmt.Sprintf("%s despite a hard limit on %s: clients give up before the app answers", sockets, machines(len(backed)))}
	case len(backed) > 0:
		return Verdict{Warn, fmt.Sprintf("%s on %s: clients give up before the app answers, and no hard limit stops the proxy", sockets, machines(len(backed)))}
	}
	sockets = words.Count(calm, "socket", "sockets") + " in CLOSE_WAIT"
	if !allHard {
		return Verdict{Pass, fmt.Sprintf("%s on %s probed; no hard limit, so a burst would queue on the machines", sockets, machines(probed))}
	}
	return Verdict{Pass, fmt.Sprintf("%s on %s probed; the hard limit stops the proxy before a machine drowns", sockets, machines(probed))}
}

// SocketStates lists a machine's socket counts, CLOSE_WAIT first, then the
// rest by count: "CLOSE_WAIT 434 · ESTABLISHED 25 · LISTEN 1".
func SocketStates(sockets map[string]int) string {
	states := make([]string, 0, len(sockets))
	for s, n := range sockets {
		if n > 0 {
			states = append(states, s)
		}
	}
	slices.SortFunc(states, func(a, b string) int {
		switch {
		case a == "CLOSE_WAIT":
			return -1
		case b == "CLOSE_WAIT":
			return 1
		case sockets[a] != sockets[b]:
			return sockets[b] - sockets[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(states))
	for i, s := range states {
		parts[i] = fmt.Sprintf("%s %s", s, words.Thousands(sockets[s]))
	}
	return strings.Join(parts, " · ")
}
