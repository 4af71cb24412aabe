package fly

import (
	"context"
	"sync"
)

// pruneAbove bounds the bucket map: past this size, buckets that have fully
// refilled (and so remember nothing) are dropped.
const pruneAbove = 512

type limiter struct {
	clock   clock
	mu      sync.Mutex
	buckets map[route]*bucket
	limits  map[route]limit
}

func newLimiter(c clock) *limiter {
	return &limiter{clock: c, buckets: map[route]*bucket{}, limits: map[route]limit{}}
}

// wait blocks until r may send one request, or ctx ends.
func (l *limiter) wait(ctx context.Context, r route, lim limit) error {
	l.mu.Lock()
	now := l.clock.Now()
	b := l.buckets[r]
	if b == nil {
		l.prune()
		b = &bucket{}
		l.buckets[r] = b
		l.limits[r] = lim
	}
	d := b.reserve(now, lim)
	l.mu.Unlock()
	if d <= 0 {
		return nil
	}
	if err := l.clock.Sleep(ctx, d); err != nil {
		l.mu.Lock()
		b.giveBack(lim)
		l.mu.Unlock()
		return err
	}
	return nil
}

// prune must be called with mu held.
func (l *limiter) prune() {
	if len(l.buckets) < pruneAbove {
		return
	}
	now := l.clock.Now()
	for r, b := range l.buckets {
		if b.full(now, l.limits[r]) {
			delete(l.buckets, r)
			delete(l.limits, r)
		}
	}
}
