package flysim

import (
	"context"
	"testing"

	"github.com/superfly/fly-go/flaps"
	"github.com/superfly/fly-go/tokens"
)

// A platform with one app of 1,000 machines, no history and no limits: the
// benchmarks measure the API, not Fly's rate limits.
func bigSim(b *testing.B) *Sim {
	p := DemoApps()[0]
	p.Name, p.Machines, p.InitialAwake = "big-app", 1000, 100
	s := New(Options{Apps: []AppProfile{p}, History: -1, NoTraffic: true, Seed: 9})
	s.SetRateLimits(false)
	return s
}

// BenchmarkListMachines1000 lists 1,000 machines through fly-go's List.
// Compare with BenchmarkListJSONFloor1000, the bare encode+decode.
func BenchmarkListMachines1000(b *testing.B) {
	s := bigSim(b)
	if err := s.Start(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.Setenv("FLY_FLAPS_BASE_URL", s.URL())
	c, err := flaps.NewWithOptions(context.Background(), flaps.NewClientOpts{Tokens: tokens.Parse(s.Token())})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ms, err := c.List(ctx, "big-app", "")
		if err != nil || len(ms) != 1000 {
			b.Fatalf("List: %d machines, %v", len(ms), err)
		}
	}
}

// BenchmarkSimStartup builds the demo platform (a day of history), serves
// it and shuts it down.
func BenchmarkSimStartup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s := New(Options{})
		if err := s.Start(); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
