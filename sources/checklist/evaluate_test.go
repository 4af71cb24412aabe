package checklist

import (
	"testing"

	"github.com/flywake/flywake/sources/repo"
)

// TestEvaluateFixtures runs every rule over each fixture project, with and
// without runtime evidence, and checks the status of every item.
func TestEvaluateFixtures(t *testing.T) {
	backlogRuntime := Evidence{Sockets: &Sockets{CloseWait: map[string]int{"1781e3c2": 468, "e784e9a1": 3}, Source: "exec /proc/net/tcp on 2 machines"}}
	crashRuntime := Evidence{Crash: &Crash{Known: true, Looping: true, Machines: 2, Source: "machine events"}}
	cases := []struct {
		name    string
		load    func(*testing.T, string) (*repo.Project, []error)
		fixture string
		runtime Evidence
		want    map[string]Status
	}{
		{"scale-to-zero local only", demo, "scale-to-zero", Evidence{}, map[string]Status{
			IDColdStart: Unknown, IDReleaseWork: Fail, IDBytecode: Fail, IDSleepWake: Warn,
			IDEdgeOrigin: Unknown, IDCrashLoop: Unknown, IDConcurrency: Pass, IDHealthChecks: Pass}},
		{"scale-to-zero with the README's day", demo, "scale-to-zero", scaleToZeroRuntime(), map[string]Status{
			IDColdStart: Fail, IDReleaseWork: Fail, IDBytecode: Fail, IDSleepWake: Fail,
			IDEdgeOrigin: Fail, IDCrashLoop: Pass, IDConcurrency: Pass, IDHealthChecks: Pass}},
		{"tuned local only", demo, "tuned", Evidence{}, map[string]Status{
			IDColdStart: Unknown, IDReleaseWork: Pass, IDBytecode: Pass, IDSleepWake: Pass,
			IDEdgeOrigin: Unknown, IDCrashLoop: Unknown, IDConcurrency: Pass, IDHealthChecks: Pass}},
		{"tuned with runtime", demo, "tuned", tunedRuntime(), map[string]Status{
			IDColdStart: Pass, IDReleaseWork: Pass, IDBytecode: Pass, IDSleepWake: Pass,
			IDEdgeOrigin: Pass, IDCrashLoop: Pass, IDConcurrency: Pass, IDHealthChecks: Pass}},
		{"crash looping", demo, "crash", crashRuntime, map[string]Status{
			IDColdStart: Unknown, IDReleaseWork: Pass, IDBytecode: Pass, IDSleepWake: Warn,
			IDEdgeOrigin: Unknown, IDCrashLoop: Fail, IDConcurrency: Pass, IDHealthChecks: Pass}},
		{"backlog with CLOSE_WAIT", demo, "backlog", backlogRuntime, map[string]Status{
			IDColdStart: Unknown, IDReleaseWork: Pass, IDBytecode: Pass, IDSleepWake: Pass,
			IDEdgeOrigin: Unknown, IDCrashLoop: Unknown, IDConcurrency: Fail, IDHealthChecks: Pass}},
		{"malformed fly.toml", testdata, "malformed", Evidence{}, map[string]Status{
			IDColdStart: Unknown, IDReleaseWork: Fail, IDBytecode: Fail, IDSleepWake: Unknown,
			IDEdgeOrigin: Unknown, IDCrashLoop: Unknown, IDConcurrency: Unknown, IDHealthChecks: Unknown}},
		{"empty project", testdata, "empty", Evidence{}, map[string]Status{
			IDColdStart: Unknown, IDReleaseWork: NA, IDBytecode: NA, IDSleepWake: NA,
			IDEdgeOrigin: Unknown, IDCrashLoop: Unknown, IDConcurrency: NA, IDHealthChecks: NA}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, errs := tc.load(t, tc.fixture)
			items := Evaluate(withProject(tc.runtime, p, errs), Options{})
			if len(items) != len(IDs) {
				t.Fatalf("got %d items, want %d", len(items), len(IDs))
			}
			for i, it := range items {
				if it.ID != IDs[i] {
					t.Errorf("item %d is %q, want %q", i, it.ID, IDs[i])
				}
				if it.Title == "" {
					t.Errorf("%s has no title", it.ID)
				}
				if it.Status != tc.want[it.ID] {
					t.Errorf("%s = %s, want %s; evidence %+v", it.ID, it.Status, tc.want[it.ID], it.Evidence)
				}
				if (it.Status == Warn || it.Status == Fail) && it.Fix == "" {
					t.Errorf("%s is %s without a fix", it.ID, it.Status)
				}
				if it.Status == Pass && it.Fix != "" {
					t.Errorf("%s passes but carries a fix", it.ID)
				}
			}
		})
	}
}

func TestEvaluateNoProjectNoRuntime(t *testing.T) {
	for _, it := range Evaluate(Evidence{}, Options{}) {
		if it.Status != Unknown {
			t.Errorf("%s = %s with no evidence at all, want unknown", it.ID, it.Status)
		}
	}
}

func TestExitCode(t *testing.T) {
	mk := func(ss ...Status) []Item {
		var items []Item
		for _, s := range ss {
			items = append(items, Item{Status: s})
		}
		return items
	}
	cases := []struct {
		items []Item
		want  int
	}{
		{nil, 0},
		{mk(Pass, Unknown, NA), 0},
		{mk(Pass, Warn, Unknown), 1},
		{mk(Warn, Fail, Pass), 2},
		{mk(Fail), 2},
		// An item that could not read a project file: could not check (3),
		// over warnings too; a failure still wins.
		{[]Item{{Status: Pass}, {Status: Unknown, CouldNotRead: true}}, 3},
		{[]Item{{Status: Warn}, {Status: Unknown, CouldNotRead: true}}, 3},
		{[]Item{{Status: Warn, CouldNotRead: true}, {Status: Pass}}, 3},
		{[]Item{{Status: Unknown, CouldNotRead: true}, {Status: Fail}}, 2},
		{[]Item{{Status: Unknown, NeedsRunningMachine: true}, {Status: Pass}}, 0},
	}
	for _, tc := range cases {
		if got := ExitCode(tc.items); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.items, got, tc.want)
		}
	}
}
