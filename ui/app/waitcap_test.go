package app

import (
	"context"
	"fmt"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
)

// A large app mid-deploy must not open one long-poll per machine: at most
// maxWaits are in flight; the rest are covered by the fast list refresh.
func TestWaitLongPollsAreCapped(t *testing.T) {
	// The client is never called: the commands are counted, not run.
	c, err := flyc.New(context.Background(), flyc.Config{FlapsURL: "http://127.0.0.1:9", APIURL: "http://127.0.0.1:9", Token: "x"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		starting, want int
	}{{3, 3}, {maxWaits, maxWaits}, {200, maxWaits}}
	for _, tt := range tests {
		m := New(Config{Source: &watch.Source{Client: c, Org: "org", Now: func() time.Time { return t0 }},
			App: "big", Theme: theme.New(true)})
		var ms []*fly.Machine
		for i := 0; i < tt.starting; i++ {
			ms = append(ms, &fly.Machine{ID: fmt.Sprintf("m%03d", i), State: "starting", HostStatus: "ok"})
		}
		ms = append(ms, &fly.Machine{ID: "steady", State: "started", HostStatus: "ok"})
		m.app.ApplyMachines(ms, t0)
		if got := len(m.waitCmds()); got != tt.want {
			t.Errorf("%d machines starting: %d waits started, want %d", tt.starting, got, tt.want)
		}
		if got := len(m.waitCmds()); got != 0 {
			t.Errorf("%d machines starting: a second pass started %d more waits while the first are in flight", tt.starting, got)
		}
	}
}
