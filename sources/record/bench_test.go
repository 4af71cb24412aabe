package record_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/record/recordtest"
)

// The benchmarks' day: an org of 100 apps with 100 machines each, busy
// (recordtest.WriteBusyDay), made once per test process.
const (
	benchApps     = 100
	benchMachines = 100
)

var begin = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

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

// benchDayEnv names a file the benchmarks' day is kept in between runs
// (made there when missing): profiling the readers need not remake it.
const benchDayEnv = "FLYWAKE_BENCH_DAY"

func benchDay(b *testing.B) string {
	if keep := os.Getenv(benchDayEnv); keep != "" {
		benchOnce.Do(func() {
			if _, err := os.Stat(keep); err == nil {
				return
			}
			began := time.Now()
			if benchErr = recordtest.WriteBusyDay(keep, begin, benchApps, benchMachines); benchErr == nil {
				b.Logf("made the day in %s into %s", time.Since(began).Round(time.Second), keep)
			}
		})
		if benchErr != nil {
			b.Fatal(benchErr)
		}
		return keep
	}
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "flywake-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchPath = filepath.Join(dir, "day.db")
		began := time.Now()
		benchErr = recordtest.WriteBusyDay(benchPath, begin, benchApps, benchMachines)
		if st, err := os.Stat(benchPath); err == nil {
			b.Logf("a day of %d apps × %d machines listed every %s: %.1f MB in %s", benchApps, benchMachines, recordtest.Listing,
				float64(st.Size())/(1<<20), time.Since(began).Round(time.Second))
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath
}

// BenchmarkOpen opens the day and serves one app's listing at an instant
// (what a replay's first frame waits for: the rest of the file's JSON is
// read behind it).
func BenchmarkOpen(b *testing.B) {
	path := benchDay(b)
	b.ResetTimer()
	cpu := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		r, err := record.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		js, err := r.ListingJSON("app-42", begin.Add(9*time.Hour))
		if err != nil || len(js) < 1000 {
			b.Fatalf("listing: %d bytes, %v", len(js), err)
		}
		r.Close()
	}
}

// cpuTime is the process's CPU time so far, user and system: on a shared
// machine the wall time is also the others'.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReconstructOrg rebuilds the whole org (every machine of every
// app, as the listings a replay serves) at a random instant of the day,
// once the file's JSON is read (BenchmarkOpen times the opening; the log
// says how long the rest took to read).
func BenchmarkReconstructOrg(b *testing.B) {
	path := benchDay(b)
	began := time.Now()
	r, err := record.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	opened := time.Since(began)
	if err := r.Loaded(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Logf("opened in %s; every app's JSON read %s later", opened.Round(time.Millisecond), (time.Since(began) - opened).Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(3, 4))
	apps := r.Apps(begin.Add(24 * time.Hour))
	if len(apps) != benchApps {
		b.Fatalf("%d apps", len(apps))
	}
	b.ResetTimer()
	cpu := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		at := begin.Add(time.Duration(rng.Int64N(int64(24 * time.Hour))))
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
// state at it (sources/replay's benchmark of the same name takes the step
// as the dashboard does, over HTTP).
func BenchmarkStepToNextEvent(b *testing.B) {
	path := benchDay(b)
	r, err := record.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	at := begin.Add(time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next, ok := r.Next(at)
		if !ok {
			at = begin.Add(time.Hour)
			continue
		}
		at = next
		if len(r.OrgAt(at)) == 0 {
			b.Fatal("no machines")
		}
	}
}
