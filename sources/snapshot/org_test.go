package snapshot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	flyapi "github.com/flywake/flywake/sources/fly"
)

// procNetTCP is a socket table with closeWait sockets in CLOSE_WAIT and
// one listener.
func procNetTCP(closeWait int) string {
	var b strings.Builder
	b.WriteString("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n")
	b.WriteString("   0: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1\n")
	for i := range closeWait {
		fmt.Fprintf(&b, "%4d: 0100007F:1F90 0100007F:%04X 08 00000000:00000000 00:00000000 00000000     0        0 %d 1\n", i+1, 40000+i, i+2)
	}
	return b.String()
}

// served is n machines of state whose service has a soft limit only.
func served(prefix, state string, n int) []*fly.Machine {
	var out []*fly.Machine
	for i := range n {
		out = append(out, &fly.Machine{ID: fmt.Sprintf("%s%d", prefix, i), State: state, Region: "ams",
			Config: &fly.MachineConfig{Services: []fly.MachineService{{InternalPort: 8080,
				Concurrency: &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: 25}}}}})
	}
	return out
}

// A background app's BACKLOG cell comes from a sample of its running,
// serving machines: the drowning app is the worst row before anyone opens
// it, a calm one passes, one with nothing running is never probed, and an
// app whose machines serve nothing is n/a.
func TestBackgroundBacklog(t *testing.T) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		app       string
		machines  []*fly.Machine
		closeWait int // on each probed machine; -1: the exec fails
		probes    int // the sample DueSockets picks
		want      diagnose.Level
		known     bool
	}{
		{"drowning-web", served("d", "started", 5), 484, 2, diagnose.Fail, true},
		{"calm-web", served("c", "started", 3), 2, 2, diagnose.Pass, true},
		{"busy-web", served("b", "started", 1), 30, 1, diagnose.Warn, true},
		{"asleep-web", served("s", "stopped", 4), 0, 0, diagnose.Unknown, false},
		{"worker", machinesOf("w", "started", 2), 0, 0, diagnose.NA, true},
		{"unreadable-web", served("u", "started", 2), -1, 2, diagnose.Unknown, false},
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
				res[i] = ExecResult{Stdout: procNetTCP(max(c.closeWait, 0))}
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

// machinesOf is n machines of state that serve nothing.
func machinesOf(prefix, state string, n int) []*fly.Machine {
	var out []*fly.Machine
	for i := range n {
		out = append(out, &fly.Machine{ID: fmt.Sprintf("%s%d", prefix, i), State: state, Config: &fly.MachineConfig{}})
	}
	return out
}
