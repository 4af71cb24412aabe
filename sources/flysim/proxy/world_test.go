package proxy

import (
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/logs"
	"github.com/flywake/flywake/sources/flysim/machines"
	"github.com/flywake/flywake/sources/flysim/metrics"
	"github.com/flywake/flywake/sources/flysim/profile"
	"github.com/flywake/flywake/sources/flysim/sched"
)

// world is the proxy in front of a store of the demo apps (or apps), with
// what it writes, as the platform wires them: the proxy's own tests need
// no API.
type world struct {
	sched   *sched.Scheduler
	store   *machines.Store
	px      *Proxy
	logs    *logs.Store
	metrics *metrics.Store
}

type worldOptions struct {
	seed  uint64
	speed float64
	apps  []profile.App // default the demo's
}

// newWorld lives a day of history ending at a fixed wall time.
func newWorld(t testing.TB, o worldOptions) *world {
	t.Helper()
	if o.apps == nil {
		o.apps = profile.DemoApps()
	}
	if o.speed == 0 {
		o.speed = 1
	}
	end := time.Now().Truncate(time.Minute)
	begin := end.Add(-24 * time.Hour)
	w := &world{sched: sched.New(time.Now, o.speed, begin), logs: logs.NewStore(400_000), metrics: metrics.NewStore(26 * time.Hour)}
	w.store = machines.New(machines.Config{Seed: o.seed, Org: profile.DemoOrg, Region: "ams", EventsKept: 5,
		Wall: time.Now, Sched: w.sched, Logs: w.logs, Closing: make(chan struct{})})
	w.sched.Lock()
	for _, p := range o.apps {
		w.store.AddApp(p, begin, end)
	}
	w.px = New(Config{Seed: o.seed, ProxyPatience: 30 * time.Second, QueuePatience: 10 * time.Second,
		AutostopInterval: 5 * time.Minute, Sched: w.sched, Store: w.store, Metrics: w.metrics}, begin, end)
	w.sched.Unlock()
	w.sched.FastForward(end)
	return w
}

// start runs the world's clock and serves the edges until the test ends.
func (w *world) start(t testing.TB) {
	t.Helper()
	closing, done := make(chan struct{}), make(chan struct{})
	w.sched.Pace()
	go func() {
		defer close(done)
		w.sched.Loop(closing)
	}()
	if err := w.px.Listen(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		close(closing)
		<-done
		w.px.Close(t.Context())
	})
}
