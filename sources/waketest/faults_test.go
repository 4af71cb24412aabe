package waketest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
)

// The Machines API goes away in the middle of a wake test (the edge keeps
// serving, as Fly's proxy would): every result already gathered is kept,
// and the report says which part is missing — the machines' states after
// the burst, and the whole of the run that could not begin.
func TestWakeTestSurvivesAPIOutage(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 3, Token: "flysim_CANARY_5e3f_waketest_outage_0123456789"})
	var pause sync.Once
	var okSeen atomic.Int64
	rep, err := runDemo(t, d, d.setup(flysim.DemoTuned, ModeBoth), context.Background(), func(e Event) {
		if e.Kind == EventRequest && e.Mode == ModeStop && e.Request.OK() && okSeen.Add(1) == 5 {
			pause.Do(func() {
				if err := d.sim.Pause(); err != nil {
					t.Error(err)
				}
			})
		}
	})
	if err := d.sim.Resume(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(err, fly.ErrAPIDown{}) {
		t.Fatalf("Run = %v, want the API outage (ErrAPIDown)", err)
	}
	if rep == nil || len(rep.Runs) != 2 {
		t.Fatalf("report %+v, want both runs", rep)
	}
	stop, sus := rep.Runs[0], rep.Runs[1]
	// The burst went through the edge: every request and its result is kept.
	if stop.Sent != stop.Requests || len(stop.Results) != stop.Sent || stop.OK+stop.Failed != stop.Sent || stop.OK < 5 {
		t.Errorf("stop run: %d sent of %d, %d results, %d ok, %d failed", stop.Sent, stop.Requests, len(stop.Results), stop.OK, stop.Failed)
	}
	if stop.Missing != "" || stop.Aborted {
		t.Errorf("stop run lost nothing but says missing %q, aborted %v", stop.Missing, stop.Aborted)
	}
	if !strings.Contains(strings.Join(stop.Notes, "\n"), "the last read of the machines failed") {
		t.Errorf("stop run notes %q do not say the machines' final states are stale", stop.Notes)
	}
	// The suspend run could not list the machines: nothing sent, and it says so.
	want := "requests 1–" + strconv.Itoa(sus.Requests) + " not sent: could not list the machines"
	if sus.Sent != 0 || len(sus.Results) != 0 || sus.Missing != want {
		t.Errorf("suspend run: sent %d, missing %q; want %q", sus.Sent, sus.Missing, want)
	}
	checkNoToken(t, rep, d.sim.Token())
	t.Logf("outage mid-burst: stop run %d/%d ok kept; suspend run: %s", stop.OK, stop.Sent, sus.Missing)
}
