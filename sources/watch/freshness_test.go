package watch

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
)

// listed opens app on a fresh scheduler, answers its first listing with
// states and returns the jobs due right after it.
func listed(t *testing.T, states ...string) (*Scheduler, *snapshot.App, []Job) {
	t.Helper()
	s := NewScheduler(nil, nil)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	list := find(s.Due(at(0), app, nil), ListJob)
	s.Done(Reply{Job: list, Listing: snapshot.Convert(fly.Listing{Machines: machines(states...)})}, at(0), app, nil)
	return s, app, s.Due(at(0), app, nil)
}

func jobFor(jobs []Job, k Kind, machine string) (Job, bool) {
	for _, j := range jobs {
		if j.Kind == k && j.Machine == machine {
			return j, true
		}
	}
	return Job{}, false
}

// A steady app's every machine is waited on for the states it can go to
// next, for the longest poll; a wait that times out is waited again with
// no listing; one that answers asks for a listing, and the next wait
// there waits from what it showed.
func TestWaitsWatchEveryMachineOfASteadyApp(t *testing.T) {
	s, app, jobs := listed(t, "started", "stopped", "suspended")
	want := map[string][]string{"m000": {"stopped", "suspended"}, "m001": {"started", "suspended"}, "m002": {"started", "stopped"}}
	for id, states := range want {
		j, ok := jobFor(jobs, WaitJob, id)
		if !ok || !slices.Equal(j.States, states) || j.Poll != SteadyWaitPoll || j.Instance == "" {
			t.Errorf("%s: wait %+v (found %v), want states %v for %v", id, j, ok, states, SteadyWaitPoll)
		}
	}
	if wake, _ := s.NextWake(at(0)); !wake.Equal(wall0.Add(ListWatched)) {
		t.Errorf("the next listing of a watched app at %v, want %v", wake.Sub(wall0), ListWatched)
	}

	// Timed out: nothing changed; the same wait again after the cooldown.
	w0, _ := jobFor(jobs, WaitJob, "m000")
	s.Done(Reply{Job: w0, Err: fly.ErrWaitTimeout{ID: "m000"}}, at(30*time.Second), app, nil)
	if !s.list.due.After(wall0.Add(30 * time.Second)) {
		t.Error("a steady wait's timeout asked for a listing")
	}
	if wake, _ := s.NextWake(at(30 * time.Second)); !wake.Equal(wall0.Add(30*time.Second + WaitCooldown)) {
		t.Errorf("wakes at %v, want the re-wait %v later", wake.Sub(wall0), WaitCooldown)
	}
	if got := kinds(s, s.Due(at(30*time.Second+WaitCooldown), app, nil)); !slices.Equal(got, []string{"wait:m000"}) {
		t.Errorf("after the cooldown: %v, want the wait again", got)
	}

	// Answered: m001 was started from outside. A listing goes out at once
	// (the judge judges whole listings); no wait starts from the stale
	// "stopped" until it is back.
	w1, _ := jobFor(jobs, WaitJob, "m001")
	s.Done(Reply{Job: w1}, at(33*time.Second), app, nil)
	if got := kinds(s, s.Due(at(33*time.Second), app, nil)); !slices.Equal(got, []string{"list"}) {
		t.Fatalf("after the wait answered: %v, want the listing alone", got)
	}
	if got := kinds(s, s.Due(at(40*time.Second), app, nil)); len(got) != 0 {
		t.Errorf("while the listing is out: %v due", got)
	}
	s.Done(Reply{Job: Job{ID: s.list.sent, Gen: s.gen, Kind: ListJob}, Listing: snapshot.Convert(fly.Listing{Machines: machines("started", "started", "suspended")})}, at(40*time.Second), app, nil)
	if got, _ := app.Machine("m001"); got.State != "started" {
		t.Fatalf("the listing was not applied: %q", got.State)
	}
	again, ok := jobFor(s.Due(at(40*time.Second), app, nil), WaitJob, "m001")
	if !ok || !slices.Equal(again.States, []string{"stopped", "suspended"}) {
		t.Errorf("after the listing: wait %+v (found %v), want one for stopped or suspended", again, ok)
	}

	// Failed: list, and wait there again only after WaitRetry; until a
	// wait answers the listing keeps the steady pace.
	w2, _ := jobFor(jobs, WaitJob, "m002")
	s.Done(Reply{Job: w2, Err: fly.ErrAPIDown{Op: "wait"}}, at(50*time.Second), app, nil)
	if got := kinds(s, s.Due(at(50*time.Second), app, nil)); !slices.Contains(got, "list") {
		t.Fatalf("after a failed wait: %v, want a listing", got)
	}
	list := s.list.sent
	s.Done(Reply{Job: Job{ID: list, Gen: s.gen, Kind: ListJob}, Listing: snapshot.Convert(fly.Listing{Machines: machines("started", "started", "suspended")})}, at(51*time.Second), app, nil)
	if got := s.list.due.Sub(wall0.Add(51 * time.Second)); got != ListSteady {
		t.Errorf("after a failed wait the listing comes in %v, want %v", got, ListSteady)
	}
	if _, ok := jobFor(s.Due(at(50*time.Second+WaitRetry-time.Second), app, nil), WaitJob, "m002"); ok {
		t.Error("a failed wait was waited again before WaitRetry")
	}
	if _, ok := jobFor(s.Due(at(50*time.Second+WaitRetry), app, nil), WaitJob, "m002"); !ok {
		t.Error("no wait again after WaitRetry")
	}
}

// A feed's data that says a machine changed (the logs' proxy and runner
// lines) asks for a look at each machine no wait watches, unless a
// listing or look sent after the line shows it already.
func TestChangedMachinesAreLookedAt(t *testing.T) {
	states := slices.Repeat([]string{"stopped"}, MaxWaits+1) // too many to watch
	s := NewScheduler([]Feed{{Name: "logs", Timeout: time.Second, Next: func(*snapshot.App, Result) time.Duration { return time.Minute }}}, nil)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	first := s.Due(at(0), app, nil)
	s.Done(Reply{Job: find(first, ListJob), Listing: snapshot.Convert(fly.Listing{Machines: machines(states...)})}, at(0), app, nil)
	feed := find(first, FeedJob)
	half := wall0.Add(500 * time.Millisecond) // after the listing was sent
	s.Done(Reply{Job: feed, Result: Result{Changed: []Change{{"m003", half}, {"m007", half}, {"m001", wall0.Add(-time.Second)}}}}, at(time.Second), app, nil)
	jobs := s.Due(at(time.Second), app, nil)
	if got := kinds(s, jobs); !slices.Equal(got, []string{"look:m003", "look:m007"}) {
		t.Errorf("after lines naming m003 and m007 since the listing, m001 before it: %v due, want a look at m003 and m007", got)
	}
	for _, j := range jobs {
		s.Done(Reply{Job: j, Listing: snapshot.Convert(fly.Listing{Machines: machines(states...)[3:4]})}, at(time.Second), app, nil)
	}
	// A page naming more machines than MaxHintLooks is one listing.
	many := make([]Change, MaxHintLooks+1)
	for i := range many {
		many[i] = Change{fmt.Sprintf("m%03d", i), wall0.Add(1500 * time.Millisecond)}
	}
	s.feed[0].busy = true // the next fetch is out
	s.Done(Reply{Job: Job{Gen: s.gen, Kind: FeedJob, Feed: 0, App: "app"}, Result: Result{Changed: many}}, at(2*time.Second), app, nil)
	if got := kinds(s, s.Due(at(2*time.Second), app, nil)); !slices.Equal(got, []string{"list"}) {
		t.Errorf("after a page naming %d machines: %v due, want one listing", len(many), got)
	}
}

// A line left to the listing in flight (sent after the line) is looked at
// when that listing fails: it never showed the change.
func TestChangeLeftToAFailedListingIsLookedAt(t *testing.T) {
	states := slices.Repeat([]string{"stopped"}, MaxWaits+1) // too many to watch
	s := NewScheduler([]Feed{{Name: "logs", Timeout: time.Second, Next: func(*snapshot.App, Result) time.Duration { return time.Minute }}}, nil)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	first := s.Due(at(0), app, nil)
	s.Done(Reply{Job: find(first, ListJob), Listing: snapshot.Convert(fly.Listing{Machines: machines(states...)})}, at(0), app, nil)
	s.ListNow()
	second := s.Due(at(2*time.Second), app, nil)
	list := find(second, ListJob)
	feed := find(first, FeedJob)
	s.Done(Reply{Job: feed, Result: Result{Changed: []Change{{"m003", wall0.Add(time.Second)}}}}, at(3*time.Second), app, nil)
	if got := kinds(s, s.Due(at(3*time.Second), app, nil)); slices.Contains(got, "look:m003") {
		t.Fatalf("a line the listing in flight will show asked for a look: %v", got)
	}
	s.Done(Reply{Job: list, Err: fly.ErrAPIDown{Op: "list"}}, at(4*time.Second), app, nil)
	if got := kinds(s, s.Due(at(4*time.Second), app, nil)); !slices.Contains(got, "look:m003") {
		t.Errorf("the listing it was left to failed: %v due, want a look at m003", got)
	}
}

func TestChangeLines(t *testing.T) {
	n := 0
	line := func(machine, provider, msg string) diagnose.LogLine {
		n++
		return diagnose.LogLine{Time: wall0.Add(time.Duration(n) * time.Second), Machine: machine, Provider: provider, Message: msg}
	}
	lines := []diagnose.LogLine{
		line("a", "proxy", "Starting machine"),
		line("a", "runner", "Machine started in 864ms"),
		line("a", "proxy", "machine started in 995.344449ms"),
		line("b", "app", `127.0.0.1 - - "GET / HTTP/1.1" 200`),
		line("b", "proxy", "machine became reachable in 679.673085ms"),
		line("c", "proxy", "App web has excess capacity, autostopping machine c. 1 out of 2 machines left running"),
		line("d", "runner", "machine has reached its max restart count of 10"),
		line("e", "app", " INFO Main child exited normally with code: 1"),
		line("", "runner", "Machine started in 1s"),
		line("f", "runner", "Pulling container image registry.fly.io/web:1"),
	}
	sec := func(n int) time.Time { return wall0.Add(time.Duration(n) * time.Second) }
	// Each machine once, in the order first named, at its newest line.
	want := []Change{{"a", sec(3)}, {"c", sec(6)}, {"d", sec(7)}, {"e", sec(8)}}
	if got := changedMachines(lines); !slices.Equal(got, want) {
		t.Errorf("changed machines %v, want %v", got, want)
	}
}

// A wait that answers though nothing changed (a platform that answers
// every wait at once) cannot spin: once the listing shows the machine as
// it was, the next wait there comes only after WaitRetry.
func TestAWaitThatAnswersForNothingBacksOff(t *testing.T) {
	s, app, jobs := listed(t, "stopped")
	w, _ := jobFor(jobs, WaitJob, "m000")
	s.Done(Reply{Job: w}, at(time.Second), app, nil)
	list, ok := jobFor(s.Due(at(time.Second), app, nil), ListJob, "")
	if !ok {
		t.Fatal("no listing after the wait answered")
	}
	s.Done(Reply{Job: list, Listing: snapshot.Convert(fly.Listing{Machines: machines("stopped")})}, at(time.Second), app, nil)
	if _, ok := jobFor(s.Due(at(time.Second+WaitCooldown), app, nil), WaitJob, "m000"); ok {
		t.Error("waited again after the cooldown, though the look showed nothing changed")
	}
	if _, ok := jobFor(s.Due(at(time.Second+WaitRetry), app, nil), WaitJob, "m000"); !ok {
		t.Error("no wait again after WaitRetry")
	}
}

// With WatchAtRest off (a platform whose waits answer at once) only the
// machines in transition are waited on, and the steady listing keeps its
// pace.
func TestWatchAtRestOff(t *testing.T) {
	s := NewScheduler(nil, nil)
	s.WatchAtRest(false)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	list := find(s.Due(at(0), app, nil), ListJob)
	s.Done(Reply{Job: list, Listing: snapshot.Convert(fly.Listing{Machines: machines("stopped", "starting")})}, at(0), app, nil)
	if got := kinds(s, s.Due(at(0), app, nil)); !slices.Equal(got, []string{"wait:m001"}) {
		t.Errorf("due: %v, want the wait on the machine in transition alone", got)
	}
	app.ApplyConverted(snapshot.Convert(fly.Listing{Machines: machines("stopped", "stopped")}), wall0)
	if got := s.listInterval(app); got != ListSteady {
		t.Errorf("a steady app lists every %v, want %v", got, ListSteady)
	}
}
