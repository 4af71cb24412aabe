package flysim

import (
	"regexp"
	"slices"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"

	"github.com/flywake/flywake/sources/flysim/machines"
)

// What the platform says as it acts on a machine, where a watcher can see
// it: the lines Fly's proxy and runner write, and the wait long-poll's
// answer when a machine passes through the state it waits for.

// linesOf is one machine's lines, oldest first, as "provider: message".
func linesOf(s *Sim, app, id string) []string {
	s.sched.Lock()
	defer s.sched.Unlock()
	var out []string
	for _, ln := range s.logs.Lines(app) {
		if ln.Machine == id {
			out = append(out, ln.Provider+": "+ln.Message)
		}
	}
	return out
}

// machineByID is app's machine id; the caller holds the lock.
func machineByID(s *Sim, app, id string) *machines.Machine {
	for _, m := range s.store.App(app).Machines() {
		if m.ID() == id {
			return m
		}
	}
	return nil
}

// inOrder reports whether lines hold a match of each pattern, one after
// another.
func inOrder(lines []string, patterns ...string) bool {
	i := 0
	for _, l := range lines {
		if i < len(patterns) && regexp.MustCompile(patterns[i]).MatchString(l) {
			i++
		}
	}
	return i == len(patterns)
}

// The proxy's autostart says what the docs' capture shows, in order:
// "Starting machine", the runner's "Machine started in 864ms", the proxy's
// own "machine started in 995.344449ms", then "machine became reachable in
// 679.673085ms" once the app answers.
func TestProxyAutostartLines(t *testing.T) {
	t.Parallel()
	s := startSim(t, Options{Speed: 50})
	id := machineIn(t, s, DemoScaleToZero, "stopped")
	s.sched.Lock()
	m := machineByID(s, DemoScaleToZero, id)
	if _, err := s.store.Start(m, SourceProxy); err != nil {
		s.sched.Unlock()
		t.Fatal(err)
	}
	s.sched.Unlock()
	waitMachine(t, s, m, "started")
	deadline := time.Now().Add(10 * time.Second)
	want := []string{`^proxy: Starting machine$`, `^runner: Machine started in \d`,
		`^proxy: machine started in \d+(\.\d+)?m?s$`, `^proxy: machine became reachable in \d+(\.\d+)?m?s$`}
	for !inOrder(linesOf(s, DemoScaleToZero, id), want...) {
		if time.Now().After(deadline) {
			t.Fatalf("the autostart's lines %q do not hold %q in order", linesOf(s, DemoScaleToZero, id), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A start through the API is the runner's alone.
	id = machineIn(t, s, DemoScaleToZero, "stopped")
	s.sched.Lock()
	m = machineByID(s, DemoScaleToZero, id)
	_, err := s.store.Start(m, SourceUser)
	s.sched.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	waitMachine(t, s, m, "started")
	for _, l := range linesOf(s, DemoScaleToZero, id) {
		if regexp.MustCompile(`^proxy: (Starting machine|machine started in|machine became reachable)`).MatchString(l) {
			t.Errorf("a start through the API logged the proxy's %q", l)
		}
	}
}

// A wait for stopped returns when a crash stops the main process, though
// the restart policy has the machine restarting by the time it answers:
// the exit event says the machine reached stopped.
func TestWaitReturnsOnACrashRestart(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	id := machineIn(t, s, DemoBacklog, "started")
	m, err := c.Get(ctx, DemoBacklog, id)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing happens: the wait runs to its timeout.
	err = c.Wait(ctx, DemoBacklog, id, flaps.WithWaitStates("stopped", "suspended"), flaps.WithWaitVersion(m.InstanceID),
		flaps.WithWaitTimeout(time.Second))
	if err == nil {
		t.Fatal("a wait for stopped on a steady started machine returned")
	}
	answered := make(chan error, 1)
	go func() {
		answered <- c.Wait(ctx, DemoBacklog, id, flaps.WithWaitStates("stopped", "suspended"), flaps.WithWaitVersion(m.InstanceID),
			flaps.WithWaitTimeout(30*time.Second))
	}()
	time.Sleep(100 * time.Millisecond) // the wait is in
	if err := c.Kill(ctx, DemoBacklog, id); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-answered:
		if err != nil {
			t.Fatalf("wait after the crash: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not answer the crash")
	}
	if got, _ := c.Get(ctx, DemoBacklog, id); got == nil || got.State == "stopped" {
		t.Errorf("after the crash the machine is %v; want it restarting (the policy restarts it)", got)
	}
}

// Restart policy "no" says so when the main process exits (Fly's runner:
// "machine restart policy set to 'no', not restarting"); exit 0 under
// on-failure says "machine exited with exit code 0, not restarting".
func TestRunnerNotRestartingLines(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	s.SetRateLimits(false)
	ctx := ctxT(t)
	id := machineIn(t, s, DemoBacklog, "started")
	m, err := c.Get(ctx, DemoBacklog, id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Config
	cfg.Restart = &fly.MachineRestart{Policy: fly.MachineRestartPolicyNo}
	if _, err := c.Update(ctx, DemoBacklog, fly.LaunchMachineInput{ID: id, Config: cfg}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoBacklog, id, "started")
	if err := c.Kill(ctx, DemoBacklog, id); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoBacklog, id, "stopped")
	if !slices.Contains(linesOf(s, DemoBacklog, id), "runner: machine restart policy set to 'no', not restarting") {
		t.Errorf("policy no: lines %q lack the runner's", linesOf(s, DemoBacklog, id))
	}
}
