package machine

import (
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
)

// FromFly keeps what the crash judgement reads of an event list: crashes,
// exit payloads (or their absence), restarts, the nulls it dropped; and
// the release from the config, inert.
func TestFromFly(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	exit := func(code int, restarting bool) *fly.MachineEvent {
		return &fly.MachineEvent{Type: "exit", Status: "stopped", Timestamp: at.UnixMilli(),
			Request: &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{ExitCode: code, Restarting: restarting, ExitedAt: at}}}
	}
	fm := &fly.Machine{ID: "m1", State: "stopped",
		Config: &fly.MachineConfig{Metadata: map[string]string{fly.MachineConfigMetadataKeyFlyReleaseVersion: "4\x1b[2J2"}},
		Events: []*fly.MachineEvent{exit(1, false), nil, {Type: "exit", Timestamp: at.UnixMilli()}, exit(0, true)},
		Checks: []*fly.MachineCheckStatus{nil, {Name: "http", Status: "passing"}},
	}
	m := FromFly(fm)
	if m.Release != "4␛[2J2" || m.Dropped != 2 || len(m.Events) != 3 || len(m.Checks) != 1 {
		t.Fatalf("release %q, dropped %d, %d events, %d checks", m.Release, m.Dropped, len(m.Events), len(m.Checks))
	}
	want := []Event{
		{Type: "exit", Status: "stopped", At: at, Crash: true, ExitCode: 1, ExitRead: true},
		{Type: "exit", At: at},
		{Type: "exit", Status: "stopped", At: at, Restarting: true, ExitRead: true},
	}
	for i, e := range m.Events {
		if !e.At.Equal(want[i].At) {
			t.Errorf("event %d at %v, want %v", i, e.At, want[i].At)
		}
		e.At, want[i].At = time.Time{}, time.Time{}
		if e != want[i] {
			t.Errorf("event %d: %+v, want %+v", i, e, want[i])
		}
	}
	if got := Release(nil); got != "" {
		t.Errorf("no config names release %q", got)
	}
}
