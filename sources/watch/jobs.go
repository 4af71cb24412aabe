package watch

import (
	"context"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
)

// A Job is one call the Scheduler wants made; Source.Do makes it and
// answers a Reply, which goes back to Scheduler.Done. The dashboard runs
// Do in a tea.Cmd, the headless runner (Run) in a goroutine: the jobs,
// their pacing and their budget are the same.

// Kind is what a job fetches or sends.
type Kind int

const (
	// ListJob lists the open app's machines.
	ListJob Kind = iota + 1
	// LookJob fetches one machine of the open app (GET machine): a look
	// at the machine something said changed, without a whole listing.
	LookJob
	// WaitJob long-polls one machine in transition until it settles.
	WaitJob
	// ProbeJob runs one exec probe on a started machine.
	ProbeJob
	// FeedJob fetches one of the open app's feeds (Feed).
	FeedJob
	// OrgJob fetches one of the org overview's feeds (OrgFeed).
	OrgJob
	// AppsJob lists the org's apps (the app switcher's completion).
	AppsJob
	// ActJob sends a machine action (Action).
	ActJob
	// DescribeJob fetches one machine for the describe view.
	DescribeJob
)

var kindNames = [...]string{"", "list", "look", "wait", "probe", "feed", "org", "apps", "act", "describe"}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Job is one call to make. Jobs of an app generation (Gen > 0) answer
// for that app only: Done drops their replies once another app is open,
// and the dashboard runs them under a context an app switch cancels. Org
// jobs (Gen 0) outlive app switches.
type Job struct {
	ID   int // unique over the scheduler's life: replies are matched by it
	Gen  int
	Kind Kind
	App  string
	// Machine and Instance name the machine of a look, wait, probe,
	// action or describe.
	Machine, Instance string
	// States are what a WaitJob waits for, Poll how long it may hold.
	States   []string
	Poll     time.Duration
	Feed     int // FeedJob, OrgJob: the feed's index in its registry
	Query    Query
	OrgQuery OrgQuery
	Probe    snapshot.ProbeRequest
	Action   Action
	Ref      int           // the asker's own number for the call, returned as is
	Timeout  time.Duration // the whole call's deadline
	// sentNow is the platform's time when Due handed out a listing or a
	// look: what it shows is the platform as of then or later.
	sentNow time.Time
	feed    *Feed
	orgFeed *OrgFeed
}

// Reply is a job's outcome.
type Reply struct {
	Job
	Listing   snapshot.Converted  // ListJob, LookJob (one machine): converted here, not in Update
	Result    Result              // FeedJob
	OrgResult OrgResult           // OrgJob
	Exec      snapshot.ExecResult // ProbeJob
	Apps      []string            // AppsJob
	Lines     []string            // DescribeJob
	Err       error
}

// Do makes the job's call under ctx and the job's deadline. It touches no
// model: what it needs came in the job, what it got goes in the reply.
func (s *Source) Do(ctx context.Context, j Job) Reply {
	r := Reply{Job: j}
	if !s.Ready() {
		r.Err = ErrNoPlatform
		return r
	}
	if j.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, j.Timeout)
		defer cancel()
	}
	switch j.Kind {
	case ListJob:
		l, err := s.Machines(ctx, j.App)
		// Copying 10,000 machines into the model's plain form takes tens
		// of milliseconds: here, not in the dashboard's Update, and only
		// for the machines whose entry changed since the last listing.
		r.Err = err
		if err == nil {
			r.Listing = s.conv.Convert(j.App, l)
		} else {
			r.Listing = snapshot.Convert(l)
		}
	case LookJob:
		m, err := s.Client.GetMachine(ctx, j.App, j.Machine)
		if err == nil && m != nil {
			r.Listing = snapshot.Convert(fly.Listing{Machines: []*fly.Machine{m}})
		}
		r.Err = err
	case WaitJob:
		r.Err = s.Wait(ctx, j.App, j.Machine, j.Instance, j.Poll, j.States)
	case ProbeJob:
		r.Exec = s.Probe(ctx, j.App, j.Probe)
	case FeedJob:
		r.Result = j.feed.Fetch(ctx, s, j.Query)
		r.Err = r.Result.Err
	case OrgJob:
		r.OrgResult = j.orgFeed.Fetch(ctx, s, j.OrgQuery)
		r.Err = r.OrgResult.Err
	case AppsJob:
		r.Apps, r.Err = s.Apps(ctx)
	case ActJob:
		r.Err = s.Act(ctx, j.App, j.Machine, j.Action)
	case DescribeJob:
		r.Lines, r.Err = s.Describe(ctx, j.App, j.Machine)
	}
	return r
}
