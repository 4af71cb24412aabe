package checklist

import (
	"fmt"

	"github.com/flywake/flywake/sources/diagnose"
)

// Input is one of the platform's answers the checklist reads.
type Input string

const (
	// InputMachines is the machines listing (their config, states and
	// events); without it nothing else was read either.
	InputMachines Input = "machines"
	InputLogs     Input = "logs"    // the logs API: boot history
	InputMetrics  Input = "metrics" // Prometheus: edge and app response counts
	InputExec     Input = "exec"    // the exec probes: the image's bytecode, the socket tables
)

// Unread is an input that could not be read, and why.
type Unread struct {
	Cause  diagnose.Cause
	Detail string // one line, already redacted and inert
}

// itemInputs are what each item reads from the platform. Every item reads
// the machines (the deployed config, the release, the probes' targets).
var itemInputs = map[string][]Input{
	IDColdStart:    {InputLogs},
	IDReleaseWork:  {InputLogs},
	IDEdgeOrigin:   {InputMetrics},
	IDBytecode:     {InputExec},
	IDSleepWake:    nil,
	IDCrashLoop:    nil,
	IDConcurrency:  {InputExec},
	IDHealthChecks: nil,
}

// inputNames say what an input is, for the sentence that says it could not
// be read.
var inputNames = map[Input]string{
	InputMachines: "the machines (Machines API)",
	InputLogs:     "the boot logs (logs API)",
	InputMetrics:  "the edge and app response counts (Prometheus)",
	InputExec:     "the exec probes (Machines API exec)",
}

// withUnread is the rule for every item an API failure left unanswered: an
// input it reads could not be read, so what that input would have said is
// unknown and the item cannot pass — it is unknown, with the reason and
// the cause, unless what was read already warns or fails; and the run
// could not check (ExitCannotCheck), as for a project file it could not
// read. An item that only lacks a running machine is not such an item.
func withUnread(it Item, e Evidence) Item {
	inputs := append([]Input{InputMachines}, itemInputs[it.ID]...)
	if _, down := e.Unread[InputMachines]; down {
		inputs = inputs[:1] // nothing else was asked
	}
	for _, in := range inputs {
		u, ok := e.Unread[in]
		if !ok {
			continue
		}
		// The item names the cause; the report's could_not_check holds
		// the whole reason once.
		it.Evidence = append(it.Evidence, Fact{Text: fmt.Sprintf("could not check %s: %s", inputNames[in], u.Cause.Words()), Source: string(in)})
		it.unread = append(it.unread, fmt.Sprintf("could not check %s: %s", inputNames[in], u.Detail))
		if it.Status != Warn && it.Status != Fail {
			it.Status = Unknown
		}
		it.CouldNotRead = true
		it.Cause = diagnose.FirstCause(it.Cause, u.Cause)
	}
	return it
}
