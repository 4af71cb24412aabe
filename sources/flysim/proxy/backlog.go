package proxy

import (
	"time"

	"github.com/flywake/flywake/sources/flysim/machines"
)

// A stale queue: an app server without a concurrency guard (and a
// service with no hard limit) accepts everything the proxy feeds it and works
// through its accept queue strictly in order. Clients that time out close
// their end; the server's socket then sits in CLOSE_WAIT until the server
// reaches that request, does the work for nobody, and closes it. New
// requests queue behind the stale ones and time out too; left alone it
// drains by itself. CLOSE_WAIT = requests whose client gave up but that the
// server has not reached yet (machLoad.closeWait, read by the guest's /proc/net/tcp).

// backlogEntry is one arrival cohort in a machine's accept queue.
type backlogEntry struct {
	at       time.Time
	deadline time.Time // the client gives up then; zero: an outside request, waiting until it goes
	n        int
	cost     float64 // worker-seconds per request
	cls      Class
	expired  bool          // counted in CLOSE_WAIT
	done     chan struct{} // an outside request's handler waits on it
}

// liveBacklog is how many queued requests still have a client waiting: the
// connections the proxy counts against the machine.
func liveBacklog(l *machLoad) int { return l.live }

// joinBacklog queues an outside request behind a non-empty backlog and
// returns the channel closed when the server reaches it; nil when the queue
// is empty and the request is served at once. Callers hold the lock.
func (px *Proxy) joinBacklog(m *machines.Machine, took time.Duration) chan struct{} {
	l := px.loadOf(m)
	if len(l.backlog) == 0 {
		return nil
	}
	e := &backlogEntry{at: px.now(), n: 1, cost: took.Seconds(), cls: ClassPoll, done: make(chan struct{})}
	l.backlog = append(l.backlog, e) // counted in its inflight, not in live
	return e.done
}

// abandonBacklog marks an outside request whose client went away: its socket
// is now in CLOSE_WAIT until the server reaches it. Callers hold the lock.
func (px *Proxy) abandonBacklog(m *machines.Machine, done chan struct{}) {
	l := px.loadOf(m)
	for _, e := range l.backlog {
		if e.done == done && !e.expired {
			e.expired, e.deadline = true, px.now()
			l.closeWait += e.n
		}
	}
}

// backlogTick lets machine m's workers spend dt of work on its queue, in
// order, and moves requests whose clients timed out to CLOSE_WAIT.
func (px *Proxy) backlogTick(ae *appEdge, m *machines.Machine, dt time.Duration) {
	l := px.loadOf(m)
	if m.State() != "started" {
		// A stopped or restarted server loses its queue (kill -9 cleared it).
		for _, e := range l.backlog {
			if e.done != nil {
				close(e.done)
			}
		}
		l.backlog, l.live, l.credit, l.closeWait = nil, 0, 0, 0
		return
	}
	now := px.now()
	for _, e := range l.backlog {
		if !e.expired && !e.deadline.IsZero() && now.After(e.deadline) {
			e.expired = true
			l.live -= e.n
			l.closeWait += e.n
		}
	}
	if len(l.backlog) == 0 {
		l.credit = 0
		return
	}
	l.credit += float64(ae.plan.workers) * dt.Seconds()
	for len(l.backlog) > 0 {
		e := l.backlog[0]
		if l.credit < e.cost {
			break
		}
		k := min(e.n, int(l.credit/e.cost))
		l.credit -= float64(k) * e.cost
		e.n -= k
		if e.expired {
			l.closeWait -= k
		} else if e.done == nil {
			l.live -= k
		}
		if e.done != nil {
			// An outside request: its handler answers and counts it; one
			// abandoned by its client was done for nobody.
			close(e.done)
			if e.expired {
				px.metrics.AddApp(ae.p.Name, m.Region(), m.ID(), 200, now, float64(k))
			}
		} else {
			px.countServed(ae, m, e.cls, k, !e.expired)
		}
		if e.n == 0 {
			l.backlog = l.backlog[1:]
		}
	}
}
