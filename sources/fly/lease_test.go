package fly

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim"
)

// firstIn is the id of app's first machine in state, through the client.
func firstIn(t *testing.T, c *Client, app, state string) string {
	t.Helper()
	ms, err := c.ListMachines(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.State == state {
			return m.ID
		}
	}
	t.Fatalf("%s has no %s machine", app, state)
	return ""
}

func waitFor(t *testing.T, c *Client, app, id, state string) {
	t.Helper()
	if err := c.Wait(context.Background(), app, id, "", 30*time.Second, state); err != nil {
		t.Fatalf("wait %s for %s: %v", id, state, err)
	}
}

func TestActionsRefusedUnderSomeoneElsesLease(t *testing.T) {
	t.Parallel()
	sim, c := faultSim(t)
	ctx := context.Background()
	app := flysim.DemoTuned
	id := firstIn(t, c, app, "started")
	if _, err := sim.HoldLease(app, id, "deployer@example.com", "fly deploy", 2*time.Second); err != nil {
		t.Fatal(err)
	}
	_, wallExpiry, _ := sim.Lease(app, id)
	expires := sim.Clock().Now().Add(sim.Clock().PlatformDuration(time.Until(wallExpiry)))
	sim.ResetAPICalls()
	actions := map[string]func() error{
		"start":   func() error { _, err := c.Start(ctx, app, id); return err },
		"stop":    func() error { return c.Stop(ctx, app, id, "", 0) },
		"suspend": func() error { return c.Suspend(ctx, app, id) },
	}
	for name, act := range actions {
		err := act()
		var held ErrLeaseHeld
		if !errors.As(err, &held) || !errors.Is(err, ErrLeaseHeld{}) {
			t.Fatalf("%s under a held lease: %v, want ErrLeaseHeld", name, err)
		}
		if held.Owner != "deployer@example.com" || held.Machine != id || held.Expires.Sub(expires).Abs() > 2*time.Second {
			t.Errorf("%s: refusal %+v, want the owner and an expiry near %s", name, held, expires)
		}
		if msg := err.Error(); !strings.Contains(msg, "leased by deployer@example.com until ") || !strings.Contains(msg, "nothing was changed") {
			t.Errorf("%s: message %q", name, msg)
		}
		if n := sim.APICalls()[name+":"+id]; n != 0 {
			t.Errorf("%s was sent %d times under someone else's lease", name, n)
		}
	}
	if m, err := c.GetMachine(ctx, app, id); err != nil || m.State != "started" {
		t.Errorf("machine changed under the lease: %v %v", m.State, err)
	}
	if owner, _, ok := sim.Lease(app, id); !ok || owner != "deployer@example.com" {
		t.Errorf("the other holder's lease was touched: %q %v", owner, ok)
	}

	// Once it lapses, the same suspend goes through and leaves no lease.
	time.Sleep(2100 * time.Millisecond)
	if err := c.Suspend(ctx, app, id); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := sim.Lease(app, id); ok {
		t.Errorf("suspend left a lease behind")
	}
	assertWithinFlyLimits(t, sim)
}

func TestBackToBackActionsLeaveNoLease(t *testing.T) {
	sim, c := faultSim(t)
	ctx := context.Background()
	app := flysim.DemoBacklog
	id := firstIn(t, c, app, "started")
	if err := c.Stop(ctx, app, id, "", 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c, app, id, "stopped")
	if _, err := c.Start(ctx, app, id); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := sim.Lease(app, id); ok {
		t.Errorf("stop then start left a lease")
	}
	calls := sim.APICalls()
	for _, k := range []string{"lease_show", "lease_create", "lease_release"} {
		if calls[k+":"+id] != 2 {
			t.Errorf("%s calls = %d, want 2 (one per action)", k, calls[k+":"+id])
		}
	}
	if calls["stop:"+id] != 1 || calls["start:"+id] != 1 {
		t.Errorf("actions sent: %v", calls)
	}
	assertWithinFlyLimits(t, sim)
}

// Looking a lease up before taking it answers 404 "lease not found" when
// nobody holds it: the normal answer, so the header's "last error" stays
// empty through a leased stop (it used to read "GET …/lease: 404 Not Found").
// A 404 that is not that answer (an unknown machine) is still an error.
func TestLeaseLookupNotFoundIsNoError(t *testing.T) {
	_, c := faultSim(t)
	ctx := context.Background()
	app := flysim.DemoBacklog
	id := firstIn(t, c, app, "started")
	if err := c.Stop(ctx, app, id, "", 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c, app, id, "stopped")
	if err := c.CheckLease(ctx, app, id); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.LastError != "" || st.LastOK.IsZero() {
		t.Errorf("after a leased stop: Stats = %+v, want no last error", st)
	}

	if err := c.CheckLease(ctx, app, "0000000000dead"); err == nil {
		t.Fatal("the lease of an unknown machine: no error")
	}
	if st := c.Stats(); !strings.Contains(st.LastError, "404") {
		t.Errorf("after an unknown machine's lease: LastError = %q, want the 404", st.LastError)
	}
}
