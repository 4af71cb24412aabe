package record

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
)

// A day of an org of 100 apps with 100 machines each: each machine stops
// and starts again about every 40 minutes (autostop and the next request),
// with its events, and every app is listed every 5 minutes (the overview
// lists each every 30 s; the changes stored are the same, their times
// rounded to the listing). The recording is made once per test process.
const (
	benchApps     = 100
	benchMachines = 100
	benchListing  = 5 * time.Minute
	benchCycle    = 40 * time.Minute
)

var (
	benchOnce sync.Once
	benchPath string
	benchErr  error
)

// TestMain removes the benchmarks' day (161 MB) once every benchmark of
// the process has read it.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchPath != "" {
		os.RemoveAll(filepath.Dir(benchPath))
	}
	os.Exit(code)
}

func benchDay(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "flywake-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchPath = filepath.Join(dir, "day.db")
		began := time.Now()
		benchErr = writeBenchDay(benchPath)
		if st, err := os.Stat(benchPath); err == nil {
			b.Logf("a day of %d apps × %d machines listed every %s: %.1f MB in %s", benchApps, benchMachines, benchListing,
				float64(st.Size())/(1<<20), time.Since(began).Round(time.Second))
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath
}

func writeBenchDay(path string) error {
	now := t0
	w, err := Create(path, Options{Org: "steady-org", Scope: "org steady-org", Now: func() time.Time { return now }, FlushEvery: time.Hour})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	type mach struct {
		m      *fly.Machine
		flipAt time.Time
	}
	apps := make([][]*mach, benchApps)
	for a := range apps {
		for i := 0; i < benchMachines; i++ {
			id := fmt.Sprintf("%02x%012x", a, i)
			m := machine(id, "started", "12", t0, event("start", "started", t0.Add(-time.Hour), 0))
			apps[a] = append(apps[a], &mach{m: m, flipAt: t0.Add(time.Duration(rng.Int64N(int64(benchCycle))))})
		}
	}
	for at := t0; at.Before(t0.Add(24 * time.Hour)); at = at.Add(benchListing) {
		now = at
		for a, ms := range apps {
			l := fly.Listing{}
			for _, mc := range ms {
				if !at.Before(mc.flipAt) {
					cp := *mc.m
					var ev = event("start", "started", mc.flipAt, 0)
					if cp.State == "started" {
						cp.State, ev = "stopped", event("exit", "stopped", mc.flipAt, 0)
					} else {
						cp.State = "started"
					}
					cp.UpdatedAt = mc.flipAt.Format(time.RFC3339)
					cp.Events = append(append(cp.Events[:0:0], ev), cp.Events...)
					if len(cp.Events) > 5 {
						cp.Events = cp.Events[:5]
					}
					mc.m = &cp
					mc.flipAt = mc.flipAt.Add(benchCycle/2 + time.Duration(rng.Int64N(int64(benchCycle))))
				}
				l.Machines = append(l.Machines, mc.m)
			}
			w.Listing(at, fmt.Sprintf("app-%02d", a), l)
		}
	}
	return w.Close()
}

// BenchmarkReconstructOrg rebuilds the whole org (every machine of every
// app, as the listings a replay serves) at a random instant of the day.
func BenchmarkReconstructOrg(b *testing.B) {
	path := benchDay(b)
	began := time.Now()
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.Logf("opened in %s", time.Since(began).Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(3, 4))
	apps := r.Apps(t0.Add(24 * time.Hour))
	if len(apps) != benchApps {
		b.Fatalf("%d apps", len(apps))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		at := t0.Add(time.Duration(rng.Int64N(int64(24 * time.Hour))))
		n := 0
		for _, app := range apps {
			js, err := r.ListingJSON(app, at)
			if err != nil {
				b.Fatal(err)
			}
			n += len(js)
		}
		if n == 0 {
			b.Fatal("nothing rebuilt")
		}
	}
}

// BenchmarkStepToNextEvent finds the next moment and rebuilds the org's
// state at it.
func BenchmarkStepToNextEvent(b *testing.B) {
	path := benchDay(b)
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	at := t0.Add(time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next, ok := r.Next(at)
		if !ok {
			at = t0.Add(time.Hour)
			continue
		}
		at = next
		if len(r.OrgAt(at)) == 0 {
			b.Fatal("no machines")
		}
	}
}
