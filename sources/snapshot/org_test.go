package snapshot

import (
	"fmt"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	flyapi "github.com/flywake/flywake/sources/fly"
)

// machines is n machines of state (ids prefix0, prefix1, …); serving ones
// have a service with a soft limit only, as backlog-web's.
func machines(prefix, state string, n int, serving bool) []*fly.Machine {
	var out []*fly.Machine
	for i := range n {
		m := flyMachine(fmt.Sprintf("%s%d", prefix, i), state, "d1", t0)
		if serving {
			m.Config.Services = []fly.MachineService{{InternalPort: 8080,
				Concurrency: &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: 25}}}
		}
		out = append(out, m)
	}
	return out
}

// A background app's BACKLOG cell comes from a sample of its running,
// serving machines: the drowning app is the worst row before anyone opens
// it, a calm one passes, one with nothing running is never probed, and an
// app whose machines serve nothing is n/a.
func TestBackgroundBacklog(t *testing.T) {
	cases := []struct {
		app       string
		machines  []*fly.Machine
		closeWait int // on each probed machine; -1: the exec fails
		probes    int // the sample DueSockets picks
		want      diagnose.Level
		known     bool
	}{
		{"drowning-web", machines("d", "started", 5, true), 484, 2, diagnose.Fail, true},
		{"calm-web", machines("c", "started", 3, true), 2, 2, diagnose.Pass, true},
		{"busy-web", machines("b", "started", 1, true), 30, 1, diagnose.Warn, true},
		{"asleep-web", machines("s", "stopped", 4, true), 0, 0, diagnose.Unknown, false},
		{"worker", machines("w", "started", 2, false), 0, 0, diagnose.NA, true},
		{"unreadable-web", machines("u", "started", 2, true), -1, 2, diagnose.Unknown, false},
	}
	for _, c := range cases {
		t.Run(c.app, func(t *testing.T) {
			o := NewOrg("org", nil)
			o.ApplyApps([]string{c.app}, nil, t0)
			o.ApplyListing(c.app, Convert(flyapi.Listing{Machines: c.machines}), nil, t0)
			app, reqs := o.DueSockets(t0, 5*time.Minute, 2)
			if len(reqs) != c.probes || (c.probes > 0) != (app == c.app) {
				t.Fatalf("due: %q with %d probes, want %d", app, len(reqs), c.probes)
			}
			res := make([]ExecResult, len(reqs))
			for i := range reqs {
				res[i] = ExecResult{Stdout: "  sl  local_address rem_address   st\n" + closeWaitRows(max(c.closeWait, 0))}
				if c.closeWait < 0 {
					res[i] = ExecResult{ExitCode: 1, Stderr: "cat: /proc/net/tcp6: No such file or directory"}
				}
			}
			if len(reqs) > 0 {
				o.ApplySockets(app, reqs, res, t0.Add(time.Second))
				if again, _ := o.DueSockets(t0.Add(time.Minute), 5*time.Minute, 2); again != "" {
					t.Errorf("%s due again a minute later", again)
				}
			}
			r := o.Rows(t0.Add(2*time.Second), 30*time.Second)[0]
			if r.BacklogKnown != c.known || r.Backlog != c.want {
				t.Fatalf("backlog known %v %s, want %v %s", r.BacklogKnown, r.Backlog, c.known, c.want)
			}
			if (r.BacklogErr != "") != (c.closeWait < 0) {
				t.Errorf("BacklogErr %q: want one only when the exec failed", r.BacklogErr)
			}
			if c.probes > 0 && c.closeWait >= 0 && r.CloseWait != c.closeWait {
				t.Errorf("%d CLOSE_WAIT, want %d", r.CloseWait, c.closeWait)
			}
			if c.want == diagnose.Fail && r.Level != diagnose.Fail {
				t.Errorf("row level %s: a drowning app must sort with the failing ones", r.Level)
			}
		})
	}
}
