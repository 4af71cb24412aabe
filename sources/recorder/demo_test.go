package recorder

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// The demo's day, recorded as a dashboard watched it, replays with the
// figures that dashboard showed: at instants through the day the open
// apps' models (machines, boots, swap, bytecode, the edge against the app,
// the traffic's minutes) are captured while recording, and the replay at
// each instant, read through the same client, must show the same. Its
// first three hours (the whole day is compared frame for frame in the
// long mode, by ui/app/replay_frames_test.go).
func TestDemoDayReplaysAsItWasShown(t *testing.T) {
	t.Parallel()
	begin := DemoDayEnd.Add(-24 * time.Hour)
	until, samples := begin.Add(3*time.Hour), []time.Time{begin.Add(73 * time.Minute), begin.Add(163 * time.Minute)}
	if race.Enabled || testing.Short() {
		// 80 minutes and one sample: the same lockstep, recording and
		// replay code runs under the detector, at a third of its cost.
		until, samples = begin.Add(80*time.Minute), samples[:1]
	}
	testDemoReplay(t, until, samples)
}

// probed is the one figure a replay cannot give: how many of the machines
// a dashboard has watched it probed while they ran. A replay opened at an
// instant probes the machines running then (as a dashboard opened then
// would); the swap figures themselves must agree.
var probed = regexp.MustCompile(` \((all|\d+ of \d+) probed\)`)

// unprobed is want with its swap line as the replay's when that is the
// other figure a replay cannot give: at an instant with no running machine
// it has nothing to probe, while the dashboard still shows its last probe
// of the same swap. Anything else about swap must agree.
func unprobed(want, got []string, replayed *snapshot.App) []string {
	for _, m := range replayed.Machines {
		if m.State == "started" {
			return want
		}
	}
	head, ok := strings.CutSuffix(replayed.Swap().Line, ", usage unknown: no running machine to probe")
	if !ok {
		return want
	}
	out := slices.Clone(want)
	for i, line := range out {
		if strings.HasPrefix(line, "swap: "+head+", ") && slices.Contains(got, "swap: "+replayed.Swap().Line) {
			out[i] = "swap: " + replayed.Swap().Line
		}
	}
	return out
}

func testDemoReplay(t *testing.T, until time.Time, samples []time.Time) {
	path := filepath.Join(t.TempDir(), "demo.db")
	live := map[time.Time]map[string][]string{}
	began := time.Now()
	err := RecordDemo(context.Background(), path, DemoOptions{Until: until, Samples: samples, Sample: func(at time.Time, apps []*snapshot.App, _ *watch.Source) {
		live[at] = map[string][]string{}
		for _, a := range apps {
			live[at][a.Name] = figures(a, at)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded the demo's day in %s", time.Since(began).Round(time.Second))
	rec, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	from, to := rec.Span()
	rec.Close()
	t.Logf("span %s – %s", from, to)
	if len(live) != len(samples) {
		t.Fatalf("%d instants captured of %d", len(live), len(samples))
	}
	for _, at := range samples {
		_, src := replaySource(t, path, at)
		for app, want := range live[at] {
			replayed := collectApp(t, src, app)
			got := figures(replayed, at)
			want = unprobed(want, got, replayed)
			if probed.ReplaceAllString(strings.Join(want, "\n"), "") != probed.ReplaceAllString(strings.Join(got, "\n"), "") {
				t.Errorf("%s at %s: the replay differs from what the dashboard showed:\nlive:\n  %s\nreplay:\n  %s",
					app, at.Format(time.TimeOnly), strings.Join(want, "\n  "), strings.Join(got, "\n  "))
			}
		}
	}
}
