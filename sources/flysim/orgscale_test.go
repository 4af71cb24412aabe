package flysim

import (
	"testing"
	"time"
)

func TestSteadyOrgStaysSteady(t *testing.T) {
	t.Parallel()
	start := time.Now()
	sim := New(Options{Apps: SteadyOrg(20, 50), NoTraffic: true, History: time.Minute})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("building 1,000 machines took %s", took)
	}
	apps := sim.Apps()
	if len(apps) != 20 || apps[0] != "steady-000" || apps[19] != "steady-019" {
		t.Fatalf("apps = %v", apps)
	}
	sim.sched.Lock()
	defer sim.sched.Unlock()
	started := 0
	for _, name := range apps {
		a := sim.store.App(name)
		if len(a.Machines()) != 50 {
			t.Fatalf("%s has %d machines", name, len(a.Machines()))
		}
		for _, m := range a.Machines() {
			if m.State() == "started" {
				started++
			} else if m.State() != "stopped" {
				t.Errorf("%s/%s is %s", name, m.ID(), m.State())
			}
		}
	}
	if started != 20*25 {
		t.Errorf("%d machines started, want 500", started)
	}
}
