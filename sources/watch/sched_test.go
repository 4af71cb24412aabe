package watch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	flygo "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
)

// The scheduler's decisions are a function of its state, the models and
// the clock: these tables drive Due and Done by hand, with no platform.

var wall0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) Clock { return Clock{Wall: wall0.Add(d), Now: wall0.Add(d)} }

// testFeeds are two feeds that come due every 5 and 60 s.
func testFeeds() []Feed {
	every := func(d time.Duration) func(*snapshot.App, Result) time.Duration {
		return func(*snapshot.App, Result) time.Duration { return d }
	}
	return []Feed{{Name: "fast", Timeout: time.Second, Next: every(5 * time.Second)},
		{Name: "slow", Timeout: time.Second, Next: every(time.Minute)}}
}

func machines(states ...string) []*flygo.Machine {
	out := make([]*flygo.Machine, len(states))
	for i, st := range states {
		out[i] = &flygo.Machine{ID: fmt.Sprintf("m%03d", i), State: st, InstanceID: "i" + fmt.Sprint(i), HostStatus: "ok"}
	}
	return out
}

func appOf(states ...string) *snapshot.App {
	a := snapshot.New("org", "app", nil)
	a.ApplyMachines(machines(states...), wall0)
	return a
}

// kinds names the jobs: "list", "feed:fast", "wait:m000", …
func kinds(s *Scheduler, jobs []Job) []string {
	var out []string
	for _, j := range jobs {
		k := j.Kind.String()
		switch j.Kind {
		case FeedJob:
			k += ":" + s.FeedName(j.Feed)
		case OrgJob:
			k += ":" + s.orgFeeds[j.Feed].Name
		case WaitJob, LookJob, ProbeJob:
			k += ":" + j.Machine
		}
		out = append(out, k)
	}
	return out
}

func find(jobs []Job, k Kind) Job {
	for _, j := range jobs {
		if j.Kind == k {
			return j
		}
	}
	return Job{}
}

func TestOpenMakesTheListingAndEveryFeedDueOnce(t *testing.T) {
	s := NewScheduler(testFeeds(), nil)
	app := snapshot.New("org", "app", nil)
	if got := kinds(s, s.Due(at(0), app, nil)); len(got) != 0 {
		t.Fatalf("no app open: %v due", got)
	}
	gen := s.Open("app")
	first := s.Due(at(0), app, nil)
	if got, want := kinds(s, first), []string{"list", "feed:fast", "feed:slow"}; !slices.Equal(got, want) {
		t.Fatalf("due at open: %v, want %v", got, want)
	}
	for _, j := range first {
		if j.Gen != gen || j.App != "app" || j.Timeout <= 0 {
			t.Errorf("%s: gen %d app %q timeout %v", j.Kind, j.Gen, j.App, j.Timeout)
		}
	}
	if got := kinds(s, s.Due(at(time.Hour), app, nil)); len(got) != 0 {
		t.Fatalf("while all are in flight: %v due again", got)
	}
	if _, ok := s.NextWake(at(0)); ok {
		t.Error("a timer is armed while every call is in flight")
	}
}

// After a listing the next one is due at the adaptive interval; a feed's
// after its own Next; the wake is the soonest of them.
func TestIntervalsAfterReplies(t *testing.T) {
	cases := []struct {
		name      string
		states    []string
		wantList  time.Duration
		wantWaits int
	}{
		{"steady, every machine watched", []string{"stopped", "suspended"}, ListWatched, 2},
		{"steady, one a wait cannot follow", []string{"stopped", "failed"}, ListSteady, 0},
		{"steady, too many to watch", slices.Repeat([]string{"stopped"}, MaxWaits+1), ListSteady, 0},
		{"one starting", []string{"stopped", "starting"}, ListFast, 2},
		{"one starting in a large app", append(slices.Repeat([]string{"stopped"}, MaxWaits), "starting"), ListFast, 1},
		{"a few in transition", []string{"starting", "stopping", "suspending"}, ListFast, 3},
		{"as many as the cap", slices.Repeat([]string{"starting"}, MaxWaits), ListFast, MaxWaits},
		{"a large app mid-deploy", slices.Repeat([]string{"replacing"}, 200), ListFast, MaxWaits},
	}
	for _, c := range cases {
		s := NewScheduler(testFeeds(), nil)
		s.Open("app")
		app := snapshot.New("org", "app", nil)
		jobs := s.Due(at(0), app, nil)
		list := find(jobs, ListJob)
		out := s.Done(Reply{Job: list, Listing: snapshot.Convert(fly.Listing{Machines: machines(c.states...)})}, at(time.Second), app, nil)
		if !out.App || !out.Listed {
			t.Fatalf("%s: outcome %+v", c.name, out)
		}
		next := s.Due(at(time.Second), app, nil)
		waits := 0
		for _, j := range next {
			if j.Kind == WaitJob {
				waits++
			} else {
				t.Errorf("%s: %s due right after the listing", c.name, j.Kind)
			}
		}
		if waits != c.wantWaits {
			t.Errorf("%s: %d waits, want %d", c.name, waits, c.wantWaits)
		}
		if more := s.Due(at(time.Second), app, nil); len(more) != 0 {
			t.Errorf("%s: a second look started %v while the first are in flight", c.name, kinds(s, more))
		}
		if wake, _ := s.NextWake(at(time.Second)); !wake.Equal(wall0.Add(time.Second + c.wantList)) {
			t.Errorf("%s: wakes at %v, want the listing %v after it", c.name, wake.Sub(wall0), c.wantList)
		}
		if got := kinds(s, s.Due(at(time.Second+c.wantList), app, nil)); !slices.Contains(got, "list") {
			t.Errorf("%s: %v due once the interval passed, want a listing", c.name, got)
		}
	}
}

// A failed listing retries after RetryFirst, doubling up to RetryMax, or
// after the API's Retry-After; a fatal one stops the app's calls.
func TestListingRetries(t *testing.T) {
	down := fly.ErrAPIDown{Op: "list"}
	cases := []struct {
		name       string
		errs       []error
		wantDelays []time.Duration
		fatal      bool
	}{
		{"API down", []error{down, down, down, down, down}, []time.Duration{RetryFirst, 2 * RetryFirst, 4 * RetryFirst, RetryMax, RetryMax}, false},
		{"rate limited: Retry-After wins", []error{fly.ErrRateLimited{Op: "list", RetryAfter: 30 * time.Second}}, []time.Duration{30 * time.Second}, false},
		{"Retry-After beyond the cap", []error{fly.ErrRateLimited{Op: "list", RetryAfter: time.Hour}}, []time.Duration{fly.MaxRetryAfter}, false},
		{"429 without Retry-After backs off as usual", []error{fly.ErrRateLimited{Op: "list"}, down}, []time.Duration{RetryFirst, 2 * RetryFirst}, false},
		{"bad token", []error{fly.ErrBadToken{}}, nil, true},
		{"unknown app", []error{fly.ErrUnknownApp{App: "app"}}, nil, true},
	}
	for _, c := range cases {
		s := NewScheduler(testFeeds(), nil)
		s.Open("app")
		app := snapshot.New("org", "app", nil)
		now := time.Duration(0)
		for i, err := range c.errs {
			list := find(s.Due(at(now), app, nil), ListJob)
			if list.ID == 0 {
				t.Fatalf("%s: no listing due at try %d", c.name, i+1)
			}
			out := s.Done(Reply{Job: list, Err: err}, at(now), app, nil)
			if !out.ListFailed || (out.Fatal != nil) != c.fatal {
				t.Fatalf("%s: outcome %+v", c.name, out)
			}
			if c.fatal {
				break
			}
			f := s.Failure()
			if f.Delay != c.wantDelays[i] || !f.RetryAt.Equal(wall0.Add(now+f.Delay)) {
				t.Errorf("%s: try %d: delay %v retry at +%v, want %v", c.name, i+1, f.Delay, f.RetryAt.Sub(wall0), c.wantDelays[i])
			}
			if early := find(s.Due(at(now+f.Delay-time.Millisecond), app, nil), ListJob); early.ID != 0 {
				t.Errorf("%s: try %d: listed again before the delay", c.name, i+1)
			}
			now += f.Delay
		}
		if c.fatal {
			if got := kinds(s, s.Due(at(time.Hour), app, nil)); len(got) != 0 {
				t.Errorf("%s: after a fatal error %v still due", c.name, got)
			}
			continue
		}
		list := find(s.Due(at(now), app, nil), ListJob)
		s.Done(Reply{Job: list, Listing: snapshot.Convert(fly.Listing{})}, at(now), app, nil)
		if f := s.Failure(); f.Err != nil || f.Delay != 0 {
			t.Errorf("%s: a good listing kept the failure %+v", c.name, f)
		}
	}
}

func TestStaleRepliesAreDropped(t *testing.T) {
	s := NewScheduler(testFeeds(), nil)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	first := find(s.Due(at(0), app, nil), ListJob)
	s.ListNow()
	s.Done(Reply{Job: first, Listing: snapshot.Convert(fly.Listing{Machines: machines("started")})}, at(0), app, nil)
	second := find(s.Due(at(0), app, nil), ListJob)
	if second.ID <= first.ID {
		t.Fatalf("ListNow while a listing was in flight: no second listing at once (%+v)", second)
	}
	s.Done(Reply{Job: second, Listing: snapshot.Convert(fly.Listing{Machines: machines("started", "started")})}, at(0), app, nil)
	if out := s.Done(Reply{Job: first, Listing: snapshot.Convert(fly.Listing{})}, at(0), app, nil); !out.Dropped || len(app.Machines) != 2 {
		t.Errorf("an older listing than the one applied: outcome %+v, %d machines", out, len(app.Machines))
	}
	old := second
	s.Open("other")
	other := snapshot.New("org", "other", nil)
	for _, r := range []Reply{{Job: old}, {Job: Job{Gen: old.Gen, Kind: FeedJob}}, {Job: Job{Gen: old.Gen, Kind: ProbeJob}}} {
		if out := s.Done(r, at(0), other, nil); !out.Dropped {
			t.Errorf("a %s reply of the previous app: %+v", r.Kind, out)
		}
	}
}

// Probes: at most MaxProbes in flight and ProbesPerMin started a minute,
// and they yield to the waits: a watched app's minute of Machines API
// calls stays within MachinesPerMin less the headroom a change needs.
func TestProbeBudget(t *testing.T) {
	cases := []struct {
		name     string
		machines int
		want     int
	}{
		{"too many to watch", MaxWaits + 1, ProbesPerMin},
		{"ten machines watched", 10, MachinesPerMin - probeHeadroom - 10},
	}
	for _, c := range cases {
		s := NewScheduler(nil, nil)
		s.Open("app")
		app := appOf(slices.Repeat([]string{"started"}, c.machines)...)
		s.list.busy = true // the listing is not what this is about
		started, calls := 0, 0
		for sec := 0; sec < 60; sec++ {
			for _, j := range s.Due(at(time.Duration(sec)*time.Second), app, nil) {
				calls++
				if j.Kind != ProbeJob {
					continue
				}
				if inFlight := len(s.probes); inFlight > MaxProbes {
					t.Fatalf("%s: %d probes in flight", c.name, inFlight)
				}
				started++
				s.Done(Reply{Job: j, Exec: snapshot.ExecResult{Stdout: "MemTotal: 1 kB\n"}}, at(time.Duration(sec)*time.Second), app, nil)
			}
		}
		if started != c.want {
			t.Errorf("%s: %d probes started in a minute, want %d", c.name, started, c.want)
		}
		if c.machines <= MaxWaits && calls > MachinesPerMin-probeHeadroom {
			t.Errorf("%s: %d Machines API calls in a minute, want at most %d", c.name, calls, MachinesPerMin-probeHeadroom)
		}
	}
}

// A look is a GET of one machine; a listing sent after it was asked for
// covers it; a reply merges the machine into the model.
func TestLookAtOneMachine(t *testing.T) {
	s := NewScheduler(nil, nil)
	s.Open("app")
	app := appOf("started", "started")
	list := find(s.Due(at(0), app, nil), ListJob)
	s.Done(Reply{Job: list, Listing: snapshot.Convert(fly.Listing{Machines: machines("started", "started")})}, at(0), app, nil)

	s.Look("m001")
	s.Look("m001") // asked twice before it went out: one look
	jobs := s.Due(at(time.Second), app, nil)
	if got := kinds(s, jobs); !slices.Equal(got, []string{"look:m001"}) {
		t.Fatalf("due after Look: %v", got)
	}
	look := find(jobs, LookJob)
	m := machines("started", "stopping")[1]
	out := s.Done(Reply{Job: look, Listing: snapshot.Convert(fly.Listing{Machines: []*flygo.Machine{m}})}, at(time.Second), app, nil)
	if got, _ := app.Machine("m001"); !out.App || got.State != "stopping" {
		t.Errorf("the look's machine was not merged: %+v, state %q", out, got.State)
	}
	if got := kinds(s, s.Due(at(time.Second), app, nil)); len(got) != 0 {
		t.Errorf("after the look saw it stopping: %v due, want nothing (its steady wait is in flight)", got)
	}

	// A listing that goes out after the look was asked for covers it.
	s.Look("m000")
	s.ListNow()
	if got := kinds(s, s.Due(at(2*time.Second), app, nil)); !slices.Equal(got, []string{"list"}) {
		t.Errorf("a look and a listing due together: %v, want the listing alone", got)
	}
	// Gone: the listing says so.
	s.Look("m000")
	look = find(s.Due(at(3*time.Second), app, nil), LookJob)
	s.Done(Reply{Job: look, Err: fly.ErrMachineNotFound{App: "app", ID: "m000"}}, at(3*time.Second), app, nil)
	if _, again := s.Listing(); !again || !s.list.again {
		t.Errorf("a look at a machine gone did not ask for a listing")
	}
}

// Org feeds: due at start, idle ones look again as soon as another's data
// arrives, each paced by its own Next.
func TestOrgFeeds(t *testing.T) {
	org := snapshot.NewOrg("org", nil)
	var asked []string
	feeds := []OrgFeed{
		{Name: "apps", Timeout: time.Second, Due: always,
			Next: func(*snapshot.Org, OrgClock, OrgResult) time.Duration { return time.Minute }},
		{Name: "machines", Timeout: time.Second,
			Due: func(o *snapshot.Org, c OrgClock) (OrgQuery, bool) {
				asked = append(asked, "machines")
				return OrgQuery{Apps: o.Apps()}, len(o.Apps()) > 0
			},
			Next: func(*snapshot.Org, OrgClock, OrgResult) time.Duration { return 30 * time.Second }},
	}
	s := NewScheduler(nil, feeds)
	if got := s.Due(at(0), nil, org); len(got) != 0 {
		t.Fatalf("org feeds ran before StartOrg: %v", kinds(s, got))
	}
	if !s.StartOrg() || s.StartOrg() {
		t.Fatal("StartOrg starts once")
	}
	jobs := s.Due(at(0), nil, org)
	if got := kinds(s, jobs); !slices.Equal(got, []string{"org:apps"}) {
		t.Fatalf("first org round: %v (machines has no apps to list yet)", got)
	}
	if wake, _ := s.NextWake(at(0)); !wake.Equal(wall0.Add(30 * time.Second)) {
		t.Errorf("the idle machines feed wakes at +%v, want its Next", wake.Sub(wall0))
	}
	apps := find(jobs, OrgJob)
	if apps.Gen != 0 {
		t.Errorf("an org job belongs to generation %d: an app switch would drop it", apps.Gen)
	}
	s.Open("some-app") // org jobs outlive a switch
	out := s.Done(Reply{Job: apps, OrgResult: OrgResult{Apply: func(o *snapshot.Org) { o.ApplyApps([]string{"a", "b"}, nil, wall0) }}}, at(time.Second), nil, org)
	if !out.Org {
		t.Fatalf("the apps reply: %+v", out)
	}
	if got := kinds(s, s.Due(at(time.Second), nil, org)); !slices.Equal(got, []string{"org:machines"}) {
		t.Errorf("after the apps arrived: %v, want the idle machines feed at once", got)
	}
	if wake, _ := s.NextWake(at(time.Second)); !wake.Equal(wall0.Add(time.Second + time.Minute)) {
		t.Errorf("next wake +%v, want the apps feed a minute after its reply", wake.Sub(wall0))
	}
	if strings.Count(strings.Join(asked, ","), "machines") != 2 {
		t.Errorf("the machines feed was asked %d times, want twice", len(asked))
	}
}

// A feed that drew a 429 waits the Retry-After, even past its own pace.
func TestFeedHonoursRetryAfter(t *testing.T) {
	s := NewScheduler(testFeeds(), nil)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	fast := Job{}
	for _, j := range s.Due(at(0), app, nil) {
		if j.Kind == FeedJob && s.FeedName(j.Feed) == "fast" {
			fast = j
		}
	}
	err := fly.ErrRateLimited{Op: "logs", RetryAfter: 20 * time.Second}
	s.Done(Reply{Job: fast, Result: Result{Err: err}}, at(0), app, nil)
	if got := s.FailingFeeds(); !slices.Equal(got, []string{"fast"}) {
		t.Errorf("failing feeds %v", got)
	}
	for _, c := range []struct {
		at   time.Duration
		want bool
	}{{5 * time.Second, false}, {19 * time.Second, false}, {20 * time.Second, true}} {
		due := slices.Contains(kinds(s, s.Due(at(c.at), app, nil)), "feed:fast")
		if due != c.want {
			t.Errorf("+%v: due %v, want %v", c.at, due, c.want)
		}
	}
}

// Asked-for calls go out with the next Due, in the app's generation; a
// switch drops those not yet sent.
func TestAskedCalls(t *testing.T) {
	s := NewScheduler(nil, nil)
	s.Open("app")
	app := snapshot.New("org", "app", nil)
	s.list.busy = true
	act := s.Ask(Job{Kind: ActJob, Machine: "m000", Action: Stop})
	desc := s.Ask(Job{Kind: DescribeJob, Machine: "m000", Ref: 7})
	jobs := s.Due(at(0), app, nil)
	if len(jobs) != 2 || jobs[0].ID != act.ID || jobs[1].ID != desc.ID || jobs[1].Ref != 7 || act.Timeout == 0 {
		t.Fatalf("asked calls: %+v", jobs)
	}
	s.list.busy = false
	s.list.due = wall0.Add(time.Hour)
	if out := s.Done(Reply{Job: act}, at(0), app, nil); out.Dropped {
		t.Fatal("the action's reply was dropped")
	}
	if got := kinds(s, s.Due(at(0), app, nil)); !slices.Equal(got, []string{"list"}) {
		t.Errorf("after an action: %v, want the listing at once", got)
	}
	s.Ask(Job{Kind: AppsJob})
	s.Open("other")
	if got := s.Due(at(0), snapshot.New("org", "other", nil), nil); slices.ContainsFunc(got, func(j Job) bool { return j.Kind == AppsJob }) {
		t.Error("a call asked for the previous app went out after the switch")
	}
}
