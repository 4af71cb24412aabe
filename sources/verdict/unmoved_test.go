package verdict

import (
	"reflect"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/snapshot/machine"
)

// TestUnmovedListingIsJudgedAsAFreshOne: a judge handed the same machine
// values listing after listing (as the dashboard's converter hands an
// unchanged listing) answers what a judge handed fresh copies of them
// answers, at every step: a look comes due as the clock moves, a machine
// crashes, the clock goes back, an event is timed a day ahead.
func TestUnmovedListingIsJudgedAsAFreshOne(t *testing.T) {
	s := newSim()
	s.machine("m1", "7", "started", "passing")
	crashy := s.machine("m2", "7", "started")
	s.machine("m3", "6", "stopped")
	s.machine("m4", "7", "replacing")
	same, fresh := New(Options{}), New(Options{})
	var held []*machine.Machine // the values handed the first judge, kept while the sim stands
	step := func(what string, moved bool) {
		t.Helper()
		if moved || held == nil {
			held = plain(s.ms)
		}
		got, want := same.Observe(held, s.clock), fresh.Observe(plain(s.ms), s.clock)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: handed the same values\n%+v\nhanded fresh ones\n%+v", what, got, want)
		}
		for i := range held {
			if g, w := same.At(i), fresh.At(i); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: machine %d is\n%+v\nwant\n%+v", what, i, g, w)
			}
		}
	}
	step("first listing", true)
	for i := 0; i < 3; i++ {
		s.wait(time.Second)
		step("a second later", false)
	}
	s.wait(DefaultSettle) // a look is due at each settled machine
	step("a settle later", false)
	s.wait(DefaultSettle)
	step("another settle later", false)
	s.crashCycle(crashy)
	step("m2 crashed", true)
	s.wait(DefaultSettle)
	step("a settle after the crash", false)
	s.clock = s.clock.Add(-25 * time.Hour) // the events are now a day ahead
	step("the clock went back a day", false)
	s.wait(25*time.Hour + time.Minute)
	step("and on again", false)
	crashy.Events[0].Timestamp = s.clock.Add(48 * time.Hour).UnixMilli()
	step("an event timed two days ahead", true)
	s.wait(time.Second)
	step("a second later, still ahead", false)
	s.wait(DefaultSettle)
	step("a settle later, still ahead", false)
}
