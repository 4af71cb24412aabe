package waketest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/race"
)

// swapText is what the Machines API answers when swap blocks a suspend.
const swapText = "failed_precondition: Machines with swap cannot be suspended"

func runDemo(t *testing.T, d *demo, s Setup, ctx context.Context, onEvent func(Event)) (*Report, error) {
	t.Helper()
	p, err := Prepare(ctx, d.env(), s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Run(ctx, onEvent)
}

// The scale-to-zero app: stop shows 24–33 s cold boots and the proxy's
// 502s; suspend is refused by swap (the API's words) and falls back to stop.
//
// Whether one boot outlasts the proxy's 30 s patience is chance (flysim
// draws boot phases at random and concurrent API calls reorder the draws),
// so the test wakes all nine machines (121 requests: 12 for the kept one, 12
// held per woken one) and sets the patience to 28 s, inside the boot range:
// some boots then always outlast it and some always make it.
func TestSleepyBoth(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 5, ProxyPatience: 28 * time.Second})
	var rec recorder
	s := d.setup(flysim.DemoScaleToZero, ModeBoth)
	s.Requests = 121
	rep, err := runDemo(t, d, s, context.Background(), rec.add)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 || rep.Runs[0].Mode != ModeStop || rep.Runs[1].Mode != ModeSuspend {
		t.Fatalf("runs %+v", rep.Runs)
	}
	stop, sus := rep.Runs[0], rep.Runs[1]
	if stop.Sent != 121 || stop.OK+stop.Failed != 121 {
		t.Errorf("stop run sent %d, %d ok + %d failed, want 121", stop.Sent, stop.OK, stop.Failed)
	}
	// Under the race detector the 121 requests reach the proxy spread over
	// platform seconds (its slowdown times the speed), so the awake machine
	// serves most of them and fewer wake: how many is then chance.
	if !race.Enabled {
		if stop.ByErrClass["proxy_5xx"] == 0 || stop.ByStatus["502"] == 0 {
			t.Errorf("stop run shows no proxy failures: %v", stop.ByStatus)
		}
		if stop.P50MS < 24_000 || stop.MachinesWoken < 5 {
			t.Errorf("stop run p50 %d ms, %d woken: want the long boots", stop.P50MS, stop.MachinesWoken)
		}
	}
	for id, gap := range stop.StartedToServingMS {
		if gap < 20_000 {
			t.Errorf("stop run: %s went from started to serving in %d ms, want a cold boot's 20 s+", id, gap)
		}
	}
	for _, m := range stop.Machines {
		if m.StartedMS >= 0 && (m.Wake != "cold boot" || m.WokenBy != "fly-proxy") {
			t.Errorf("stop run: %s woke by %q from %q, want a cold boot by fly-proxy", m.ID, m.Wake, m.WokenBy)
		}
	}
	if strings.Join(sus.SuspendBlockedBy, "|") != swapText || !sus.FellBackToStop {
		t.Errorf("suspend run blocked by %q, fell back %v", sus.SuspendBlockedBy, sus.FellBackToStop)
	}
	targets := 0
	for _, m := range sus.Machines {
		if !m.Target {
			continue
		}
		targets++
		if m.SuspendRefused != swapText || !m.FellBackToStop || m.Slept != "stopped" {
			t.Errorf("suspend run machine %+v", m)
		}
	}
	if targets != 9 || rec.count(EventSuspendRefused) != 9 || rec.count(EventRunDone) != 2 {
		t.Errorf("%d targets, %d refusals, %d runs done; want 9, 9, 2", targets, rec.count(EventSuspendRefused), rec.count(EventRunDone))
	}
	if rec.count(EventRequest) != 242 {
		t.Errorf("%d request events, want 242", rec.count(EventRequest))
	}
	checkJSONShape(t, rep)
	checkNoToken(t, rep, d.sim.Token())
}

// The tuned app: suspend answers every request with 200, and wakes by
// resume in well under a second where stop cold-boots for seconds.
//
// What the platform did is read from its own record: each machine's wake and
// started events (platform time, stamped by the simulator at their scheduled
// instants). What the requests saw is measured on the wall clock and scaled
// by the speed, so a loaded machine's scheduling delay is multiplied by 20:
// those are held to what the platform did and to each other, never to a
// fixed wall-derived bound.
func TestSnappySuspendBeatsStop(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 3})
	rep, err := runDemo(t, d, d.setup(flysim.DemoTuned, ModeBoth), context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	stop, sus := rep.Run(ModeStop), rep.Run(ModeSuspend)
	if sus.OK != sus.Requests || sus.Requests < 40 {
		t.Errorf("suspend run: %d ok of %d (%v)", sus.OK, sus.Requests, sus.ByStatus)
	}
	if len(sus.SuspendBlockedBy) != 0 || sus.FellBackToStop || sus.MachinesWoken == 0 {
		t.Errorf("suspend run: blocked %v, fell back %v, woken %d", sus.SuspendBlockedBy, sus.FellBackToStop, sus.MachinesWoken)
	}
	for _, m := range sus.Machines {
		if m.Target && m.Slept != "suspended" {
			t.Errorf("%s slept %q, want suspended", m.ID, m.Slept)
		}
	}
	// The platform's record: every wake of the suspend run a resume of under
	// a second, every wake of the stop run a cold boot.
	slowestResume, resumed := wakes(t, sus, "resume")
	if _, booted := wakes(t, stop, "cold boot"); resumed == 0 || booted == 0 {
		t.Fatalf("the platform recorded %d resumes and %d cold boots, want both", resumed, booted)
	}
	if slowestResume >= 1000 {
		t.Errorf("slowest resume %d ms of platform time, want under 1 s", slowestResume)
	}
	// What the requests saw: stop's p95 (its cold boots) at least 5× the
	// slowest resume, and every suspend request at least 3× quicker than
	// that p95. (Not stop's median: most stop requests reach the machine
	// kept running, so the median is a warm request — 501 ms under -race on
	// a loaded machine, against a suspend request's 665 ms.)
	if stop.P95MS < 5*slowestResume || sus.SlowestMS < 0 || 3*sus.SlowestMS >= stop.P95MS {
		t.Errorf("requests: stop p50 %d ms, p95 %d ms; suspend slowest %d ms; slowest resume %d ms: want stop p95 ≥ 5× the resume and ≥ 3× every suspend request",
			stop.P50MS, stop.P95MS, sus.SlowestMS, slowestResume)
	}
	if !rep.Representative || !stop.Representative || !sus.Representative {
		t.Error("an unpinned run must be representative")
	}
	// The default 40 requests: the machine kept running takes the first 12
	// and every place that frees, so at most 3 of the 5 targets can wake.
	// The result says so, and the plan's remedy travels with it.
	for _, run := range []*Run{stop, sus} {
		if run.TargetsAsleep != 5 || run.TargetsWoken >= 5 || run.ServedByAwake < 12 ||
			!strings.Contains(run.NotComparable, "machine awake answered") {
			t.Errorf("%s run: %d of %d asleep woke, %d served by the awake one, not comparable %q",
				run.Mode, run.TargetsWoken, run.TargetsAsleep, run.ServedByAwake, run.NotComparable)
		}
	}
	if rep.Comparable || len(rep.NotComparableBecause) == 0 || rep.SoftLimit != 12 {
		t.Errorf("comparable %v because %q (soft limit %d)", rep.Comparable, rep.NotComparableBecause, rep.SoftLimit)
	}
	if !strings.HasPrefix(rep.ComparableIf, "send at least 73 requests") {
		t.Errorf("comparable if %q, want the remedy", rep.ComparableIf)
	}
	checkJSONShape(t, rep)
}

// wakes checks that every target r woke woke by how (the platform's start
// event) and returns how many did and the longest of their wake→started
// times in platform ms.
func wakes(t *testing.T, r *Run, how string) (slowest int64, n int) {
	t.Helper()
	lost := 0
	for _, m := range r.Machines {
		if !m.Target || m.StartedMS < 0 {
			continue
		}
		if m.Wake == "" && m.WakeMS < 0 {
			// Its start events fell out of the five Fly keeps before a
			// poll read them (a loaded test machine delays the polls):
			// the report says it started without saying how.
			lost++
			continue
		}
		if m.Wake != how || m.WakeMS < 0 {
			t.Errorf("%s run: %s woke by %q at %d ms, want %s", r.Mode, m.ID, m.Wake, m.WakeMS, how)
			continue
		}
		slowest = max(slowest, m.StartedMS-m.WakeMS)
		n++
	}
	if lost > n {
		t.Errorf("%s run: %d machines started with no start event read, %d with one: the polls missed most wakes", r.Mode, lost, n)
	}
	return slowest, n
}

func totalCalls(sim *flysim.Sim) int {
	n := 0
	for _, c := range sim.APICalls() {
		n += c
	}
	return n
}

func TestForcedInstance(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 4, NoTraffic: true})
	ms, err := d.client.ListMachines(context.Background(), flysim.DemoTuned)
	if err != nil {
		t.Fatal(err)
	}
	d.sim.ResetAPICalls()
	s := d.setup(flysim.DemoTuned, ModeSuspend)
	s.ForceInstance, s.Requests = ms[0].ID, 5
	if _, err := Prepare(context.Background(), d.env(), s); !errors.Is(err, ErrForcedInstance) {
		t.Fatalf("Prepare = %v, want ErrForcedInstance", err)
	}
	if n := totalCalls(d.sim); n != 0 {
		t.Fatalf("a refused forced-instance test made %d API calls: %v", n, d.sim.APICalls())
	}
	s.AllowForcedInstance = true
	rep, err := runDemo(t, d, s, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Representative || rep.Runs[0].Representative {
		t.Error("a pinned run is marked representative")
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "not representative") {
		t.Errorf("warnings %q do not say so", rep.Warnings)
	}
	if b, _ := rep.Encode(); strings.Contains(string(b), ms[0].ID) && strings.Contains(string(b), "force") {
		// the machine id may appear as a target; the header's value must not be recorded as a header
		t.Log("machine id appears in the report as a machine, which is fine")
	}
}

// Aborting while requests are held by the proxy keeps what arrived, marks
// the rest cut off, and says where every machine was left.
func TestAbortMidBurst(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var okSeen atomic.Int64
	rep, err := runDemo(t, d, d.setup(flysim.DemoScaleToZero, ModeBoth), ctx, func(e Event) {
		if e.Kind == EventRequest && e.Request.OK() && okSeen.Add(1) == 5 {
			cancel()
		}
	})
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("Run = %v, want ErrAborted", err)
	}
	if !rep.Aborted || len(rep.Runs) != 2 {
		t.Fatalf("report aborted %v, %d runs", rep.Aborted, len(rep.Runs))
	}
	stop, sus := rep.Runs[0], rep.Runs[1]
	if !stop.Aborted || stop.CutOff == 0 || stop.OK < 5 || stop.OK+stop.Failed+stop.CutOff != stop.Sent {
		t.Errorf("stop run: aborted %v ok %d failed %d cut off %d sent %d", stop.Aborted, stop.OK, stop.Failed, stop.CutOff, stop.Sent)
	}
	if !strings.Contains(stop.Missing, "cut off in flight") || !strings.HasSuffix(stop.Missing, ": aborted") {
		t.Errorf("stop run missing = %q", stop.Missing)
	}
	if !sus.Aborted || sus.Sent != 0 || sus.Missing != "run not started: aborted" {
		t.Errorf("suspend run: %+v", sus)
	}
	for _, m := range stop.Machines {
		if m.After == "" {
			t.Errorf("%s has no last seen state", m.ID)
		}
	}
}

func TestAbortWhileSleeping(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 5})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep, err := runDemo(t, d, d.setup(flysim.DemoTuned, ModeSuspend), ctx, func(e Event) {
		if e.Kind == EventMachineState {
			cancel()
		}
	})
	if !errors.Is(err, ErrAborted) || rep == nil {
		t.Fatalf("Run = %v, want ErrAborted", err)
	}
	r := rep.Runs[0]
	if r.Sent != 0 || r.Missing != "requests 1–40 not sent: aborted while putting machines to sleep" || !r.Aborted {
		t.Errorf("run sent %d, missing %q, aborted %v", r.Sent, r.Missing, r.Aborted)
	}
	targets := 0
	for _, m := range r.Machines {
		if m.Target {
			targets++
			if m.After == "" {
				t.Errorf("%s has no last seen state", m.ID)
			}
		}
	}
	// Every snappy-api machine but the one min_machines_running keeps in ams.
	tuned := flysim.DemoApps()[1]
	if want := tuned.MachineCount() - 1; targets != want {
		t.Errorf("%d target rows, want %d", targets, want)
	}
}

// checkJSONShape asserts every documented key is present.
func checkJSONShape(t *testing.T, rep *Report) {
	t.Helper()
	b, err := rep.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	has := func(where string, m map[string]any, keys ...string) {
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%s lacks %q", where, k)
			}
		}
	}
	has("report", doc, "app", "speed", "started_at", "release", "mode", "url", "path", "process_group",
		"representative", "aborted", "targets", "kept_running", "runs", "warnings",
		"soft_limit", "comparable", "not_comparable_because", "comparable_if")
	for _, r := range doc["runs"].([]any) {
		run := r.(map[string]any)
		has("run", run, "mode", "requests", "sent", "ok", "failed", "cut_off", "by_status", "by_err_class",
			"p50_ms", "p95_ms", "max_ms", "first_200_ms", "slowest_ms", "start_skew_ms", "machines_woken",
			"started_to_serving_ms", "woken_unserved", "suspend_blocked_by", "fell_back_to_stop", "representative",
			"aborted", "missing", "notes", "machines", "results",
			"targets_asleep", "targets_woken", "served_by_awake", "not_comparable")
		for _, m := range run["machines"].([]any) {
			has("machine", m.(map[string]any), "id", "target", "state_before", "slept", "state_at_burst", "state_after",
				"wake_ms", "started_ms", "serving_ms", "served")
		}
		for _, q := range run["results"].([]any) {
			req := q.(map[string]any)
			has("result", req, "index", "sent_ms", "ttfb_ms", "total_ms", "status", "err_class")
			if req["status"].(float64) == 200 {
				has("result", req, "machine", "request_id")
			}
		}
	}
}

func checkNoToken(t *testing.T, rep *Report, token string) {
	t.Helper()
	b, err := rep.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) {
		t.Error("the JSON holds the API token")
	}
	dir := t.TempDir()
	path, err := rep.Save(dir, rep.StartedAt)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved), token) || strings.Contains(strings.ToLower(string(saved)), "authorization") {
		t.Error("the saved file holds the token or a header")
	}
	last, lpath, err := LoadLast(dir, rep.App)
	if err != nil || lpath != path || last.Runs[0].OK != rep.Runs[0].OK || filepath.Dir(lpath) != dir {
		t.Errorf("LoadLast = %v, %s, %v", last != nil, lpath, err)
	}
}

// A deploy holding a target's lease: the run is refused before any change,
// naming the holder and the expiry.
func TestLeaseHeldRefusesTheRun(t *testing.T) {
	t.Parallel()
	d := startDemo(t, flysim.Options{Speed: 20, Seed: 6, NoTraffic: true})
	p, err := Prepare(context.Background(), d.env(), d.setup(flysim.DemoTuned, ModeBoth))
	if err != nil {
		t.Fatal(err)
	}
	target := p.Targets[len(p.Targets)-1].ID
	if _, err := d.sim.HoldLease(flysim.DemoTuned, target, "deployer@example.com", "fly deploy", time.Minute); err != nil {
		t.Fatal(err)
	}
	before, err := d.client.ListMachines(context.Background(), flysim.DemoTuned)
	if err != nil {
		t.Fatal(err)
	}
	d.sim.ResetAPICalls()
	rep, err := p.Run(context.Background(), nil)
	var held fly.ErrLeaseHeld
	if !errors.As(err, &held) || held.Owner != "deployer@example.com" || held.Machine != target || held.Expires.IsZero() {
		t.Fatalf("Run = %v, want ErrLeaseHeld naming the holder and the expiry", err)
	}
	for k, n := range d.sim.APICalls() {
		if action, _, _ := strings.Cut(k, ":"); n > 0 && (action == "start" || action == "stop" || action == "suspend" || action == "lease_create") {
			t.Errorf("%s sent %d times under someone else's lease", k, n)
		}
	}
	after, err := d.client.ListMachines(context.Background(), flysim.DemoTuned)
	if err != nil {
		t.Fatal(err)
	}
	for i := range before {
		if before[i].State != after[i].State {
			t.Errorf("%s went %s → %s", before[i].ID, before[i].State, after[i].State)
		}
	}
	if len(rep.Runs) == 0 || !strings.Contains(rep.Runs[0].Missing, "leased by deployer@example.com") {
		t.Errorf("the report does not say why: %+v", rep.Runs)
	}
}
