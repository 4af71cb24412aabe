package watch

import (
	"context"
	"sync"
	"time"

	"github.com/flywake/flywake/sources/snapshot"
)

// RunOptions configure a headless run of the scheduler.
type RunOptions struct {
	// Speed is platform seconds per wall second (the demo's --speed); 0 is 1.
	Speed float64
	// Pace is the scheduler's wall seconds per real second; 0 is 1. The
	// pacing and budgets count wall time (Fly's limits do), so against a
	// platform without limits (flysim with its rate limits off) a test
	// paces them faster: a minute's probe budget refills in seconds.
	Pace float64
	// Changed is called after every reply, on Run's goroutine, with what
	// Done made of it: the models may be read there, and Look or ListNow
	// called. Nil: nothing is told.
	Changed func(Reply, Outcome)
}

// Run drives sch against s until ctx ends, without a terminal: the same
// jobs, pacing and budget as the dashboard. Each job runs in its own
// goroutine; every reply comes back through Done on Run's goroutine (the
// only one that touches sch, app and org), and one timer waits for the
// next job that comes due. It returns ctx's error once every call in
// flight has ended.
func (s *Source) Run(ctx context.Context, sch *Scheduler, app *snapshot.App, org *snapshot.Org, o RunOptions) error {
	replies := make(chan Reply)
	var wg sync.WaitGroup
	defer wg.Wait()
	pace, speed, start := o.Pace, o.Speed, time.Now()
	if pace <= 0 {
		pace = 1
	}
	if speed <= 0 {
		speed = 1
	}
	clock := func() Clock {
		wall := start.Add(time.Duration(float64(time.Since(start)) * pace))
		return Clock{Wall: wall, Now: s.Now(), Speed: speed / pace}
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		c := clock()
		for _, j := range sch.Due(c, app, org) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.Do(ctx, j)
				select {
				case replies <- r:
				case <-ctx.Done():
				}
			}()
		}
		wait := time.Hour
		if next, ok := sch.NextWake(c); ok {
			wait = time.Duration(float64(next.Sub(c.Wall)) / pace)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case r := <-replies:
			out := sch.Done(r, clock(), app, org)
			if o.Changed != nil {
				o.Changed(r, out)
			}
		case <-timer.C:
		}
	}
}
