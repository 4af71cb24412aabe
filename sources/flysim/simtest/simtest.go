// Package simtest starts the embedded platform for a test the one way every
// test does: flysim on 127.0.0.1, the real fly client (sources/fly) pointed
// at it over HTTP, both closed when the test ends. Import it from tests only.
package simtest

import (
	"context"
	"testing"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
)

// Platform is a running flysim and a client to it.
type Platform struct {
	Sim    *flysim.Sim
	Client *fly.Client
}

// Start runs flysim with opts and connects a client with its token, as
// --demo wires them.
func Start(t testing.TB, opts flysim.Options) *Platform {
	t.Helper()
	sim := StartSim(t, opts)
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &Platform{Sim: sim, Client: c}
}

// StartUnlimited is Start with the platform's rate limits off and a client
// that does not pace under them (fly.Config.Unpaced): for a test whose
// subject is not Fly's limits, so it spends no wall time waiting on them.
func StartUnlimited(t testing.TB, opts flysim.Options) *Platform {
	t.Helper()
	sim := StartSim(t, opts)
	sim.SetRateLimits(false)
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token(), Unpaced: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &Platform{Sim: sim, Client: c}
}

// StartSim runs flysim alone, for tests that talk to it another way.
func StartSim(t testing.TB, opts flysim.Options) *flysim.Sim {
	t.Helper()
	sim := flysim.New(opts)
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	return sim
}

// UseAsFly points the real-platform path at sim, as a user's environment
// would point flywake at Fly: FLY_FLAPS_BASE_URL, FLY_API_BASE_URL,
// FLY_API_TOKEN (token) and FLY_ORG, with HOME and FLY_APP emptied.
func UseAsFly(t testing.TB, sim *flysim.Sim, token string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("FLY_FLAPS_BASE_URL", sim.URL())
	t.Setenv("FLY_API_BASE_URL", sim.URL())
	t.Setenv("FLY_API_TOKEN", token)
	t.Setenv("FLY_ACCESS_TOKEN", "")
	t.Setenv("FLY_ORG", sim.Org())
	t.Setenv("FLY_APP", "")
}
