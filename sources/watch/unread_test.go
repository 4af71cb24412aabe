package watch

import (
	"context"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/verdict"
)

// demoPlatform runs the demo apps (a day of history) 20 times faster than
// the wall, through fly-go over HTTP.
func demoPlatform(t *testing.T) (*flysim.Sim, *Source) {
	t.Helper()
	// Unlimited: the probes of each look are not paced under Fly's limits.
	p := simtest.StartUnlimited(t, flysim.Options{Seed: 3, Speed: 20, NoTraffic: true})
	return p.Sim, &Source{Client: p.Client, Org: p.Sim.Org(), Now: p.Sim.Clock().Now}
}

// victimsOf are the machines a fault should hide: every failed machine of
// the release when some failed, else the first live one.
func victimsOf(t *testing.T, r verdict.Result) []string {
	t.Helper()
	var out []string
	for _, want := range []verdict.Status{verdict.StatusFailed, verdict.StatusLive} {
		for _, m := range r.Judged() {
			if m.Status == want && (want == verdict.StatusFailed || len(out) == 0) {
				out = append(out, m.ID)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	t.Fatalf("no machine to hide in %+v", r.Machines)
	return nil
}

// Odd answers over real HTTP, from flysim's Odd fault: the verdict never
// says live (exit 0) and the checklist's crash item never passes when an
// entry it could not read could hide a failure. On the healthy app the
// verdict is live without the fault (the control) and one machine is made
// odd; on the crashing app it fails without it, and every failed machine
// is made odd: it never turns live.
func TestOddAnswersNeverPass(t *testing.T) {
	t.Parallel()
	sim, src := demoPlatform(t)
	judge := func(app string) (verdict.Report, checklist.Item, diagnose.Level) {
		rep := src.Verdict(context.Background(), app, VerdictOptions{Timeout: time.Minute})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		a, err := src.Collect(ctx, app)
		if err != nil {
			t.Fatalf("collect %s: %v", app, err)
		}
		items := checklist.Evaluate(a.Evidence(src.Now(), nil, nil), checklist.Options{})
		for _, it := range items {
			if it.ID == checklist.IDCrashLoop {
				return rep, it, a.CrashVerdict().Level
			}
		}
		t.Fatal("no crash item")
		return rep, checklist.Item{}, 0
	}
	for _, tc := range []struct {
		app  string
		base int // the verdict's exit code without the fault
		odd  []flysim.Oddity
	}{
		{flysim.DemoTuned, verdict.ExitLive, []flysim.Oddity{flysim.OddNull, flysim.OddUndecodable, flysim.OddNoConfig, flysim.OddNoRelease, flysim.OddChecks}},
		{flysim.DemoCrash, verdict.ExitFailed, []flysim.Oddity{flysim.OddNull, flysim.OddUndecodable, flysim.OddUntimedEvents, flysim.OddBarePayloads, flysim.OddNoRelease}},
	} {
		sim.ClearFaults()
		rep, item, crash := judge(tc.app)
		victims := victimsOf(t, rep.Result)
		if rep.ExitCode() != tc.base {
			t.Fatalf("%s without a fault: exit %d (%s), want %d: the control proves nothing", tc.app, rep.ExitCode(), rep.Reason(), tc.base)
		}
		if tc.base == verdict.ExitLive && (item.Status != checklist.Pass || crash != diagnose.Pass) {
			t.Fatalf("%s without a fault: crash item %s, crash %s; want both pass", tc.app, item.Status, crash)
		}
		for _, odd := range tc.odd {
			t.Run(tc.app+"/"+string(odd), func(t *testing.T) {
				f := flysim.Fault{Odd: map[string]flysim.Oddity{}}
				for _, id := range victims {
					f.Odd[id] = odd
				}
				sim.SetFault("list", f)
				defer sim.ClearFaults()
				rep, item, crash := judge(tc.app)
				if code := rep.ExitCode(); code == verdict.ExitLive {
					t.Errorf("verdict exit 0: %s", rep.Reason())
				} else if code == verdict.ExitCannotJudge && rep.Cause != verdict.CauseBadAnswer && rep.Cause != verdict.CauseNothingToJudge {
					t.Errorf("verdict: cause %q, %s", rep.Cause, rep.Reason())
				}
				if item.Status == checklist.Pass || crash == diagnose.Pass {
					t.Errorf("crash item %s, crash %s: %v", item.Status, crash, item.Evidence)
				}
				if item.Status == checklist.Unknown && (!item.CouldNotRead || item.Cause != diagnose.CauseBadAnswer) {
					t.Errorf("crash item unknown without saying it could not read: %+v", item)
				}
			})
		}
	}
}
