package verdict

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot/machine"
)

// hostility makes one machine of a listing unreadable, one way: what the
// transport leaves of an answer it could not read whole. It reports
// whether it changed anything (an event hostility needs exit events).
type hostility struct {
	name  string
	apply func(l *rawListing, id string) bool
}

// hostilities are every way an entry can be unreadable.
var hostilities = []hostility{
	{"null entry", func(l *rawListing, id string) bool { drop(l, id); l.Skipped = append(l.Skipped, ""); return true }},
	{"undecodable entry (soft_limit \"20\")", func(l *rawListing, id string) bool {
		drop(l, id)
		l.Skipped = append(l.Skipped, id)
		return true
	}},
	{"an entry that is null in fly-go's list", func(l *rawListing, id string) bool { l.Machines[index(l, id)] = nil; return true }},
	{"null events or checks dropped", func(l *rawListing, id string) bool {
		if l.Partial == nil {
			l.Partial = map[string]int{}
		}
		l.Partial[id] = 2
		return true
	}},
	{"exit events without a time", func(l *rawListing, id string) bool {
		changed := false
		for _, e := range l.Machines[index(l, id)].Events {
			if e.Type == "exit" {
				e.Timestamp, changed = 0, true
				if ee := diagnose.ExitEventOf(e); ee != nil {
					ee.ExitedAt = time.Time{}
				}
			}
		}
		return changed
	}},
	{"exit events without their payload", func(l *rawListing, id string) bool {
		changed := false
		for _, e := range l.Machines[index(l, id)].Events {
			if e.Type == "exit" {
				e.Request, changed = nil, true
			}
		}
		return changed
	}},
	{"no config", func(l *rawListing, id string) bool { l.Machines[index(l, id)].Config = nil; return true }},
	{"no release", func(l *rawListing, id string) bool {
		if cfg := l.Machines[index(l, id)].Config; cfg != nil {
			delete(cfg.Metadata, fly.MachineConfigMetadataKeyFlyReleaseVersion)
			return true
		}
		return false
	}},
	{"checks of odd shape", func(l *rawListing, id string) bool {
		m := l.Machines[index(l, id)]
		for _, c := range m.Checks {
			c.Status = ""
		}
		m.Checks = append(m.Checks, nil)
		return true
	}},
}

func index(l *rawListing, id string) int {
	return slices.IndexFunc(l.Machines, func(m *fly.Machine) bool { return m != nil && m.ID == id })
}

func drop(l *rawListing, id string) {
	l.Machines = slices.Delete(l.Machines, index(l, id), index(l, id)+1)
}

// snapshot copies the sim's machines deep, so a listing stays as it was
// taken while the sim moves on (and a hostility alters only its copy).
func (s *sim) snapshot() rawListing {
	out := make([]*fly.Machine, len(s.ms))
	for i, m := range s.ms {
		c := *m
		if m.Config != nil {
			cfg := *m.Config
			cfg.Metadata = map[string]string{}
			for k, v := range m.Config.Metadata {
				cfg.Metadata[k] = v
			}
			c.Config = &cfg
		}
		c.Events = nil
		for _, e := range m.Events {
			ec := *e
			if e.Request != nil {
				rq := *e.Request
				if rq.ExitEvent != nil {
					ee := *rq.ExitEvent
					rq.ExitEvent = &ee
				}
				ec.Request = &rq
			}
			c.Events = append(c.Events, &ec)
		}
		c.Checks = nil
		for _, ck := range m.Checks {
			cc := *ck
			c.Checks = append(c.Checks, &cc)
		}
		out[i] = &c
	}
	return rawListing{Machines: out}
}

type taken struct {
	l  rawListing
	at time.Time
}

// judgeAll hands every listing to a fresh judge: the last result.
func judgeAll(ls []taken) Result {
	j := New(Options{})
	var r Result
	for _, l := range ls {
		r = j.ObserveListing(l.l.plain(), l.at)
	}
	return r
}

// A table of hostile listings, each on a release that would otherwise be
// live or still undecided: the verdict never says live (it could not judge,
// exit 3, with the cause bad_answer and what it could not read), and
// whatever it read of a failure still fails it.
func TestHostileListingsAreNeverLive(t *testing.T) {
	type scenario struct {
		name string
		// listings returns the listings of the story and the machine the
		// hostility hits, and at which listing (-1: every one from then on).
		listings func() ([]taken, string)
		want     Outcome // without hostility
	}
	healthy := func() ([]taken, string) {
		s := newSim()
		s.machine("m1", "43", "started", "passing")
		s.machine("m2", "43", "started", "passing")
		var ls []taken
		ls = append(ls, taken{s.snapshot(), s.clock})
		s.wait(5 * time.Second)
		ls = append(ls, taken{s.snapshot(), s.clock})
		return ls, "m2"
	}
	crashedOnce := func() ([]taken, string) {
		// m2 crashed once since the deploy: live only after the look that
		// sees nothing newer.
		s := newSim()
		s.machine("m1", "43", "started", "passing")
		m2 := s.machine("m2", "43", "started", "passing")
		s.crashCycle(m2)
		var ls []taken
		ls = append(ls, taken{s.snapshot(), s.clock})
		s.wait(5 * time.Second)
		ls = append(ls, taken{s.snapshot(), s.clock})
		s.wait(5 * time.Second)
		ls = append(ls, taken{s.snapshot(), s.clock})
		return ls, "m2"
	}
	exercised := map[string]int{}
	for _, sc := range []scenario{
		{"a healthy release", healthy, Live},
		{"a machine that crashed once, then stayed up", crashedOnce, Live},
	} {
		ls, _ := sc.listings()
		if got := judgeAll(ls).Outcome; got != sc.want {
			t.Fatalf("%s: %v without hostility, want %v: the control proves nothing", sc.name, got, sc.want)
		}
		for _, h := range hostilities {
			for at := range ls {
				t.Run(fmt.Sprintf("%s/%s/from listing %d", sc.name, h.name, at+1), func(t *testing.T) {
					ls, victim := sc.listings()
					changed := false
					for k := at; k < len(ls); k++ {
						changed = h.apply(&ls[k].l, victim) || changed
					}
					if !changed {
						return // nothing of the kind to make unreadable here
					}
					exercised[h.name]++
					r := judgeAll(ls)
					if r.Outcome == Live || len(r.Unread) == 0 {
						t.Fatalf("outcome %v (%s), unread %v: want it not live, saying what it could not read", r.Outcome, r.Reason, r.Unread)
					}
					rep := Report{App: "a", Result: r}
					if rep.ExitCode() != ExitCannotJudge || !strings.Contains(r.Reason, "it could hide a failure of release v43") {
						t.Errorf("exit %d, reason %q", rep.ExitCode(), r.Reason)
					}
				})
			}
		}
	}
	for _, h := range hostilities {
		if exercised[h.name] == 0 {
			t.Errorf("%s was never exercised", h.name)
		}
	}
}

// A machine seen crashing at the first look and unreadable at the second
// is not forgotten: the release is not live, and the machine is still in
// the result, where it stood, with why it was not read.
func TestACrashSeenThenHiddenIsNotForgotten(t *testing.T) {
	for _, h := range hostilities[:3] { // the entry is skipped whole
		t.Run(h.name, func(t *testing.T) {
			s := newSim()
			s.machine("m1", "43", "started", "passing")
			m2 := s.machine("m2", "43", "started", "passing")
			s.crashCycle(m2)
			j := New(Options{})
			first := j.ObserveListing(s.snapshot().plain(), s.clock)
			if got := mustMachine(t, first, "m2"); got.Crash.Kind != diagnose.Watching {
				t.Fatalf("first look at m2: %v, want watching", got.Crash.Kind)
			}
			s.wait(5 * time.Second)
			s.crashCycle(m2)
			l := s.snapshot()
			h.apply(&l, "m2")
			r := j.ObserveListing(l.plain(), s.clock)
			m, ok := r.Machine("m2")
			if r.Outcome == Live || !ok || m.Unread == "" || m.Crash.Kind != diagnose.Watching {
				t.Fatalf("outcome %v (%s); m2 kept %v: %+v", r.Outcome, r.Reason, ok, m)
			}
			// The next readable listing judges it again, from where it was.
			s.wait(5 * time.Second)
			s.crashCycle(m2)
			r = j.ObserveListing(s.snapshot().plain(), s.clock)
			if r.Outcome != Failed || mustMachine(t, r, "m2").Crash.Kind != diagnose.CrashLooping {
				t.Fatalf("readable again: %v (%s)", r.Outcome, r.Reason)
			}
		})
	}
}

// A failure seen stands, whatever else could not be read.
func TestAFailureSeenStandsBesideWhatCouldNotBeRead(t *testing.T) {
	s := newSim()
	m1 := s.machine("m1", "43", "started")
	s.machine("m2", "43", "started")
	for range 4 {
		s.crashCycle(m1)
	}
	j := New(Options{})
	j.ObserveListing(s.snapshot().plain(), s.clock)
	s.wait(5 * time.Second)
	s.crashCycle(m1)
	l := s.snapshot()
	l.Skipped = []string{"", "m9"}
	if r := j.ObserveListing(l.plain(), s.clock); r.Outcome != Failed || len(r.Unread) != 2 {
		t.Fatalf("%v (%s), unread %v: want failed, the two entries it could not read listed", r.Outcome, r.Reason, r.Unread)
	}
}

// A machine no longer listed, in a listing that skipped nothing, went
// away: it is forgotten, and the release is judged without it.
func TestAMachineThatWentAwayIsForgotten(t *testing.T) {
	s := newSim()
	s.machine("m1", "43", "started")
	s.machine("m2", "43", "started")
	j := New(Options{})
	j.ObserveListing(s.snapshot().plain(), s.clock)
	s.ms = s.ms[:1]
	s.wait(5 * time.Second)
	if r := j.ObserveListing(s.snapshot().plain(), s.clock); r.Outcome != Live || len(r.Machines) != 1 || len(r.Unread) != 0 {
		t.Fatalf("%v (%s) with %d machines, unread %v", r.Outcome, r.Reason, len(r.Machines), r.Unread)
	}
}

// A machine that names no release but is seen steady (a one-off outside
// the releases) hides no crash: the crash picture has nothing unread, and
// with --release the release is live. Without --release the judge cannot
// tell whether it runs a newer release than the highest it sees.
func TestASteadyMachineWithoutAReleaseHidesNoCrash(t *testing.T) {
	for _, opts := range []Options{{Release: "43"}, {}} {
		s := newSim()
		s.machine("m1", "43", "started")
		cron := s.machine("cron", "43", "stopped")
		cron.Config = nil
		j := New(opts)
		j.ObserveListing(s.snapshot().plain(), s.clock)
		s.wait(5 * time.Second)
		r := j.ObserveListing(s.snapshot().plain(), s.clock)
		if c := r.Crashes(); c.Level() != diagnose.Pass || len(c.Unread) != 0 {
			t.Errorf("release %q: crashes %v, unread %v", opts.Release, c.Level(), c.Unread)
		}
		want := Live
		if opts.Release == "" {
			want = CannotJudge
		}
		if r.Outcome != want {
			t.Errorf("release %q: %v (%s), want %v", opts.Release, r.Outcome, r.Reason, want)
		}
	}
}

// The rule as a property: for any listings, making one entry unreadable —
// any way, at any listing, from then on or only there — never turns a
// failure or an undecided or unknown judgement into live.
func TestUnreadableNeverTurnsIntoLive(t *testing.T) {
	checked, notLive := 0, 0
	for seed := uint64(1); seed <= 120; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		ls, ids := randomStory(rng)
		base := judgeAll(ls).Outcome
		if base == Live {
			continue
		}
		notLive++
		for _, h := range hostilities {
			for _, id := range ids {
				for at := range ls {
					for _, onward := range []bool{false, true} {
						ls, _ := randomStory(rand.New(rand.NewPCG(seed, 7)))
						last := at
						if onward {
							last = len(ls) - 1
						}
						for k := at; k <= last; k++ {
							if index(&ls[k].l, id) >= 0 {
								_ = h.apply(&ls[k].l, id)
							}
						}
						checked++
						if r := judgeAll(ls); r.Outcome == Live {
							t.Fatalf("seed %d: %v without hostility, live once %s (%s) at listings %d–%d: %s",
								seed, base, id, h.name, at+1, last+1, r.Reason)
						}
					}
				}
			}
		}
	}
	if notLive < 20 || checked < 1000 {
		t.Fatalf("only %d stories not live, %d variants: the property is barely exercised", notLive, checked)
	}
}

// randomStory is a few machines of a release, each with a fate (healthy,
// crash-looping, crashed once, given up, stopped, on an older release),
// listed two to four times at random intervals around the settle.
func randomStory(rng *rand.Rand) ([]taken, []string) {
	s := newSim()
	type fate int
	const (
		healthy fate = iota
		looping
		once
		gaveUp
		stopped
		older
		fates
	)
	n := 1 + rng.IntN(3)
	fateOf := map[*fly.Machine]fate{}
	var ids []string
	for i := range n {
		f := fate(rng.IntN(int(fates)))
		rel, state := "43", "started"
		switch f {
		case older:
			rel = "42"
		case stopped:
			state = "stopped"
		}
		checks := []string{}
		if rng.IntN(2) == 0 {
			checks = append(checks, "passing")
		}
		id := fmt.Sprintf("m%d", i+1)
		m := s.machine(id, rel, state, checks...)
		fateOf[m] = f
		ids = append(ids, id)
		switch f {
		case once, looping:
			s.crashCycle(m)
		case gaveUp:
			s.wait(2500 * time.Millisecond)
			s.exit(m, 1, false, false)
			m.State = "stopped"
		}
	}
	var ls []taken
	for k, listings := 0, 2+rng.IntN(3); k < listings; k++ {
		if k > 0 {
			gap := time.Duration(1+rng.IntN(7)) * time.Second
			for end := s.clock.Add(gap); s.clock.Before(end); {
				before := s.clock
				for _, m := range s.ms {
					if fateOf[m] == looping {
						s.crashCycle(m)
						s.clock = before // every machine crashes in the same stretch
					}
				}
				s.clock = before.Add(3600 * time.Millisecond)
			}
		}
		ls = append(ls, taken{s.snapshot(), s.clock})
	}
	return ls, ids
}

// A failure seen stands for the machine's version: given up on, then
// started by a request before it crashed again, it is still given up on.
func TestAGiveUpStandsWhenAMachineIsWoken(t *testing.T) {
	s := newSim()
	m := s.machine("m1", "43", "started")
	s.crashCycle(m)
	s.wait(2500 * time.Millisecond)
	s.exit(m, 1, false, false)
	m.State = "stopped"
	j := New(Options{})
	if got := mustMachine(t, s.observe(j), "m1"); got.Crash.Kind != diagnose.GaveUp {
		t.Fatalf("first look: %v", got.Crash.Kind)
	}
	for range 2 {
		s.wait(5 * time.Second)
		s.event(m, "start", "started", "proxy")
		m.State = "started"
		r := s.observe(j)
		if got := mustMachine(t, r, "m1"); got.Crash.Kind != diagnose.GaveUp || got.Status != StatusFailed || r.Crashes().Level() != diagnose.Fail ||
			strings.Count(got.Crash.Reason, "started since") != 1 {
			t.Fatalf("woken: %v %v %q", got.Crash.Kind, got.Status, got.Crash.Reason)
		}
	}
}

// An exit the platform reports with no exit code a process can exit with
// (one near the end of int64), or timed years ahead (the end of RFC 3339's
// years, from the timestamp or from exited_at), cannot be judged: the
// release is unknown, never failed by a give-up "0s ago" nor live.
func TestOddExitsAreUnknown(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for name, exit := range map[string]string{
		"an exit code near int64's end": `"timestamp":1772366400000,"request":{"exit_event":{"exit_code":9223372036854775807,"requested_stop":false,"restarting":false}}`,
		"a timestamp in the year 9999":  `"timestamp":253402300799000,"request":{"exit_event":{"exit_code":1,"requested_stop":false,"restarting":false}}`,
		"exited_at in the year 9999":    `"timestamp":0,"request":{"exit_event":{"exit_code":1,"exited_at":"9999-12-31T23:59:59Z","requested_stop":false,"restarting":false}}`,
		"a timestamp at int64's end":    `"timestamp":9223372036854775807,"request":{"exit_event":{"exit_code":1,"requested_stop":false,"restarting":false}}`,
	} {
		listing := `{"id":"m1","state":"stopped","created_at":"2026-03-01T10:00:00Z","config":{"metadata":{"fly_release_version":"43"}},"events":[` +
			`{"type":"exit","status":"stopped",` + exit + `},{"type":"launch","status":"created","timestamp":1772359200000}]}`
		var fm fly.Machine
		if err := json.Unmarshal([]byte(listing), &fm); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := machine.FromFly(&fm)
		j := New(Options{Release: "43"})
		var r Result
		for i := range 3 {
			r = j.Observe([]*machine.Machine{&m}, now.Add(time.Duration(i)*time.Minute))
		}
		if r.Outcome != CannotJudge || !strings.Contains(r.Reason, "cannot be judged") {
			t.Errorf("%s: %v (%s), want unknown", name, r.Outcome, r.Reason)
		}
	}
}

// The judge counts nothing (diagnose.CrashKind): a restart_count at the end
// of int64 judges as no count does, whatever the machine did.
func TestRestartCountIsNotRead(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	judge := func(count, state string, restarting bool) Result {
		listing := fmt.Sprintf(`{"id":"m1","state":%q,"created_at":"2026-03-01T10:00:00Z","config":{"metadata":{"fly_release_version":"43"}},"events":[`+
			`{"type":"exit","status":"stopped","timestamp":1772366400000,"request":{%s"exit_event":{"exit_code":1,"requested_stop":false,"restarting":%v}}},`+
			`{"type":"launch","status":"created","timestamp":1772359200000}]}`, state, count, restarting)
		var fm fly.Machine
		if err := json.Unmarshal([]byte(listing), &fm); err != nil {
			t.Fatal(err)
		}
		m := machine.FromFly(&fm)
		j := New(Options{Release: "43"})
		var r Result
		for i := range 3 {
			r = j.Observe([]*machine.Machine{&m}, now.Add(time.Duration(i)*time.Minute))
		}
		return r
	}
	for _, state := range []string{"started", "stopped"} {
		for _, restarting := range []bool{true, false} {
			plain, huge := judge("", state, restarting), judge(`"restart_count":9223372036854775807,`, state, restarting)
			if plain.Outcome != huge.Outcome || plain.Reason != huge.Reason {
				t.Errorf("%s, restarting %v: %v (%s) with the count, %v (%s) without", state, restarting, huge.Outcome, huge.Reason, plain.Outcome, plain.Reason)
			}
		}
	}
}
