package diagnose

import (
	"slices"
	"testing"
)

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
		{"resuming", Waking, true},
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

func TestStatesListedOnceAndClassified(t *testing.T) {
	seen := map[string]bool{}
	for _, st := range States {
		if seen[st.Name] {
			t.Errorf("%q listed twice", st.Name)
		}
		seen[st.Name] = true
		if Classify(st.Name) == PhaseUnknown {
			t.Errorf("%q in States but unclassified", st.Name)
		}
		if IsTransient(st.Name) != st.Transient {
			t.Errorf("IsTransient(%q) disagrees with States", st.Name)
		}
	}
	// Every state the platform documents (fly-platform.md §2.1) is there.
	for _, name := range []string{"created", "started", "stopped", "suspended", "failed",
		"creating", "starting", "stopping", "restarting", "suspending", "destroying", "launch_failed",
		"updating", "replacing", "destroyed", "replaced", "migrated"} {
		if !seen[name] {
			t.Errorf("documented state %q missing from States", name)
		}
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
	if CrashLooping.Level() != Fail || Watching.Level() != Warn || Steady.Level() != Pass || CrashUnknown.Level() != Unknown {
		t.Errorf("CrashKind.Level mapping broken")
	}
}

func TestWorse(t *testing.T) {
	order := Levels // least severe first
	for i, a := range order {
		for j, b := range order {
			want := a
			if j > i {
				want = b
			}
			if got := Worse(a, b); got != want {
				t.Errorf("Worse(%s, %s) = %s, want %s", a, b, got, want)
			}
		}
	}
}

// TestWorstFirst: a list read worst first puts a row nobody could judge
// before a passing one — unlike Worse, where a real answer beats unknown.
func TestWorstFirst(t *testing.T) {
	ls := []Level{Pass, NA, Fail, Unknown, Warn}
	slices.SortStableFunc(ls, WorstFirst)
	if want := []Level{Fail, Warn, Unknown, Pass, NA}; !slices.Equal(ls, want) {
		t.Errorf("worst first: %v, want %v", ls, want)
	}
	if WorstFirst(Warn, Warn) != 0 {
		t.Error("equal levels compare unequal")
	}
}

func TestLevelText(t *testing.T) {
	for _, l := range Levels {
		b, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Level
		if err := back.UnmarshalText(b); err != nil || back != l {
			t.Errorf("%s: round trip gave %s, %v", l, back, err)
		}
		if l.Glyph() == "" {
			t.Errorf("%s has no glyph", l)
		}
	}
	var l Level
	if err := l.UnmarshalText([]byte("ok")); err == nil {
		t.Error(`"ok" read as a level`)
	}
	for status, want := range map[string]Level{"passing": Pass, "warning": Warn, "critical": Fail, "": Unknown, "weird": Unknown} {
		if got := CheckLevel(status); got != want {
			t.Errorf("CheckLevel(%q) = %s, want %s", status, got, want)
		}
	}
}

func TestUrgencyOrdersPhasesForTriage(t *testing.T) {
	order := []Phase{Troubled, Waking, Sleeping, Awake, Asleep, PhaseUnknown, Gone}
	for i := 1; i < len(order); i++ {
		if order[i-1].Urgency() >= order[i].Urgency() {
			t.Errorf("%v (urgency %d) should come before %v (%d)", order[i-1], order[i-1].Urgency(), order[i], order[i].Urgency())
		}
	}
}
