package watch

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/sanitize"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/verdict"
)

// VerdictOptions configure one run of the post-deploy gate.
type VerdictOptions struct {
	Release string        // "" judges the highest release among the machines
	Settle  time.Duration // least time between two looks at a machine; 0 = verdict.DefaultSettle
	Timeout time.Duration // the whole run; 0 = DefaultVerdictTimeout
}

// DefaultVerdictTimeout bounds a run of the gate.
const DefaultVerdictTimeout = 3 * time.Minute

// Call budget of one run. Each round is one listing (the looks: every
// machine's events come with it), then either one `wait` long-poll per
// machine of the release still booting, all at once, or — when every
// machine settled — a timer until the next look is due. A healthy release
// whose machines are up takes two listings; a release caught mid-deploy
// adds a wait per booting machine and a listing after them.
const (
	maxConcurrentWaits = 16
	crashLogWindow     = 20 * time.Second // log lines this far before the first crash
	crashLogLines      = 12
	crashLogPages      = 3
	crashLogTimeout    = 15 * time.Second
	platformPoll       = 100 * time.Millisecond // no call: a read of the clock
)

// Verdict runs the gate on app: it lists the machines, hands each listing to
// a verdict.Judge, long-polls the machines the judge waits on, waits out the
// settle between looks, and stops as soon as the judge decides, the API
// fails, or the timeout passes. It only reads.
func (s *Source) Verdict(ctx context.Context, app string, o VerdictOptions) (rep verdict.Report) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultVerdictTimeout
	}
	began, calls0 := time.Now(), s.Client.Stats().Calls
	j := verdict.New(verdict.Options{Release: o.Release, Settle: o.Settle})
	rep = verdict.Report{App: app, Settle: j.Settle(), Timeout: o.Timeout}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	defer func() {
		rep.Calls = s.Client.Stats().Calls - calls0
		rep.Took = time.Since(began)
	}()
	stop := func(err error) verdict.Report {
		rep.Cause, rep.Detail = causeOf(parent, ctx, err, rep.Result, o.Timeout)
		return rep
	}
	for {
		l, err := s.Client.List(ctx, app)
		if err != nil {
			return stop(err)
		}
		rep.Result = j.ObserveListing(snapshot.Convert(l).Judged(), s.Now())
		r := rep.Result
		switch r.Outcome {
		case verdict.Failed:
			// The logs are the report's last part: they get their own short
			// deadline, even when the run's time is nearly up.
			lctx, lcancel := context.WithTimeout(context.WithoutCancel(parent), crashLogTimeout)
			rep.Logs = s.firstCrashLogs(lctx, app, r)
			lcancel()
			return rep
		case verdict.Live:
			return rep
		case verdict.CannotJudge:
			rep.Cause, rep.Detail = verdict.CauseNothingToJudge, r.Reason
			if len(r.Unread) > 0 {
				rep.Cause = verdict.CauseBadAnswer
			}
			return rep
		}
		switch {
		case len(r.Awaiting) > 0:
			if err := s.awaitSettled(ctx, app, r.Awaiting); err != nil {
				return stop(err)
			}
		case !r.NextLook.IsZero():
			if err := s.untilPlatform(ctx, r.NextLook); err != nil {
				return stop(err)
			}
		default:
			// Nothing booting and nothing to look at again: every machine of
			// the release is stopped. A read-only gate cannot start one.
			rep.Cause, rep.Detail = verdict.CauseNothingToJudge, r.Reason
			return rep
		}
	}
}

// awaitSettled long-polls each machine until it is started, stopped or
// suspended (or the poll's minute passes), all at once, and returns when
// every poll has answered. An expired poll or a machine gone is not an
// error: the next listing tells.
func (s *Source) awaitSettled(ctx context.Context, app string, ms []verdict.Await) error {
	timeout := time.Minute
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	if timeout < time.Second {
		<-ctx.Done()
		return ctx.Err()
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		sem   = make(chan struct{}, maxConcurrentWaits)
	)
	for _, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			err := s.Client.Wait(ctx, app, m.ID, m.InstanceID, timeout, "started", "stopped", "suspended")
			if err == nil || errors.Is(err, fly.ErrWaitTimeout{}) || errors.Is(err, fly.ErrMachineNotFound{}) {
				return
			}
			mu.Lock()
			if first == nil {
				first = err
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// untilPlatform waits until the platform's clock reaches t (the settle
// before the next look). The demo's clock may run faster than the wall's,
// so the wall wait is at most what is left on the platform's, and the
// clock is read again every platformPoll: at --speed 16 a 5 s settle
// ends after a third of a second, not after 5.
func (s *Source) untilPlatform(ctx context.Context, t time.Time) error {
	if s.AdvanceTo != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		return s.AdvanceTo(t)
	}
	for {
		d := t.Sub(s.Now())
		if d <= 0 {
			return nil
		}
		timer := time.NewTimer(min(d, platformPoll))
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
}

// firstCrashLogs reads what the app printed up to the earliest crash the
// looks saw, on the failed machine that crashed first: the traceback that
// says why the release cannot stay up. Only the app's own lines (not the
// platform's boot lines) are kept, the last crashLogLines of them, inert.
// The event list keeps five events, so an earlier crash may have slid out
// of it; the logs of that one are further back.
func (s *Source) firstCrashLogs(ctx context.Context, app string, r verdict.Result) *verdict.CrashLogs {
	var pick *verdict.Machine
	for _, m := range r.Judged() {
		if m.Status != verdict.StatusFailed || m.FirstCrash.IsZero() {
			continue
		}
		if pick == nil || m.FirstCrash.Before(pick.FirstCrash) {
			m := m
			pick = &m
		}
	}
	if pick == nil {
		return nil
	}
	out := &verdict.CrashLogs{Machine: pick.ID, At: pick.FirstCrash}
	// Event times have millisecond precision; the crash's own lines are
	// logged at the same instant.
	end := pick.FirstCrash.Add(500 * time.Millisecond)
	token := strconv.FormatInt(pick.FirstCrash.Add(-crashLogWindow).UnixNano(), 10)
	var lines []string
	for page := 0; page < crashLogPages; page++ {
		entries, next, err := s.Client.Logs(ctx, app, token, pick.ID, "")
		if err != nil {
			out.Err = sanitize.Line(err.Error())
			break
		}
		past := false
		for _, e := range entries {
			l := toLogLine(e)
			if l.Time.After(end) {
				past = true
				break
			}
			if (l.Machine == "" || l.Machine == pick.ID) && l.Provider == "app" {
				lines = append(lines, sanitize.Line(l.Message))
			}
		}
		if past || len(entries) == 0 || next == "" || next == token {
			break
		}
		token = next
	}
	if len(lines) > crashLogLines {
		lines = lines[len(lines)-crashLogLines:]
	}
	out.Lines = lines
	return out
}

// causeOf names why a run stopped without a judgement, and says it in a
// sentence: the API's own error (already redacted by sources/fly), or the
// timeout with what the judge was still waiting for.
func causeOf(parent, ctx context.Context, err error, last verdict.Result, timeout time.Duration) (verdict.Cause, string) {
	waiting := ""
	if last.Reason != "" {
		waiting = ": " + last.Reason
	}
	switch {
	case parent.Err() != nil:
		return verdict.CauseInterrupted, "interrupted before a verdict" + waiting
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return verdict.CauseTimeout, "no verdict within " + timeout.String() + waiting + " — raise --timeout if boots take longer"
	case err == nil:
		return verdict.CauseError, "stopped without a verdict" + waiting
	}
	return CauseOf(err), sanitize.Line(err.Error())
}
