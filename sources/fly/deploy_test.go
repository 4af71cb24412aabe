package fly

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
)

// A deploy's calls through the client against flysim: create, update to a
// release that crashes, destroy — each leaving no lease, and update refused
// under someone else's.
func TestLaunchUpdateDestroy(t *testing.T) {
	t.Parallel()
	sim, c := faultSim(t)
	ctx := context.Background()
	app := flysim.DemoTuned
	tmpl, err := c.GetMachine(ctx, app, firstIn(t, c, app, "started"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.LaunchMachine(ctx, app, "", tmpl.GetConfig(), false)
	if err != nil || m.Region != "ams" {
		t.Fatalf("LaunchMachine = %+v, %v", m, err)
	}
	waitFor(t, c, app, m.ID, "started")

	ref, err := sim.PushImage(app, "deployment-crashes", flysim.ImageBehavior{CrashAfter: 2500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	cfg := *m.GetConfig()
	cfg.Image = ref
	up, err := c.UpdateMachine(ctx, app, m.ID, &cfg, false)
	if err != nil || up.InstanceID == m.InstanceID || up.State != "replacing" || up.ImageRef.Tag != "deployment-crashes" {
		t.Fatalf("UpdateMachine = %+v, %v", up, err)
	}
	if _, _, held := sim.Lease(app, m.ID); held {
		t.Errorf("update left its lease")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := c.GetMachine(ctx, app, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if e := got.GetLatestEventOfType("exit"); e != nil && e.Request != nil && e.Request.ExitEvent != nil && e.Request.ExitEvent.ExitCode == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the crashing release never crashed: %+v", got.Events)
		}
		time.Sleep(50 * time.Millisecond)
	}

	if _, err := sim.HoldLease(app, m.ID, "deployer@example.com", "", time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateMachine(ctx, app, m.ID, tmpl.GetConfig(), false); !errors.Is(err, ErrLeaseHeld{}) {
		t.Errorf("update under someone else's lease: %v", err)
	}
	if err := c.DestroyMachine(ctx, app, m.ID, true); !errors.Is(err, ErrLeaseHeld{}) {
		t.Errorf("destroy under someone else's lease: %v", err)
	}

	other := firstIn(t, c, app, "suspended")
	err = c.DestroyMachine(ctx, app, firstIn(t, c, app, "started"), false)
	var pre ErrPrecondition
	if !errors.As(err, &pre) {
		t.Errorf("destroy of a running machine without force: %v, want ErrPrecondition", err)
	}
	if err := c.DestroyMachine(ctx, app, other, false); err != nil {
		t.Fatalf("destroy of a suspended machine: %v", err)
	}
	waitFor(t, c, app, other, "destroyed")
	if _, _, held := sim.Lease(app, other); held {
		t.Errorf("destroy left a lease")
	}
	assertWithinFlyLimits(t, sim)
}
