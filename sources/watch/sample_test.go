package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
)

// status ran 1,001 exec calls on an app of 500 machines (meminfo and
// sockets on each of its started ones, and the bytecode probe). Collect's
// probes are a sample, counted here at the platform: each app's first
// machines of its one process group and image, at most MaxLookExecs calls,
// and no more than MaxCommandExecs over every app one command looks at.
func TestCollectProbesASample(t *testing.T) {
	t.Parallel()
	const apps, perApp = 10, 500
	org := flysim.SteadyOrg(apps, 20) // the other apps: enough to spend the command's calls
	org[0].Machines, org[0].InitialAwake = perApp, perApp/2
	p := simtest.StartUnlimited(t, flysim.Options{Apps: org, NoTraffic: true, History: time.Minute, Seed: 1})
	src := &Source{Client: p.Client, Org: p.Sim.Org(), Now: p.Sim.Clock().Now}
	execCalls := func() int {
		n := 0
		for k, c := range p.Sim.APICalls() {
			if strings.HasPrefix(k, "exec:") {
				n += c
			}
		}
		return n
	}

	a := collect(t, src, flysim.SteadyAppName(0))
	s := a.Sample
	if s == nil {
		t.Fatal("Collect says nothing of what it probed")
	}
	// One group: its bytecode probe and two machines' meminfo and sockets.
	if got := execCalls(); got != 5 || s.Execs != got || s.Started != perApp/2 || s.Probed != 2 || s.Groups != 1 || s.Capped {
		t.Errorf("first app: %d exec calls at the platform, sample %+v; want 5 calls on 2 of %d started machines", got, *s, perApp/2)
	}

	capped := 0
	for i := 1; i < apps; i++ {
		if b := collect(t, src, flysim.SteadyAppName(i)); b.Sample.Capped {
			capped++
			if b.Sample.Execs != b.Sample.Limit {
				t.Errorf("%s: a capped sample made %d calls, its limit %d", b.Name, b.Sample.Execs, b.Sample.Limit)
			}
		}
	}
	if got := execCalls(); got != MaxCommandExecs {
		t.Errorf("%d apps: %d exec calls in all, want the command's %d", apps, got, MaxCommandExecs)
	}
	if capped == 0 {
		t.Error("no app says its sample was cut, though the command ran out of exec calls")
	}
}
