package watch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/rollout"
	"github.com/flywake/flywake/sources/verdict"
)

// gateApp is an app for the gate's tests: the demo's scale-to-zero app
// (its 25–33 s Django boots), n machines all started, no background
// traffic to wake or stop them.
func gateApp(n int, tweak func(p *flysim.AppProfile)) flysim.AppProfile {
	p := flysim.DemoApps()[0]
	p.Name, p.Machines, p.InitialAwake, p.MinRunning = "gate-api", n, n, n
	p.Autostop = "off"
	if tweak != nil {
		tweak(&p)
	}
	return p
}

// fastBoot makes the app boot in about 5 s, like the tuned demo app.
func fastBoot(p *flysim.AppProfile) {
	tuned := flysim.DemoApps()[1]
	p.Phases, p.FirstHealth = tuned.Phases, tuned.FirstHealth
}

// startGate runs a platform with one app and a client on it, through fly-go
// over HTTP like everything else.
func startGate(t *testing.T, speed float64, p flysim.AppProfile) (*flysim.Sim, *Source) {
	t.Helper()
	// Fly's limits are not what the gate's tests are about: unpaced, the
	// platform's time alone paces the looks.
	pl := simtest.StartUnlimited(t, flysim.Options{Seed: 7, Speed: speed, Apps: []flysim.AppProfile{p}, History: -1, NoTraffic: true})
	return pl.Sim, &Source{Client: pl.Client, Org: pl.Sim.Org(), Now: pl.Sim.Clock().Now}
}

// deploy rolls rel (or the image ref, when set) out to every machine, as
// `flywake deploy --demo-release` does, and returns when it is done.
func deploy(t *testing.T, src *Source, app string, rel rollout.Release, image string) rollout.Plan {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	plan, err := src.PlanDemoDeploy(ctx, app, rel)
	if err != nil {
		t.Fatal(err)
	}
	if image != "" {
		plan.Image = image
	}
	if err := src.DemoDeploy(ctx, plan, nil); err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return plan
}

func runVerdict(t *testing.T, src *Source, app string, o VerdictOptions) verdict.Report {
	t.Helper()
	rep := src.Verdict(context.Background(), app, o)
	t.Logf("%s", verdict.Text(rep))
	return rep
}

// untilEventsFull waits (platform time) until every machine's event list is
// full of crash cycles: the condition a crash count misreads.
func untilEventsFull(t *testing.T, src *Source, app string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		l, err := src.Client.List(context.Background(), app)
		if err != nil {
			t.Fatal(err)
		}
		full := true
		for _, m := range l.Machines {
			crashes := 0
			for _, e := range m.Events {
				if diagnose.IsCrash(e) {
					crashes++
				}
			}
			if len(m.Events) < 5 || crashes < 2 || !hasNoUpdate(m.Events) {
				full = false
			}
		}
		if full {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the event lists never filled with crash cycles")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func hasNoUpdate(es []*fly.MachineEvent) bool {
	for _, e := range es {
		if e != nil && e.Type == "update" {
			return false
		}
	}
	return true
}

// The counted-crashes regression, through fly-go against flysim: a release that
// crashes 2.5 s after every start, the platform keeping five events per
// machine, judged once the lists are full. The count of crashes in the list
// is the same at every look — the broken check's "it stopped crashing" —
// and the gate fails the deploy within its timeout.
func TestVerdictCatchesTheCrashLoopACountMisses(t *testing.T) {
	t.Parallel()
	const speed = 16
	_, src := startGate(t, speed, gateApp(2, func(p *flysim.AppProfile) {
		fastBoot(p)
		// The platform keeps restarting it for the whole test (on Fly it
		// gives up after 10 restarts in 5 minutes: 40 s of this loop).
		p.RestartRetries = 1000
	}))
	deploy(t, src, "gate-api", rollout.Crashing, "")
	untilEventsFull(t, src, "gate-api")

	timeout := time.Minute
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: timeout})
	if rep.ExitCode() != verdict.ExitFailed || rep.Reason() != diagnose.CrashLoopReason {
		t.Fatalf("exit %d %q, want 2 with %q", rep.ExitCode(), rep.Reason(), diagnose.CrashLoopReason)
	}
	if rep.Took >= timeout {
		t.Fatalf("took %s, not within the %s timeout", rep.Took, timeout)
	}
	failed := 0
	for _, m := range rep.Result.Judged() {
		if m.Status != verdict.StatusFailed {
			continue // the gate fails as soon as one machine does
		}
		failed++
		if m.Crash.Kind != diagnose.CrashLooping {
			t.Errorf("%s: %v, want crash-looping", m.ID, m.Crash.Kind)
		}
		if len(m.Looks) < 2 {
			t.Fatalf("%s: %d looks, want at least 2", m.ID, len(m.Looks))
		}
		for _, l := range m.Looks {
			if l.VisibleCrashes != m.Looks[0].VisibleCrashes {
				t.Errorf("%s: crashes in the list per look %v; the list should keep the count flat", m.ID, counts(m.Looks))
			}
			if l.Events != 5 {
				t.Errorf("%s: %d events listed, want the platform's 5", m.ID, l.Events)
			}
		}
		last := m.Looks[len(m.Looks)-1]
		if !last.NewestCrash.After(m.Looks[0].NewestCrash) {
			t.Errorf("%s: the newest crash did not move: %v", m.ID, m.Looks)
		}
		if codes := m.ExitCodes(); len(codes) == 0 || codes[0] != 1 {
			t.Errorf("%s: exit codes %v", m.ID, codes)
		}
	}
	if failed == 0 {
		t.Fatal("no machine failed")
	}
	if rep.Logs == nil || rep.Logs.Err != "" || !strings.Contains(strings.Join(rep.Logs.Lines, "\n"), "KeyError: 'DJANGO_SECRET_KEY'") {
		t.Errorf("first crash's log lines: %+v", rep.Logs)
	}
	text := verdict.Text(rep)
	for _, want := range []string{diagnose.CrashLoopReason, "FAILED — roll back", "exit code", "KeyError"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

func counts(ls []verdict.Look) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.VisibleCrashes)
	}
	return out
}

// A healthy release that boots for 25–33 s is slow, not failed: the gate
// waits for its health checks and passes it.
func TestVerdictSlowHealthyBootIsLive(t *testing.T) {
	t.Parallel()
	const speed = 16
	_, src := startGate(t, speed, gateApp(1, nil))
	deploy(t, src, "gate-api", rollout.Healthy, "")
	began := src.Now()
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: 2 * time.Minute})
	if rep.ExitCode() != verdict.ExitLive {
		t.Fatalf("exit %d (%s), want 0", rep.ExitCode(), rep.Reason())
	}
	m := rep.Result.Judged()[0]
	if m.Status != verdict.StatusLive || m.ChecksPassing != m.Checks || m.Checks == 0 {
		t.Fatalf("machine %v, checks %d/%d", m.Status, m.ChecksPassing, m.Checks)
	}
	// It was judged live only once the boot had served: 20 s and more of
	// platform time after the deploy's wait saw it started.
	if took := src.Now().Sub(began); took < 18*time.Second {
		t.Errorf("judged live %s after the deploy: before the 25–33 s boot could have served", took)
	}
	if m.LookCount < 3 {
		t.Errorf("%d looks: a slow boot should take more than two", m.LookCount)
	}
}

// A release that crashes once and then stays up is live, with the crash named.
func TestVerdictOneCrashThenUpIsLiveAndNamed(t *testing.T) {
	t.Parallel()
	const speed = 16
	sim, src := startGate(t, speed, gateApp(1, fastBoot))
	ref, err := sim.PushImage("gate-api", "crash-once", flysim.ImageBehavior{CrashAfter: 2500 * time.Millisecond, CrashTimes: 1})
	if err != nil {
		t.Fatal(err)
	}
	deploy(t, src, "gate-api", rollout.Healthy, ref)
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: 2 * time.Minute})
	if rep.ExitCode() != verdict.ExitLive {
		t.Fatalf("exit %d (%s), want 0", rep.ExitCode(), rep.Reason())
	}
	if !strings.Contains(rep.Reason(), "crashed at") || !strings.Contains(rep.Reason(), "exit code 1") || !strings.Contains(rep.Reason(), "stayed up") {
		t.Errorf("reason %q does not name the crash", rep.Reason())
	}
	if m := rep.Result.Judged()[0]; m.FirstCrash.IsZero() || len(m.Crashes) != 1 {
		t.Errorf("crash not recorded: first %v crashes %v", m.FirstCrash, m.Crashes)
	}
}

// A release the platform gives up restarting fails the deploy.
func TestVerdictGaveUpRestartingFails(t *testing.T) {
	t.Parallel()
	const speed = 16
	_, src := startGate(t, speed, gateApp(1, func(p *flysim.AppProfile) {
		fastBoot(p)
		p.RestartRetries = 1
	}))
	deploy(t, src, "gate-api", rollout.Crashing, "")
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: 2 * time.Minute})
	if rep.ExitCode() != verdict.ExitFailed {
		t.Fatalf("exit %d (%s), want 2", rep.ExitCode(), rep.Reason())
	}
	m := rep.Result.Judged()[0]
	if m.Crash.Kind != diagnose.GaveUp || !strings.Contains(rep.Reason(), "gave up restarting") {
		t.Fatalf("%v %q, want gave up", m.Crash.Kind, rep.Reason())
	}
}

// With the API down the gate cannot judge, says so, and exits 3 at once.
func TestVerdictAPIDownCannotJudge(t *testing.T) {
	t.Parallel()
	sim, src := startGate(t, 1, gateApp(1, fastBoot))
	if err := sim.Pause(); err != nil {
		t.Fatal(err)
	}
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: time.Minute})
	if rep.ExitCode() != verdict.ExitCannotJudge || rep.Cause != verdict.CauseAPIDown {
		t.Fatalf("exit %d cause %q (%s), want 3 api_down", rep.ExitCode(), rep.Cause, rep.Reason())
	}
	if !strings.Contains(rep.Reason(), "not answering") || !strings.Contains(verdict.Text(rep), "COULD NOT JUDGE (api down)") {
		t.Errorf("the report does not say the API is down: %q", rep.Reason())
	}
	if rep.Took > 30*time.Second {
		t.Errorf("took %s to give up on a dead API", rep.Took)
	}
}

// A bad token and an unknown app cannot be judged either, each named.
func TestVerdictAuthAndUnknownApp(t *testing.T) {
	t.Parallel()
	sim, src := startGate(t, 1, gateApp(1, fastBoot))
	rep := runVerdict(t, src, "no-such-app", VerdictOptions{Timeout: time.Minute})
	if rep.ExitCode() != verdict.ExitCannotJudge || rep.Cause != verdict.CauseUnknownApp {
		t.Errorf("unknown app: exit %d cause %q", rep.ExitCode(), rep.Cause)
	}
	bad, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	rep = (&Source{Client: bad, Org: sim.Org(), Now: sim.Clock().Now}).Verdict(context.Background(), "gate-api", VerdictOptions{Timeout: time.Minute})
	if rep.ExitCode() != verdict.ExitCannotJudge || rep.Cause != verdict.CauseAuth || strings.Contains(rep.Reason(), "wrong") {
		t.Errorf("bad token: exit %d cause %q %q", rep.ExitCode(), rep.Cause, rep.Reason())
	}
}

// The timeout is a verdict too: could not judge, saying what it waited for.
func TestVerdictTimeoutSaysWhatItWaitedFor(t *testing.T) {
	t.Parallel()
	// At 4× the 25–33 s boot takes 6 s and more of wall time: a 2 s
	// timeout passes after the second look (5 platform seconds, 1.25 s on
	// the wall) has seen the machine up with its checks not passing yet.
	_, src := startGate(t, 4, gateApp(1, nil))
	deploy(t, src, "gate-api", rollout.Healthy, "")
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: 2 * time.Second})
	if rep.ExitCode() != verdict.ExitCannotJudge || rep.Cause != verdict.CauseTimeout {
		t.Fatalf("exit %d cause %q", rep.ExitCode(), rep.Cause)
	}
	if !strings.Contains(rep.Reason(), "no verdict within 2s") || !strings.Contains(rep.Reason(), "health checks do not pass yet") {
		t.Errorf("reason %q", rep.Reason())
	}
	if rep.Took > 4*time.Second {
		t.Errorf("a 2 s timeout took %s", rep.Took)
	}
}

// settledBudget is the API calls the gate makes judging machines that are
// up and serving, however many: a listing per look (the events come with
// it), two looks.
const settledBudget = 2

// untilServing waits until every machine of app passes its health checks.
func untilServing(t *testing.T, src *Source, app string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		l, err := src.Client.List(context.Background(), app)
		if err != nil {
			t.Fatal(err)
		}
		up := true
		for _, m := range l.Machines {
			up = up && len(m.Checks) > 0 && m.AllHealthChecks().Passing == len(m.Checks)
		}
		if up {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the machines never served")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A 10-machine rollout, once its machines serve, is judged in two calls:
// counted at flysim (every HTTP request it answered, retries included) and
// by the client.
func TestVerdictTenMachineRolloutCallBudget(t *testing.T) {
	t.Parallel()
	const speed = 16
	sim, src := startGate(t, speed, gateApp(10, fastBoot))
	deploy(t, src, "gate-api", rollout.Healthy, "")
	untilServing(t, src, "gate-api")
	sim.ResetAPICalls()
	rep := runVerdict(t, src, "gate-api", VerdictOptions{Timeout: 2 * time.Minute})
	if rep.ExitCode() != verdict.ExitLive || len(rep.Result.Judged()) != 10 {
		t.Fatalf("exit %d (%s), %d machines judged", rep.ExitCode(), rep.Reason(), len(rep.Result.Judged()))
	}
	atSim := 0
	for k, n := range sim.APICalls() {
		t.Logf("flysim %s: %d", k, n)
		atSim += n
	}
	if atSim != rep.Calls {
		t.Errorf("flysim answered %d calls, the report counts %d", atSim, rep.Calls)
	}
	if atSim > settledBudget {
		t.Errorf("%d API calls to judge 10 machines that are up, budget %d", atSim, settledBudget)
	}
	t.Logf("10 machines judged live in %d API calls (%s)", atSim, rep.Took.Round(100*time.Millisecond))
}

// The demo deploy refuses a platform that is not on this computer before
// any call, and its image tags are the ones flysim's registry holds.
func TestDemoDeployOnlyOnTheEmbeddedPlatform(t *testing.T) {
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: "https://api.machines.dev", APIURL: "https://api.fly.io", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	src := &Source{Client: c, Now: time.Now}
	if _, err := src.PlanDemoDeploy(context.Background(), "app", rollout.Crashing); !errors.Is(err, ErrNotEmbedded) {
		t.Fatalf("real Fly: %v, want ErrNotEmbedded", err)
	}
	if c.Stats().Calls != 0 {
		t.Errorf("%d calls made before refusing", c.Stats().Calls)
	}
	if demoHealthyTag != flysim.DemoHealthyTag || demoCrashingTag != flysim.DemoCrashingTag || rollout.CrashAfter != flysim.DemoCrashAfter {
		t.Error("the demo release tags drifted from flysim's registry")
	}
	for _, u := range []string{"http://127.0.0.1:4280", "http://[::1]:80", "http://localhost:9"} {
		if !onThisComputer(u) {
			t.Errorf("%s is on this computer", u)
		}
	}
	if _, err := rollout.ParseRelease("broken"); err == nil {
		t.Error("an unknown demo release parsed")
	}
}

// The demo deploy rolls machine by machine under leases: a started machine
// comes back started on the new release, a stopped one stays stopped, and a
// machine someone else holds the lease of stops the rollout before it is
// touched.
func TestDemoDeployRollsOutUnderLeases(t *testing.T) {
	t.Parallel()
	sim, src := startGate(t, 16, gateApp(3, func(p *flysim.AppProfile) {
		fastBoot(p)
		p.InitialAwake, p.MinRunning = 2, 0
	}))
	ctx := context.Background()
	plan, err := src.PlanDemoDeploy(ctx, "gate-api", rollout.Crashing)
	if err != nil {
		t.Fatal(err)
	}
	if plan.From != "42" || plan.To != "43" || !strings.HasSuffix(plan.Image, ":"+flysim.DemoCrashingTag) || len(plan.Machines) != 3 {
		t.Fatalf("plan %+v", plan)
	}
	held := plan.Machines[2].ID
	if _, err := sim.HoldLease("gate-api", held, "deploy@other", "someone's deploy", time.Minute); err != nil {
		t.Fatal(err)
	}
	var steps []rollout.Step
	sent := 0
	err = src.DemoDeploy(ctx, plan, func(s rollout.Step) {
		if s.Sent {
			sent++
			return
		}
		steps = append(steps, s)
	})
	if sent != 2 {
		t.Errorf("%d updates reported sent, want 2 (the leased machine's was never sent)", sent)
	}
	var leased fly.ErrLeaseHeld
	if !errors.As(err, &leased) || len(steps) != 3 || steps[2].Err == nil {
		t.Fatalf("err %v, steps %+v: want the third machine refused for its lease", err, steps)
	}
	l, err := src.Client.List(ctx, "gate-api")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range l.Machines {
		rel := m.GetConfig().Metadata["fly_release_version"]
		switch m.ID {
		case plan.Machines[0].ID, plan.Machines[1].ID:
			if rel != "43" || m.Config.Image != plan.Image {
				t.Errorf("%s: release %s image %s, want 43 on the new image", m.ID, rel, m.Config.Image)
			}
		case held:
			if rel != "42" {
				t.Errorf("the leased machine was changed: release %s", rel)
			}
		}
	}
	for _, s := range steps[:2] {
		if want := map[string]string{"started": "started", "stopped": "stopped"}[stateOf(plan, s.Machine)]; s.State != want {
			t.Errorf("%s settled %q, want %q (as it was)", s.Machine, s.State, want)
		}
	}
}

func stateOf(p rollout.Plan, id string) string {
	for _, m := range p.Machines {
		if m.ID == id {
			return m.State
		}
	}
	return ""
}

// duringRolloutBudget bounds the calls of a gate started while the deploy
// still replaces n machines: about one wait per machine booting the
// release, and a listing after each round of waits and for each look (16
// measured for 10 machines).
func duringRolloutBudget(n int) int { return 2*n + 4 }

// Started while a 10-machine rollout is under way, the gate waits for the
// deploy (long-polls, not sleeps) and judges every machine of the new
// release, within its budget.
func TestVerdictDuringATenMachineRollout(t *testing.T) {
	t.Parallel()
	const speed = 16
	sim, _ := startGate(t, speed, gateApp(10, fastBoot))
	ctx := context.Background()
	// The deploy and the gate pace their calls as they would against Fly:
	// how far the rollout gets between the gate's rounds is what its
	// budget measures.
	dc, err := fly.New(ctx, fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dc.Close)
	src := &Source{Client: dc, Org: sim.Org(), Now: sim.Clock().Now}
	plan, err := src.PlanDemoDeploy(ctx, "gate-api", rollout.Healthy)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- src.DemoDeploy(ctx, plan, nil) }()
	// Start judging once the first machine runs the new release, as a
	// pipeline would that starts the gate alongside the deploy.
	for deadline := time.Now().Add(30 * time.Second); ; {
		l, err := src.Client.List(ctx, "gate-api")
		if err != nil {
			t.Fatal(err)
		}
		moved := false
		for _, m := range l.Machines {
			moved = moved || m.GetConfig().Metadata["fly_release_version"] == plan.To
		}
		if moved {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rollout never began")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The gate has a client of its own, so its calls are counted apart
	// from the deploy's.
	gc, err := fly.New(ctx, fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	gateSrc := &Source{Client: gc, Org: sim.Org(), Now: sim.Clock().Now}
	rep := runVerdict(t, gateSrc, "gate-api", VerdictOptions{Release: plan.To, Timeout: 2 * time.Minute})
	if err := <-done; err != nil {
		t.Fatalf("deploy: %v", err)
	}
	if rep.ExitCode() != verdict.ExitLive || len(rep.Result.Judged()) != 10 {
		t.Fatalf("exit %d (%s), %d machines judged", rep.ExitCode(), rep.Reason(), len(rep.Result.Judged()))
	}
	gate := rep.Calls
	if gc.Stats().Calls != gate {
		t.Errorf("the report counts %d calls, the gate's client made %d", gate, gc.Stats().Calls)
	}
	t.Logf("judged during the rollout: %d API calls by the gate in %s", gate, rep.Took.Round(100*time.Millisecond))
	if budget := duringRolloutBudget(10); gate > budget {
		t.Errorf("%d API calls to judge 10 machines during a rollout, budget %d", gate, budget)
	}
}
