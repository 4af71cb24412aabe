package flysim

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/flysim/machines"
)

// Contract tests of what each machine's own config decides (the proxy's
// autostop and wakes, health checks) and of stop's signals, through fly-go.

// waitPlatform waits until d of platform time has passed.
func waitPlatform(t *testing.T, s *Sim, d time.Duration) {
	t.Helper()
	until := s.clock.Now().Add(d)
	deadline := time.Now().Add(10*time.Second + s.clock.WallDuration(d))
	for s.clock.Now().Before(until) {
		if time.Now().After(deadline) {
			t.Fatalf("the platform's clock stood still")
		}
		time.Sleep(s.clock.WallDuration(d) / 20)
	}
}

// machineInRegion picks app's machine in region and state.
func machineInRegion(t *testing.T, s *Sim, app, region, state string) string {
	t.Helper()
	s.sched.Lock()
	defer s.sched.Unlock()
	for _, m := range s.store.App(app).Machines() {
		if m.Region() == region && m.State() == state {
			return m.ID()
		}
	}
	t.Fatalf("%s has no %s machine in %s", app, state, region)
	return ""
}

// TestContractAutostopFollowsMachineConfig: a machine updated to
// autostop off is never put to sleep by the proxy, while one beside it
// that still says suspend is; the app's profile no longer decides.
func TestContractAutostopFollowsMachineConfig(t *testing.T) {
	t.Parallel()
	s := New(Options{NoTraffic: true, Speed: 100, Seed: contractSeed, AutostopInterval: 30 * time.Second})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.SetRateLimits(false)
	c := clientFor(t, s, s.Token())
	ctx := ctxT(t)
	// snappy-api's two machines in ord, outside the primary region: no
	// min_machines_running holds either of them up.
	var ord []string
	s.sched.Lock()
	for _, m := range s.store.App(DemoTuned).Machines() {
		if m.Region() == "ord" {
			ord = append(ord, m.ID())
		}
	}
	s.sched.Unlock()
	if len(ord) != 2 {
		t.Fatalf("snappy-api has %d machines in ord, want 2", len(ord))
	}
	kept, control := ord[0], ord[1]
	m, err := c.Get(ctx, DemoTuned, kept)
	if err != nil {
		t.Fatal(err)
	}
	cfg := *m.Config
	cfg.Services = append([]fly.MachineService(nil), cfg.Services...)
	off := fly.MachineAutostopOff
	cfg.Services[0].Autostop = &off
	if _, err := c.Update(ctx, DemoTuned, fly.LaunchMachineInput{ID: kept, Config: &cfg}, ""); err != nil {
		t.Fatal(err)
	}
	for _, id := range ord {
		if _, err := c.Start(ctx, DemoTuned, id, ""); err != nil && httpStatus(err) != 412 {
			t.Fatal(err)
		}
	}
	waitState(t, c, DemoTuned, kept, "started")
	waitState(t, c, DemoTuned, control, "started")
	since := s.clock.Now()
	waitPlatform(t, s, 3*time.Minute) // six autostop passes
	for _, id := range []string{kept, control} {
		m, err := c.Get(ctx, DemoTuned, id)
		if err != nil {
			t.Fatal(err)
		}
		byProxy := false
		for _, e := range m.Events {
			if e.Source == SourceProxy && !e.Time().Before(since) {
				byProxy = true
			}
		}
		switch id {
		case kept:
			if m.State != "started" || byProxy {
				t.Errorf("the machine with autostop off is %s (events by the proxy: %v)", m.State, byProxy)
			}
		case control:
			if m.State != "suspended" || !byProxy {
				t.Errorf("the machine beside it that autosuspends is %s (events by the proxy: %v)", m.State, byProxy)
			}
		}
	}
}

// TestContractMachineWithoutServices: a machine created with no services
// has no checks and takes no requests from the edge; one with a top-level
// check reports it under its own name.
func TestContractMachineWithoutServices(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	image := "registry.fly.io/snappy-api:deployment-01KB2C0XG4V9R"
	bare, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: &fly.MachineConfig{Image: image}})
	if err != nil {
		t.Fatal(err)
	}
	port, path, kind := 8000, "/healthz", "http"
	checked, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: &fly.MachineConfig{Image: image,
		Checks: map[string]fly.MachineCheck{"alive": {Port: &port, Type: &kind, HTTPPath: &path}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoTuned, bare.ID, "started")
	waitState(t, c, DemoTuned, checked.ID, "started")
	if m, err := c.Get(ctx, DemoTuned, bare.ID); err != nil || len(m.Checks) != 0 {
		t.Errorf("a machine without services reports checks %+v (%v)", m.Checks, err)
	}
	m, err := c.Get(ctx, DemoTuned, checked.ID)
	if err != nil || len(m.Checks) != 1 || m.Checks[0].Name != "alive" {
		t.Fatalf("a machine with one top-level check reports %+v (%v)", m.Checks, err)
	}
	// Forced onto it, a request finds no service: 502 after the patience.
	req, _ := http.NewRequest(http.MethodGet, s.EdgeURL(DemoTuned)+"/", nil)
	req.Header.Set(ForceInstanceHeader, bare.ID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || resp.Header.Get(MachineIDHeader) != "" {
		t.Errorf("a request forced onto a machine without services got %d from %q", resp.StatusCode, resp.Header.Get(MachineIDHeader))
	}
}

// TestContractUserSuspendCompletes: a user's suspend of the only started
// machine completes though a request arrives while it suspends: the proxy
// wakes another machine for it, never the one the user is putting to sleep.
func TestContractUserSuspendCompletes(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	ctx := ctxT(t)
	id := machineInRegion(t, s, DemoTuned, "ams", "started")
	if err := c.Suspend(ctx, DemoTuned, id, ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan *http.Response, 1)
	go func() {
		resp, err := http.Get(s.EdgeURL(DemoTuned) + "/")
		if err == nil {
			resp.Body.Close()
		}
		done <- resp
	}()
	waitState(t, c, DemoTuned, id, "suspended")
	resp := <-done
	if resp == nil || resp.StatusCode != http.StatusOK || resp.Header.Get(MachineIDHeader) == id {
		t.Errorf("the request during the suspend: %v", resp)
	}
	m, err := c.Get(ctx, DemoTuned, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Events {
		if e.Source == SourceProxy {
			t.Errorf("the proxy acted on the machine the user suspended: %s/%s", e.Type, e.Status)
		}
	}
	if len(m.Events) < 2 || m.Events[0].Status != "suspended" || m.Events[1].Status != "suspending" || m.Events[1].Source != SourceUser {
		t.Errorf("events %+v, want suspending by the user, then suspended", m.Events)
	}
}

// TestContractStopSIGKILL: a stop with SIGKILL ends the main process at
// once: exit 137, signal 9, only the VM's teardown after the stop.
func TestContractStopSIGKILL(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	id := machineIn(t, s, DemoScaleToZero, "started")
	if err := c.Stop(ctx, DemoScaleToZero, fly.StopMachineInput{ID: id, Signal: "SIGKILL"}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoScaleToZero, id, "stopped")
	m, err := c.Get(ctx, DemoScaleToZero, id)
	if err != nil {
		t.Fatal(err)
	}
	exit := m.Events[0].Request
	if exit == nil || exit.ExitEvent == nil || exit.ExitEvent.ExitCode != 137 || exit.ExitEvent.GuestSignal != 9 {
		t.Fatalf("exit event %+v, want 137 and signal 9", m.Events[0])
	}
	if took := eventSpan(t, m, "stop", "stopping", "exit", "stopped"); took != machines.Teardown {
		t.Errorf("SIGKILL took %s, want the teardown alone (%s)", took, machines.Teardown)
	}
}

// TestContractAnyImageRuns: a public image (nginx) is pulled and boots as
// a generic server on its configured port, with an image_ref naming
// Fly's Docker Hub mirror, its repository, tag and digest; it runs in
// cdg, one of Fly's regions, while a deprecated region is refused.
func TestContractAnyImageRuns(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 100)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	port, on := 80, true
	cfg := &fly.MachineConfig{Image: "nginx", Services: []fly.MachineService{{Protocol: "tcp", InternalPort: 80, Autostart: &on,
		Ports: []fly.MachinePort{{Port: &port, Handlers: []string{"http"}}}}}}
	m, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: cfg, Region: "cdg"})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoTuned, m.ID, "started")
	m, err = c.Get(ctx, DemoTuned, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	ref := m.ImageRef
	if m.Region != "cdg" || ref.Registry != "docker-hub-mirror.fly.io" || ref.Repository != "library/nginx" || ref.Tag != "latest" ||
		len(ref.Digest) != len("sha256:")+64 {
		t.Errorf("machine in %s runs %+v", m.Region, ref)
	}
	req, _ := http.NewRequest(http.MethodGet, s.EdgeURL(DemoTuned)+"/", nil)
	req.Header.Set(ForceInstanceHeader, m.ID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "nginx") || resp.Header.Get(MachineIDHeader) != m.ID {
		t.Errorf("nginx answered %d %q from %q", resp.StatusCode, body, resp.Header.Get(MachineIDHeader))
	}
	// Its own server (a master and a worker), no app of the org's.
	out, err := c.Exec(ctx, DemoTuned, m.ID, &fly.MachineExecRequest{Cmd: "ls /app; ps aux | grep -c nginx"})
	if err != nil || !strings.Contains(out.StdErr, "No such file") || strings.TrimSpace(out.StdOut) != "2" {
		t.Errorf("inside nginx: %+v, %v", out, err)
	}
	if _, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: cfg, Region: "mad"}); err == nil ||
		!strings.Contains(err.Error(), `use "cdg"`) {
		t.Errorf("a machine in the deprecated mad: %v", err)
	}
	regions, err := c.GetRegions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := 0
	for _, r := range regions.Regions {
		if !r.Deprecated {
			live++
		}
	}
	if len(regions.Regions) != 35 || live != 18 {
		t.Errorf("%d regions, %d of them open; want Fly's 35 and 18", len(regions.Regions), live)
	}
}
