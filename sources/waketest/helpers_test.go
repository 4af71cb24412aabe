package waketest

import (
	"sync"
	"testing"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
)

// demo is a running flysim with a fly-go client pointed at it.
type demo struct {
	sim    *flysim.Sim
	client *fly.Client
}

func startDemo(t testing.TB, opts flysim.Options) *demo {
	t.Helper()
	p := simtest.StartUnlimited(t, opts)
	return &demo{sim: p.Sim, client: p.Client}
}

func (d *demo) env() Env {
	return Env{API: d.client, Now: d.sim.Clock().Now}
}

func (d *demo) setup(app string, mode Mode) Setup {
	return Setup{App: app, Mode: mode, AppURL: d.sim.EdgeURL(app), Speed: d.sim.Clock().Speed(), Secrets: []string{d.sim.Token()}}
}

// recorder keeps every event, safe to read after Run returns.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) count(kind EventKind) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}
