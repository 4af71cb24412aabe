package fly

import (
	flygo "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
)

// Aliases so callers need not import fly-go (whose package is also named fly).
type (
	Machine              = flygo.Machine
	MachineEvent         = flygo.MachineEvent
	MachineStartResponse = flygo.MachineStartResponse
	MachineExecResponse  = flygo.MachineExecResponse
	LogEntry             = flygo.LogEntry
	App                  = flaps.App
)
