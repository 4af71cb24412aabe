package gate

import (
	"testing"
	"time"
)

func TestAuthorizedHeaderForms(t *testing.T) {
	g := New(Config{Token: "flysim_abc"})
	tests := []struct {
		header string
		ok     bool
	}{
		{"Bearer flysim_abc", true},
		{"bearer flysim_abc", true},
		{"FlyV1 fm2_x,flysim_abc", true},
		{"FlyV1 fm2_x, flysim_abc ", true},
		{"Bearer flysim_ab", false},
		{"Bearer flysim_abcd", false},
		{"Bearer ", false},
		{"flysim_abc", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := g.authorized(tt.header); got != tt.ok {
			t.Errorf("authorized(%q) = %v", tt.header, got)
		}
	}
}

func TestRateLimitRefillsInWallTime(t *testing.T) {
	wall := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := New(Config{Wall: func() time.Time { return wall }, Seed: 1})
	try := func() bool { g.countCall("start", "m1"); return g.allow("Machines_start", "start", "m1", *PerAction) }
	var got []bool
	for i := 0; i < 4; i++ {
		got = append(got, try())
	}
	wall = wall.Add(999 * time.Millisecond)
	got = append(got, try())
	wall = wall.Add(2 * time.Millisecond)
	got = append(got, try(), try())
	want := []bool{true, true, true, false, false, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("admissions %v, want %v", got, want)
		}
	}
	if st := g.APIStats()["start:m1"]; st.Calls != 7 || st.Limited != 3 || st.MaxPerSecond != 5 {
		t.Errorf("stats = %+v", st)
	}
	g.ResetAPICalls()
	if len(g.APICalls()) != 0 {
		t.Errorf("ResetAPICalls left %v", g.APICalls())
	}
}
