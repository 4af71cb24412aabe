package snapshot

import (
	"reflect"
	"testing"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot/machine"
)

func TestAlerts(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    Machine
		want []Alert
	}{
		{"healthy", Machine{Machine: machine.Machine{HostStatus: "ok"}, Crash: diagnose.CrashVerdict{Kind: diagnose.Steady}}, nil},
		{"unreported host", Machine{}, nil},
		{"host unreachable", Machine{Machine: machine.Machine{HostStatus: "unreachable"}},
			[]Alert{{"host_unreachable", diagnose.Warn, "host unreachable"}}},
		{"host unknown", Machine{Machine: machine.Machine{HostStatus: "unknown"}}, []Alert{{"host_unknown", diagnose.Warn, "host unknown"}}},
		{"crash-looping on a lost host: the crash first", Machine{Machine: machine.Machine{HostStatus: "unreachable"}, Crash: diagnose.CrashVerdict{Kind: diagnose.CrashLooping}},
			[]Alert{{"crash_loop", diagnose.Fail, "crash-loop"}, {"host_unreachable", diagnose.Warn, "host unreachable"}}},
		{"gave up", Machine{Crash: diagnose.CrashVerdict{Kind: diagnose.GaveUp}}, []Alert{{"gave_up", diagnose.Fail, "gave up"}}},
		{"crashed once", Machine{Crash: diagnose.CrashVerdict{Kind: diagnose.Watching}}, []Alert{{"crashed", diagnose.Warn, "crashed"}}},
	} {
		if got := tc.m.Alerts(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
