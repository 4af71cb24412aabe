// Package watch fetches what the dashboard shows, through sources/fly, and
// turns it into sources/snapshot inputs. Every function here does I/O and takes
// a context; the TUI wraps them in tea.Cmds, the headless commands call them
// directly (Collect).
package watch

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
)

// Source is one platform (real Fly, or flysim) as the dashboard reaches it:
// one per command.
type Source struct {
	Client *fly.Client
	Org    string
	// Now is the platform's clock: time.Now for Fly, the simulator's virtual
	// clock in demo mode (its timestamps run --speed times faster).
	Now func() time.Time
	// Markers recognise boot phases in logs (nil: diagnose.DefaultMarkers()).
	Markers []diagnose.Marker
	// AdvanceTo, when set, is how a platform whose clock stands still until
	// told (status --demo's frozen instant) reaches a later time: a wait
	// for the platform's clock tells it instead, so the looks a judgement
	// needs are taken there too, at fixed platform times.
	AdvanceTo func(t time.Time) error

	execs atomic.Int64       // exec probes Collect ran, over every app
	conv  snapshot.Converter // the open app's listings (Do)
}

// Collect's exec probes are a sample (snapshot.SampleProbes): at most
// MaxLookExecs calls per app, and MaxCommandExecs over every app one
// command looks at (status without -a), run one after another within
// the command's deadline.
const (
	MaxLookExecs    = 16
	MaxCommandExecs = 48
)

// LogHistory is how far back the first logs fetch reaches.
const LogHistory = 24 * time.Hour

// MaxLogPages bounds one logs fetch, so a noisy app cannot stall a refresh.
const MaxLogPages = 60

// LogsCaughtUp is how close to the platform's now a page's newest line
// must be for the fetch to end without asking for the (empty) page after
// it: every page that brought lines otherwise costs a second call.
const LogsCaughtUp = 2 * time.Second

// Machines lists the app's machines.
func (s *Source) Machines(ctx context.Context, app string) (fly.Listing, error) {
	return s.Client.List(ctx, app)
}

// Logs pages forward from token ("" = LogHistory ago) and returns the lines in
// time order with the token to continue from.
func (s *Source) Logs(ctx context.Context, app, token string) ([]diagnose.LogLine, string, error) {
	if token == "" {
		token = strconv.FormatInt(s.Now().Add(-LogHistory).UnixNano(), 10)
	}
	var out []diagnose.LogLine
	for page := 0; page < MaxLogPages; page++ {
		entries, next, err := s.Client.Logs(ctx, app, token, "", "")
		if err != nil {
			return out, token, err
		}
		for _, e := range entries {
			out = append(out, toLogLine(e))
		}
		if len(entries) == 0 || next == "" || next == token {
			break
		}
		token = next
		if newest := out[len(out)-1].Time; s.Now().Sub(newest) < LogsCaughtUp {
			// Caught up: a page more would hold at most the lines of the
			// last moment, which the next fetch reads from this token. On a
			// platform that ships its lines late this never holds, and the
			// paging goes on to the empty page, as before.
			break
		}
	}
	return out, token, nil
}

func toLogLine(e fly.LogEntry) diagnose.LogLine {
	t, _ := time.Parse(time.RFC3339Nano, e.Timestamp)
	msg := e.Message
	if e.Meta.Error.Message != "" {
		msg = fmt.Sprintf("%s error.message=%q", msg, e.Meta.Error.Message)
	}
	machine := e.Instance
	if machine == "" {
		machine = e.Meta.Instance
	}
	region := e.Region
	if region == "" {
		region = e.Meta.Region
	}
	return diagnose.LogLine{Time: t, Machine: machine, Provider: e.Meta.Event.Provider, Message: msg, Region: region, Level: e.Level}
}

// ProbeTimeout bounds one exec probe on the guest.
const ProbeTimeout = 10 * time.Second

// Probe runs one exec probe.
func (s *Source) Probe(ctx context.Context, app string, req snapshot.ProbeRequest) snapshot.ExecResult {
	res, err := s.Client.Exec(ctx, app, req.Machine, req.Kind.Command(), ProbeTimeout)
	if err != nil {
		return snapshot.ExecResult{Err: err, Cause: CauseOf(err)}
	}
	return snapshot.ExecResult{Stdout: res.StdOut, Stderr: res.StdErr, ExitCode: int(res.ExitCode)}
}

// EdgeOrigin queries Prometheus for the edge's and the app's response counts
// by status over the last hour and day.
func (s *Source) EdgeOrigin(ctx context.Context, app string) snapshot.EdgeOrigin {
	now := s.Now()
	out := snapshot.EdgeOrigin{At: now}
	q := func(metric, window string) (map[string]float64, error) {
		query := fmt.Sprintf(`sum by (status) (increase(%s{app=%q}[%s]))`, metric, app, window)
		res, err := s.Client.PromQuery(ctx, s.Org, query, now)
		if err != nil {
			return nil, err
		}
		m := map[string]float64{}
		for _, smp := range res.Samples {
			m[smp.Labels["status"]] += smp.Value
		}
		return m, nil
	}
	var err error
	for _, w := range []struct {
		dst    *map[string]float64
		metric string
		window string
	}{
		{&out.Edge1h, "fly_edge_http_responses_count", "1h"},
		{&out.App1h, "fly_app_http_responses_count", "1h"},
		{&out.Edge24h, "fly_edge_http_responses_count", "24h"},
		{&out.App24h, "fly_app_http_responses_count", "24h"},
	} {
		if *w.dst, err = q(w.metric, w.window); err != nil {
			out.Err, out.Cause = err.Error(), CauseOf(err)
			return out
		}
	}
	return out
}

// Collect takes one complete look at app for the headless commands: machines,
// every registered feed once (a day of logs, the metrics, …) and the probes
// of a sample of the started machines (a.Sample says which).
//
// It fetches the feeds given, and no other: status and check pass Feeds,
// what they print.
func (s *Source) Collect(ctx context.Context, app string, feeds ...Feed) (*snapshot.App, error) {
	a := snapshot.New(s.Org, app, s.Markers)
	before := s.Now()
	l, err := s.Machines(ctx, app)
	if err != nil {
		return nil, err
	}
	a.ApplyListing(l, s.Now())
	// One look cannot tell a crash loop from a single crash: the verdict
	// compares the newest crash's time between looks, so look again once
	// the next look is due (a look needs the machine settled, hence a few
	// tries, at most four settles: bounded like verdict's --timeout) —
	// unless the platform's clock stands still and cannot be told to move:
	// there another look learns nothing. What is still unsettled after the
	// tries says so (its crash verdict is "watching").
	frozen := !s.Now().After(before) && s.AdvanceTo == nil
	for try := 0; try < 4 && a.Watching() && !frozen; try++ {
		wait := min(max(a.Rollout.NextLook.Sub(s.Now()), time.Second), verdict.DefaultSettle)
		if err := s.untilPlatform(ctx, s.Now().Add(wait)); err != nil {
			return nil, err
		}
		if l, err = s.Machines(ctx, app); err != nil {
			return nil, err
		}
		a.ApplyListing(l, s.Now())
	}
	s.collectFeeds(ctx, a, feeds)
	limit := min(MaxLookExecs, MaxCommandExecs-int(s.execs.Load()))
	probes, sample := a.SampleProbes(a.ProbesDue(s.Now()), snapshot.SamplePerGroup, limit)
	s.execs.Add(int64(len(probes)))
	for _, req := range probes {
		a.ApplyProbe(req, s.Probe(ctx, app, req), s.Now())
	}
	a.Sample = &sample
	return a, nil
}
