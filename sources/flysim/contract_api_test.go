package flysim

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/ui/theme"
)

// Contract tests through fly-go v0.5.0: leases, resume from
// suspending, stop timeouts, every machine state, create/update/destroy,
// signal, cordon and the small reads.

// getRaw GETs path and decodes the JSON body into out.
func getRaw(t *testing.T, s *Sim, path string, out any) int {
	t.Helper()
	resp, body := rawDo(t, s, "GET", path, "", nil)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(body, out); err != nil {
			t.Fatalf("GET %s: %v in %s", path, err, body)
		}
	}
	return resp.StatusCode
}

// waitState long-polls (fly-go Wait, looping past 408s) until id is in state.
func waitState(t *testing.T, c *flaps.Client, app, id, state string) {
	t.Helper()
	ctx := ctxT(t)
	for {
		err := c.Wait(ctx, app, id, flaps.WithWaitStates(state), flaps.WithWaitTimeout(10*time.Second))
		if err == nil {
			return
		}
		if httpStatus(err) != 408 || ctx.Err() != nil {
			t.Fatalf("wait %s for %s: %v", id, state, err)
		}
	}
}

// eventSpan is the platform time from the newest event (type, status) to
// the newest one after it with (type2, status2).
func eventSpan(t *testing.T, m *fly.Machine, typ, status, typ2, status2 string) time.Duration {
	t.Helper()
	var from, to int64
	for i := len(m.Events) - 1; i >= 0; i-- { // oldest first
		e := m.Events[i]
		if e.Type == typ && e.Status == status {
			from, to = e.Timestamp, 0
		}
		if from != 0 && to == 0 && e.Timestamp >= from && e.Type == typ2 && e.Status == status2 {
			to = e.Timestamp
		}
	}
	if from == 0 || to == 0 {
		t.Fatalf("events lack %s/%s then %s/%s: %+v", typ, status, typ2, status2, m.Events)
	}
	return time.Duration(to-from) * time.Millisecond
}

// leased runs fn under a lease exactly as flyctl's machine commands do:
// acquire (ttl 120), act with the nonce, release.
func leased(t *testing.T, c *flaps.Client, app, id string, fn func(nonce string) error) {
	t.Helper()
	ctx := ctxT(t)
	ttl := 120
	l, err := c.AcquireLease(ctx, app, id, &ttl)
	if err != nil {
		t.Fatalf("acquire lease on %s: %v", id, err)
	}
	if err := fn(l.Data.Nonce); err != nil {
		t.Fatalf("leased action on %s: %v", id, err)
	}
	if err := c.ReleaseLease(ctx, app, id, l.Data.Nonce); err != nil {
		t.Fatalf("release lease on %s: %v", id, err)
	}
}

func TestContractLeaseActionsBackToBack(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50) // rate limits on, as on Fly
	ctx := ctxT(t)
	id := machineIn(t, s, DemoTuned, "started")
	// `fly machine stop ID` then `fly machine start ID` then `fly machine
	// suspend ID`: six lease calls within a second or so, two per operation.
	leased(t, c, DemoTuned, id, func(nonce string) error {
		return c.Stop(ctx, DemoTuned, fly.StopMachineInput{ID: id}, nonce)
	})
	waitState(t, c, DemoTuned, id, "stopped")
	leased(t, c, DemoTuned, id, func(nonce string) error {
		_, err := c.Start(ctx, DemoTuned, id, nonce)
		return err
	})
	waitState(t, c, DemoTuned, id, "started")
	_, err := c.FindLease(ctx, DemoTuned, id)
	apiErr(t, err, 404, "lease not found")
	if st := s.APIStats(); st["lease_create:"+id].Limited+st["lease_release:"+id].Limited != 0 {
		t.Errorf("lease calls were rate limited: %+v %+v", st["lease_create:"+id], st["lease_release:"+id])
	}

	// Metadata's three operations have a bucket each too: two rounds of
	// set, delete, get in a burst.
	for range 2 {
		if err := c.SetMetadata(ctx, DemoTuned, id, "k", "v"); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteMetadata(ctx, DemoTuned, id, "k"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetMetadata(ctx, DemoTuned, id); err != nil {
			t.Fatal(err)
		}
	}
	// One operation past its burst is still limited: show_lease had one
	// token taken above, so two more pass and the third is refused.
	statuses := []int{}
	for range 3 {
		_, err := c.FindLease(ctx, DemoTuned, id)
		statuses = append(statuses, httpStatus(err))
	}
	if !slices.Equal(statuses, []int{404, 404, 429}) {
		t.Errorf("3 more rapid lease lookups answered %v, want two 404s then a 429", statuses)
	}
}

func TestContractResumeWhileSuspending(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 10)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	id := machineIn(t, s, DemoTuned, "started")
	if err := c.Suspend(ctx, DemoTuned, id, ""); err != nil {
		t.Fatal(err)
	}
	res, err := c.Start(ctx, DemoTuned, id, "")
	if err != nil || res.PreviousState != "suspending" {
		t.Fatalf("start while suspending = %+v, %v", res, err)
	}
	waitState(t, c, DemoTuned, id, "started")
	m, err := c.Get(ctx, DemoTuned, id)
	if err != nil {
		t.Fatal(err)
	}
	if took := eventSpan(t, m, "start", "resuming", "start", "started"); took >= 500*time.Millisecond {
		t.Errorf("start during suspending took %s of platform time to started, want a resume (well under a second)", took)
	}
	if n := countLines(s, DemoTuned, "runner", "Configuring firecracker"); n != 0 {
		// History boots are logged before start; count only since now.
		t.Logf("%d cold boots logged in history", n)
	}

	// A request at the edge while a user suspends the machine is answered
	// by another one: the proxy leaves a machine its user is putting to
	// sleep (proxy's TestChooseRoute), and the suspend completes.
	if err := c.Suspend(ctx, DemoTuned, id, ""); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(s.EdgeURL(DemoTuned) + "/api/health/")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get(MachineIDHeader); resp.StatusCode != 200 || got == id || got == "" {
		t.Errorf("edge request during suspending: %d from %q, want 200 from another machine than %s", resp.StatusCode, got, id)
	}
	waitState(t, c, DemoTuned, id, "suspended")
}

// pushIgnoring pushes an image of app whose PID 1 ignores SIGINT and updates
// id to it, returning once it serves.
func pushIgnoring(t *testing.T, s *Sim, c *flaps.Client, app, id string, stop *fly.StopConfig) {
	t.Helper()
	ctx := ctxT(t)
	ref, err := s.PushImage(app, "deployment-ignores-sigint", ImageBehavior{IgnoreSignals: []string{"SIGINT"}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Get(ctx, app, id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.GetConfig()
	cfg.Image = ref
	if stop != nil {
		cfg.StopConfig = stop
	}
	if _, err := c.Update(ctx, app, fly.LaunchMachineInput{ID: id, Config: cfg}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, app, id, "started")
}

// The spans are platform time between the stop's event and the exit: the
// scheduler stamps a callback with its scheduled time however late a loaded
// machine runs it, so a kill is exactly its timeout plus the teardown.
func TestContractStopHonoursTimeout(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	id := machineIn(t, s, DemoBacklog, "started")
	pushIgnoring(t, s, c, DemoBacklog, id, nil)

	stopTook := func(in fly.StopMachineInput) (time.Duration, *fly.MachineExitEvent) {
		t.Helper()
		in.ID = id
		if err := c.Stop(ctx, DemoBacklog, in, ""); err != nil {
			t.Fatal(err)
		}
		waitState(t, c, DemoBacklog, id, "stopped")
		m, err := c.Get(ctx, DemoBacklog, id)
		if err != nil {
			t.Fatal(err)
		}
		exit := m.GetLatestEventOfType("exit")
		return eventSpan(t, m, "stop", "stopping", "exit", "stopped"), exit.Request.ExitEvent
	}
	restart := func() {
		t.Helper()
		if _, err := c.Start(ctx, DemoBacklog, id, ""); err != nil {
			t.Fatal(err)
		}
		waitState(t, c, DemoBacklog, id, "started")
	}

	// SIGINT is ignored: the stop waits out its 2 s timeout, then kills.
	took, exit := stopTook(fly.StopMachineInput{Signal: "SIGINT", Timeout: fly.Duration{Duration: 2 * time.Second}})
	if took != 2*time.Second+machines.Teardown || exit.ExitCode != 137 || exit.GuestSignal != 9 || !exit.RequestedStop {
		t.Errorf("ignored SIGINT, timeout 2s: stopped after %s, exit %+v; want 2.15 s and a SIGKILL", took, exit)
	}
	if countLines(s, DemoBacklog, "app", "did not exit within 2s of SIGINT, sending SIGKILL") != 1 {
		t.Errorf("no kill line logged")
	}
	// SIGTERM it handles: a graceful exit (backlog-web takes 1–3 s), well
	// before the 20 s timeout.
	restart()
	took, exit = stopTook(fly.StopMachineInput{Signal: "SIGTERM", Timeout: fly.Duration{Duration: 20 * time.Second}})
	if took < time.Second || took > 3*time.Second || exit.ExitCode != 0 {
		t.Errorf("SIGTERM: stopped after %s, exit %+v; want a 1–3 s graceful exit", took, exit)
	}
	// No signal or timeout in the request: stop_config's apply (fly-go
	// always sends "timeout":"0s").
	pushIgnoring(t, s, c, DemoBacklog, id, &fly.StopConfig{Signal: fly.Pointer("SIGINT"), Timeout: &fly.Duration{Duration: time.Second}})
	took, exit = stopTook(fly.StopMachineInput{})
	if took != time.Second+machines.Teardown || exit.ExitCode != 137 { // 5.15 s without kill_timeout
		t.Errorf("kill_timeout 1s: stopped after %s, exit %+v", took, exit)
	}
	restart()
	pushIgnoring(t, s, c, DemoBacklog, id, &fly.StopConfig{Signal: fly.Pointer("SIGTERM"), Timeout: &fly.Duration{Duration: 10 * time.Second}})
	took, exit = stopTook(fly.StopMachineInput{})
	if took < time.Second || took > 3*time.Second || exit.ExitCode != 0 { // 10.15 s and a kill with SIGINT
		t.Errorf("stop_config.signal SIGTERM: stopped after %s, exit %+v; want the graceful exit", took, exit)
	}
}

// statesProfile is a small, fast app for walking every state.
func statesProfile() AppProfile {
	p := DemoApps()[3] // backlog-web's shape: no swap, autostop off
	p.Name, p.Image, p.Machines, p.InitialAwake, p.VolumeGB = "states-api", "states-api", 1, 1, 0
	p.PlatformBoot, p.InitTook, p.FirstHealth = profile.Seconds(0.3, 0.4), profile.Seconds(0.1, 0.2), profile.Seconds(0.2, 0.3)
	p.Phases = []Phase{{Name: "server start", Took: profile.Seconds(0.3, 0.4)}}
	p.StopTook, p.SuspendTook, p.Resume = profile.Seconds(0.4, 0.5), profile.Seconds(0.4, 0.5), profile.Seconds(0.2, 0.3)
	p.DeployedAgo = 48 * time.Hour
	return p
}

// stateRecorder notes every state each machine of app passes through, as
// the platform changes it (every change closes the machine's channel).
type stateRecorder struct {
	mu   sync.Mutex
	seen map[string]bool
	stop chan struct{}
}

func recordStates(t *testing.T, s *Sim, app string) *stateRecorder {
	rec := &stateRecorder{seen: map[string]bool{}, stop: make(chan struct{})}
	t.Cleanup(func() { close(rec.stop) })
	watched := map[*machines.Machine]bool{}
	watch := func(m *machines.Machine) {
		for {
			s.sched.Lock()
			state, ch := m.State(), m.Changed()
			s.sched.Unlock()
			rec.mu.Lock()
			rec.seen[state] = true
			rec.mu.Unlock()
			select {
			case <-ch:
			case <-rec.stop:
				return
			}
		}
	}
	go func() { // pick up machines as they are created
		for {
			s.sched.Lock()
			var fresh []*machines.Machine
			for _, m := range s.store.App(app).Machines() {
				if !watched[m] {
					watched[m] = true
					fresh = append(fresh, m)
				}
			}
			s.sched.Unlock()
			for _, m := range fresh {
				go watch(m)
			}
			select {
			case <-time.After(time.Millisecond):
			case <-rec.stop:
				return
			}
		}
	}()
	return rec
}

func (r *stateRecorder) add(state string) {
	r.mu.Lock()
	r.seen[state] = true
	r.mu.Unlock()
}

func (r *stateRecorder) states() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for st := range r.seen {
		out = append(out, st)
	}
	sort.Strings(out)
	return out
}

func TestContractEveryState(t *testing.T) {
	t.Parallel()
	p := statesProfile()
	sim := New(Options{NoTraffic: true, Speed: 2, Seed: contractSeed, Apps: []AppProfile{p}})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	c := clientFor(t, sim, sim.Token())
	sim.SetRateLimits(false)
	ctx := ctxT(t)
	rec := recordStates(t, sim, p.Name)
	a := machineIn(t, sim, p.Name, "started")
	get := func(id string) *fly.Machine {
		t.Helper()
		m, err := c.Get(ctx, p.Name, id)
		if err != nil {
			t.Fatal(err)
		}
		rec.add(m.State)
		return m
	}
	cfg := get(a).GetConfig()
	good := cfg.Image

	// created: a machine launched with skip_launch; stopping it is refused.
	b, err := c.Launch(ctx, p.Name, fly.LaunchMachineInput{Config: cfg, SkipLaunch: true})
	if err != nil || b.State != "created" {
		t.Fatalf("launch with skip_launch = %+v, %v", b, err)
	}
	err = c.Stop(ctx, p.Name, fly.StopMachineInput{ID: b.ID}, "")
	apiErr(t, err, 412, "unable to stop machine from current state: 'created'")
	// creating, launch_failed, destroyed: a launch of an image the
	// registry does not have.
	bad := *cfg
	bad.Image = "registry.fly.io/states-api:no-such-tag"
	lf, err := c.Launch(ctx, p.Name, fly.LaunchMachineInput{Config: &bad})
	if err != nil || lf.State != "creating" {
		t.Fatalf("launch of a missing image = %+v, %v", lf, err)
	}
	waitState(t, c, p.Name, lf.ID, "destroyed")
	get(lf.ID)
	// restarting: a user restart.
	if err := c.Restart(ctx, p.Name, fly.RestartMachineInput{ID: a}, ""); err != nil {
		t.Fatal(err)
	}
	if m := get(a); m.State != "restarting" {
		t.Errorf("right after restart: %s, want restarting", m.State)
	}
	waitState(t, c, p.Name, a, "started")
	// suspending, suspended, then stopping, stopped.
	if err := c.Suspend(ctx, p.Name, a, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, p.Name, a, "suspended")
	if err := c.Stop(ctx, p.Name, fly.StopMachineInput{ID: a}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, p.Name, a, "stopped")
	// replacing, updating, failed: an update to a missing image; then a good
	// update recovers it, and the old version reads replaced.
	old := get(a).InstanceID
	if m, err := c.Update(ctx, p.Name, fly.LaunchMachineInput{ID: a, Config: &bad}, ""); err != nil || m.State != "replacing" {
		t.Fatalf("update to a missing image = %+v, %v", m, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for get(a).State != "failed" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	// A start of the failed machine tries the missing image again and fails again.
	if res, err := c.Start(ctx, p.Name, a, ""); err != nil || res.PreviousState != "failed" {
		t.Fatalf("start of a failed machine = %+v, %v", res, err)
	}
	time.Sleep(20 * time.Millisecond)
	for get(a).State != "failed" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	fixed := *cfg
	fixed.Image = good
	if _, err := c.Update(ctx, p.Name, fly.LaunchMachineInput{ID: a, Config: &fixed}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, p.Name, a, "started")
	var v machines.MachineJSON
	if code := getRaw(t, sim, "/v1/apps/"+p.Name+"/machines/"+a+"?version="+old, &v); code != 200 || v.State != "replaced" {
		t.Errorf("old version %s: %d %s, want replaced", old, code, v.State)
	}
	rec.add(v.State)
	// migrated: a host migration; the old version reads migrated.
	current := get(a).InstanceID
	if err := sim.Migrate(p.Name, a); err != nil {
		t.Fatal(err)
	}
	if code := getRaw(t, sim, "/v1/apps/"+p.Name+"/machines/"+a+"?version="+current, &v); code != 200 || v.State != "migrated" {
		t.Errorf("pre-migration version: %d %s, want migrated", code, v.State)
	}
	rec.add(v.State)
	if m := get(a); m.GetLatestEventOfType("launch").Source != "flyd" {
		t.Errorf("migration left no launch/created/flyd event: %+v", m.Events)
	}
	// destroying, destroyed.
	if err := c.Destroy(ctx, p.Name, fly.RemoveMachineInput{ID: a, Kill: true}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, p.Name, a, "destroyed")
	get(a)

	th := theme.New(false)
	for _, want := range documentedStates {
		if !slices.Contains(rec.states(), want) {
			t.Errorf("state %q never reached; reached %v", want, rec.states())
		}
	}
	for _, st := range rec.states() {
		if diagnose.Classify(st) == diagnose.PhaseUnknown {
			t.Errorf("flysim produced %q, which diagnose does not know", st)
		}
		if look := th.State(st); look.Glyph == theme.GlyphUnknown || look.Word != st {
			t.Errorf("the dashboard draws %q as %q", st, look.Plain())
		}
	}
}

// documentedStates are the docs' machine states (machine-states page).
var documentedStates = []string{
	"creating", "created", "starting", "started", "stopping", "stopped", "suspending", "suspended",
	"restarting", "updating", "replacing", "destroying", "destroyed", "failed", "launch_failed",
	"replaced", "migrated",
}

func TestContractCreateUpdateDestroy(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	tmpl, err := c.Get(ctx, DemoTuned, machineIn(t, s, DemoTuned, "started"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := tmpl.GetConfig()
	// Create, holding a lease from the start (lease_ttl).
	m, err := c.Launch(ctx, DemoTuned, fly.LaunchMachineInput{Config: cfg, Region: "ams", Name: "green-one", LeaseTTL: 60})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "green-one" || m.Region != "ams" || m.LeaseNonce == "" || len(m.InstanceID) != 26 ||
		m.Events[0].Type != "launch" || m.Events[0].Status != "created" || m.Events[0].Source != "user" {
		t.Fatalf("created machine = %+v", m)
	}
	nonce := m.LeaseNonce
	waitState(t, c, DemoTuned, m.ID, "started")
	ms, err := c.List(ctx, DemoTuned, "")
	if tuned := DemoApps()[1]; err != nil || len(ms) != tuned.MachineCount()+1 {
		t.Fatalf("list after create: %d machines, %v", len(ms), err)
	}
	// Update to a new release under the lease: a new version.
	ref, err := s.PushImage(DemoTuned, "deployment-next", ImageBehavior{})
	if err != nil {
		t.Fatal(err)
	}
	next := *cfg
	next.Image = ref
	next.Metadata = map[string]string{"fly_release_version": "58", "fly_process_group": "app", "fly_platform_version": "v2"}
	_, err = c.Update(ctx, DemoTuned, fly.LaunchMachineInput{ID: m.ID, Config: &next}, "")
	apiErr(t, err, 409, "currently leased by")
	up, err := c.Update(ctx, DemoTuned, fly.LaunchMachineInput{ID: m.ID, Config: &next}, nonce)
	if err != nil {
		t.Fatal(err)
	}
	if up.InstanceID == m.InstanceID || up.State != "replacing" || up.ImageRef.Tag != "deployment-next" ||
		up.Config.Metadata["fly_release_version"] != "58" {
		t.Fatalf("update = state %s version %s image %+v", up.State, up.InstanceID, up.ImageRef)
	}
	waitState(t, c, DemoTuned, m.ID, "started")
	var versions []machines.VersionJSON
	if getRaw(t, s, "/v1/apps/"+DemoTuned+"/machines/"+m.ID+"/versions", &versions); len(versions) != 2 ||
		versions[0].Version != up.InstanceID || versions[1].Version != m.InstanceID || versions[1].State != "replaced" {
		t.Errorf("versions = %+v", versions)
	}
	if err := c.ReleaseLease(ctx, DemoTuned, m.ID, nonce); err != nil {
		t.Errorf("the lease did not survive the update: %v", err)
	}

	// Update to a release that crashes ~2.5 s after every start.
	crashRef, err := s.PushImage(DemoTuned, "deployment-crashes", ImageBehavior{CrashAfter: 2500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	crash := next
	crash.Image = crashRef
	if _, err := c.Update(ctx, DemoTuned, fly.LaunchMachineInput{ID: m.ID, Config: &crash}, ""); err != nil {
		t.Fatal(err)
	}
	var exit *fly.MachineEvent
	deadline := time.Now().Add(10 * time.Second)
	for exit == nil && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		got, err := c.Get(ctx, DemoTuned, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if e := got.GetLatestEventOfType("exit"); e != nil && e.Request != nil && e.Request.ExitEvent != nil && e.Request.ExitEvent.ExitCode == 1 {
			exit = e
			if span := eventSpan(t, got, "start", "started", "exit", "stopped"); span != 2500*time.Millisecond {
				t.Errorf("crashed %s after started, want 2.5 s", span)
			}
		}
	}
	if exit == nil || !exit.Request.ExitEvent.Restarting {
		t.Fatalf("the crashing release never crashed into a restart: %+v", exit)
	}

	// Destroy: refused while running, then forced.
	err = c.Destroy(ctx, DemoTuned, fly.RemoveMachineInput{ID: m.ID}, "")
	apiErr(t, err, 412, "stop it first or pass force=true")
	if err := c.Destroy(ctx, DemoTuned, fly.RemoveMachineInput{ID: m.ID, Kill: true}, ""); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, DemoTuned, m.ID, "destroyed")
	ms, _ = c.List(ctx, DemoTuned, "")
	all, _ := c.List(ctx, DemoTuned, "include_deleted=true")
	tuned := DemoApps()[1]
	if n := tuned.MachineCount(); len(ms) != n || len(all) != n+1 {
		t.Errorf("after destroy: %d listed, %d with include_deleted; want %d and %d", len(ms), len(all), n, n+1)
	}
	if app, err := c.GetApp(ctx, DemoTuned); err != nil || app.MachineCount != int64(tuned.MachineCount()) {
		t.Errorf("machine_count after destroy = %+v, %v", app, err)
	}

	// Bad bodies.
	for _, tt := range []struct{ body, want string }{
		{`{}`, "config is required"},
		{`{"config":{}}`, "image is required"},
		{`{"config":{"image":"x"},"region":"zzz"}`, "invalid region"},
		{`[`, "unexpected end of JSON input"},
	} {
		resp, body := rawDo(t, s, "POST", "/v1/apps/"+DemoTuned+"/machines", tt.body, nil)
		if resp.StatusCode/100 != 4 || !strings.Contains(string(body), tt.want) {
			t.Errorf("create %s: %d %s", tt.body, resp.StatusCode, body)
		}
	}
}

// servedBy asks the edge n times and counts which machines answered.
func servedBy(t *testing.T, s *Sim, app string, n int) map[string]int {
	t.Helper()
	out := map[string]int{}
	for range n {
		resp, err := http.Get(s.EdgeURL(app) + "/health")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		out[resp.Header.Get(MachineIDHeader)]++
	}
	return out
}

func TestContractCordon(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	s.sched.Lock()
	first, second := s.store.App(DemoBacklog).Machines()[0].ID(), s.store.App(DemoBacklog).Machines()[1].ID()
	s.sched.Unlock()
	if got := servedBy(t, s, DemoBacklog, 5); got[first] != 5 {
		t.Fatalf("before cordon: %v, want all on %s (least loaded, first)", got, first)
	}
	if err := c.Cordon(ctx, DemoBacklog, first, ""); err != nil {
		t.Fatal(err)
	}
	var m machines.MachineJSON
	if getRaw(t, s, "/v1/apps/"+DemoBacklog+"/machines/"+first, &m); !m.Cordoned {
		t.Errorf("cordoned machine's JSON says cordoned=false")
	}
	if got := servedBy(t, s, DemoBacklog, 5); got[second] != 5 {
		t.Errorf("cordoned: %v, want all on %s", got, second)
	}
	if err := c.Uncordon(ctx, DemoBacklog, first, ""); err != nil {
		t.Fatal(err)
	}
	if getRaw(t, s, "/v1/apps/"+DemoBacklog+"/machines/"+first, &m); m.Cordoned {
		t.Errorf("uncordoned machine's JSON says cordoned=true")
	}
	if got := servedBy(t, s, DemoBacklog, 5); got[first] != 5 {
		t.Errorf("uncordoned: %v, want all back on %s", got, first)
	}
}

func TestContractSignal(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 20)
	ctx := ctxT(t)
	s.SetRateLimits(false)
	id := machineIn(t, s, DemoBacklog, "started")
	path := "/v1/apps/" + DemoBacklog + "/machines/" + id + "/signal"
	// A signal the app ignores changes nothing.
	if resp, body := rawDo(t, s, "POST", path, `{"signal":"SIGHUP"}`, nil); resp.StatusCode != 200 {
		t.Errorf("SIGHUP: %d %s", resp.StatusCode, body)
	}
	if m, _ := c.Get(ctx, DemoBacklog, id); m.State != "started" {
		t.Errorf("after SIGHUP: %s", m.State)
	}
	// fly-go's Kill ({"signal":9}): exit 137, restarted by on-failure.
	if err := c.Kill(ctx, DemoBacklog, id); err != nil {
		t.Fatal(err)
	}
	m, err := c.Get(ctx, DemoBacklog, id)
	if err != nil {
		t.Fatal(err)
	}
	exit := m.GetLatestEventOfType("exit")
	if m.State != "restarting" || exit == nil || exit.Request.ExitEvent.ExitCode != 137 || exit.Request.ExitEvent.GuestSignal != 9 ||
		!exit.Request.ExitEvent.Restarting || exit.Request.ExitEvent.RequestedStop {
		t.Errorf("after kill: %s, exit %+v", m.State, exit)
	}
	waitState(t, c, DemoBacklog, id, "started")
	for _, tt := range []struct {
		body   string
		status int
	}{{`{"signal":"SIGWINCH"}`, 400}, {`{"signal":99}`, 400}, {`{}`, 400}, {`{"signal":"term"}`, 200}} {
		if resp, body := rawDo(t, s, "POST", path, tt.body, nil); resp.StatusCode != tt.status {
			t.Errorf("signal %s: %d %s, want %d", tt.body, resp.StatusCode, body, tt.status)
		}
	}
	stopped := machineIn(t, s, DemoScaleToZero, "stopped")
	err = c.Kill(ctx, DemoScaleToZero, stopped)
	apiErr(t, err, 412, "machine not running")
}

func TestContractSmallReads(t *testing.T) {
	t.Parallel()
	s, c := contractSim(t, 50)
	ctx := ctxT(t)
	s.SetRateLimits(false)

	apps, err := c.ListApps(ctx, flaps.ListAppsRequest{OrgSlug: "personal"})
	if err != nil || len(apps) != len(DemoApps()) {
		t.Errorf("org_slug=personal: %d apps, %v; want every demo app", len(apps), err)
	}
	if apps, _ := c.ListApps(ctx, flaps.ListAppsRequest{OrgSlug: "someone-else"}); len(apps) != 0 {
		t.Errorf("another org lists %d apps", len(apps))
	}

	// Checks on a machine that is not started, so flyctl's restart waits.
	m, err := c.Get(ctx, DemoTuned, machineIn(t, s, DemoTuned, "suspended"))
	if err != nil || len(m.Checks) != 1 || m.Checks[0].Status != "warning" {
		t.Errorf("suspended machine checks = %+v, %v", m.Checks, err)
	}

	vols, err := c.GetVolumes(ctx, DemoBacklog)
	if err != nil || len(vols) != 2 {
		t.Fatalf("volumes = %+v, %v", vols, err)
	}
	for _, v := range vols {
		if v.Name != "data" || v.SizeGb != 1 || v.AttachedMachine == nil || v.Region != "iad" || v.CreatedAt.IsZero() {
			t.Errorf("volume %+v", v)
		}
		mm, err := c.Get(ctx, DemoBacklog, *v.AttachedMachine)
		if err != nil || len(mm.Config.Mounts) != 1 || mm.Config.Mounts[0].Volume != v.ID || mm.Config.Mounts[0].Path != "/data" {
			t.Errorf("machine of %s mounts %+v, %v", v.ID, mm.Config.Mounts, err)
		}
	}
	one, err := c.GetVolume(ctx, DemoBacklog, vols[0].ID)
	if err != nil || one.ID != vols[0].ID {
		t.Errorf("GetVolume = %+v, %v", one, err)
	}
	snaps, err := c.GetVolumeSnapshots(ctx, DemoBacklog, vols[0].ID)
	if err != nil || len(snaps) != 5 || snaps[0].Status != "created" || !snaps[0].CreatedAt.Before(snaps[4].CreatedAt) {
		t.Errorf("snapshots = %+v, %v", snaps, err)
	}
	_, err = c.GetVolume(ctx, DemoBacklog, "vol_nope")
	apiErr(t, err, 404, "volume not found")
	if vols, err := c.GetVolumes(ctx, DemoTuned); err != nil || len(vols) != 0 {
		t.Errorf("an app without volumes lists %+v, %v", vols, err)
	}

	// Secret names, never values, whatever show_secrets says.
	for _, show := range []bool{false, true} {
		secrets, err := c.ListAppSecrets(ctx, DemoScaleToZero, nil, show)
		if err != nil || len(secrets) != 2 || secrets[0].Name != "DATABASE_URL" || secrets[1].Name != "SECRET_KEY" {
			t.Errorf("secrets = %+v, %v", secrets, err)
		}
		for _, sec := range secrets {
			if sec.Value != nil || sec.Digest == "" {
				t.Errorf("secret %s: value %v digest %q", sec.Name, sec.Value, sec.Digest)
			}
		}
	}
	_, body := rawDo(t, s, "GET", "/v1/apps/"+DemoScaleToZero+"/secrets?show_secrets=true", "", nil)
	if strings.Contains(string(body), "flysim-secret") || strings.Contains(string(body), "postgres://") {
		t.Errorf("secrets body leaks a value: %s", body)
	}
}
