package diagnose

import (
	"testing"

	fly "github.com/superfly/fly-go"
)

func TestIsCrash(t *testing.T) {
	exit := func(ee *fly.MachineExitEvent, nested bool) *fly.MachineEvent {
		r := &fly.MachineRequest{ExitEvent: ee}
		if nested {
			r = &fly.MachineRequest{MonitorEvent: &fly.MachineMonitorEvent{ExitEvent: ee}}
		}
		return &fly.MachineEvent{Type: "exit", Request: r}
	}
	for _, tc := range []struct {
		name string
		e    *fly.MachineEvent
		want bool
	}{
		{"nil", nil, false},
		{"start event", &fly.MachineEvent{Type: "start"}, false},
		{"exit without payload", &fly.MachineEvent{Type: "exit"}, false},
		{"exit code 1", exit(&fly.MachineExitEvent{ExitCode: 1}, false), true},
		{"nested exit code 1", exit(&fly.MachineExitEvent{ExitCode: 1}, true), true},
		{"clean exit 0 not requested", exit(&fly.MachineExitEvent{ExitCode: 0}, false), false},
		{"requested stop with code", exit(&fly.MachineExitEvent{ExitCode: 143, RequestedStop: true}, false), false},
		{"oom with code 0", exit(&fly.MachineExitEvent{OOMKilled: true}, false), true},
		{"oom 137", exit(&fly.MachineExitEvent{ExitCode: 137, OOMKilled: true}, true), true},
	} {
		if got := IsCrash(tc.e); got != tc.want {
			t.Errorf("%s: IsCrash = %v, want %v", tc.name, got, tc.want)
		}
	}
}
