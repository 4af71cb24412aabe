package diagnose

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		state     string
		phase     Phase
		transient bool
	}{
		{"created", Asleep, false},
		{"creating", Waking, true},
		{"starting", Waking, true},
		{"started", Awake, false},
		{"stopping", Sleeping, true},
		{"stopped", Asleep, false},
		{"suspending", Sleeping, true},
		{"suspended", Asleep, false},
		{"restarting", Waking, true},
		{"replacing", Waking, true},
		{"updating", Waking, true},
		{"destroying", Gone, true},
		{"destroyed", Gone, false},
		{"failed", Troubled, false},
		{"launch_failed", Troubled, true},
		{"replaced", Gone, false},
		{"migrated", Gone, false},
		{"", PhaseUnknown, false},
		{"STARTED", PhaseUnknown, false},
		{"hibernating", PhaseUnknown, false},
	} {
		if got := Classify(tc.state); got != tc.phase {
			t.Errorf("Classify(%q) = %v, want %v", tc.state, got, tc.phase)
		}
		if got := IsTransient(tc.state); got != tc.transient {
			t.Errorf("IsTransient(%q) = %v, want %v", tc.state, got, tc.transient)
		}
	}
}

func TestAllStatesClassified(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range AllStates {
		if seen[s] {
			t.Errorf("%q listed twice", s)
		}
		seen[s] = true
		if Classify(s) == PhaseUnknown {
			t.Errorf("%q in AllStates but unclassified", s)
		}
	}
	if len(AllStates) != 17 || len(states) != len(AllStates) {
		t.Errorf("AllStates has %d entries, table %d; want 17 each", len(AllStates), len(states))
	}
}

func TestNamesForDisplay(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Awake.String(), "awake"}, {Gone.String(), "gone"}, {Phase(99).String(), "unknown"},
		{Pass.String(), "pass"}, {Fail.String(), "fail"}, {Level(-1).String(), "unknown"},
		{CrashLooping.String(), "crash-looping"}, {GaveUp.String(), "gave up"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if Worst() != Unknown || Worst(Pass, Fail, Warn) != Fail || Worst(Unknown, Pass) != Pass {
		t.Errorf("Worst ordering broken")
	}
	if CrashLooping.Level() != Fail || Watching.Level() != Warn || Steady.Level() != Pass || CrashUnknown.Level() != Unknown {
		t.Errorf("CrashKind.Level mapping broken")
	}
}
