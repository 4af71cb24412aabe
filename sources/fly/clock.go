package fly

import (
	"context"
	"time"
)

// clock is injected so tests can check pacing and backoff without sleeping.
type clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// steppedClock reads a platform's clock and never sleeps (Config.SteppedClock).
type steppedClock struct{ now func() time.Time }

func (c steppedClock) Now() time.Time { return c.now() }

func (steppedClock) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
