package replay

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/record/recordtest"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// BenchmarkStepToNextEvent is `]` in the time bar on a day-long recording
// of 100 apps × 100 machines, each stopping and starting every 40 minutes
// (recordtest.WriteBusyDay; FLYWAKE_BENCH_DAY keeps it between runs): the
// next moment a machine changed or an event happened, the clock moved
// there, and the open app's listing served at it over HTTP to the fly-go
// client and converted into the model: what the machines table shows
// after the step (the other feeds the step asks for again answer beside
// it, each into its own tile). It reports the step in ms, wall and CPU;
// the target is a frame, 16 ms. (Fly's rate limit on listings is off: it
// paces a person stepping, not the step.) sources/record's benchmarks
// time the whole org rebuilt at an instant.
//
//	go test ./sources/replay -run XXX -bench StepToNextEvent -benchtime 200x
func BenchmarkStepToNextEvent(b *testing.B) {
	begin := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	path := os.Getenv("FLYWAKE_BENCH_DAY")
	if path == "" {
		path = filepath.Join(b.TempDir(), "day.db")
	}
	if _, err := os.Stat(path); err != nil {
		began := time.Now()
		if err := recordtest.WriteBusyDay(path, begin, 100, 100); err != nil {
			b.Fatal(err)
		}
		b.Logf("made the day in %s", time.Since(began).Round(time.Second))
	}
	rec, err := record.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()
	if err := rec.Loaded(context.Background()); err != nil { // a replay opened a while ago
		b.Fatal(err)
	}
	from, to := rec.Span()
	clock := NewClock(from.Add(time.Hour), to, true)
	p := New(rec, clock, Options{})
	if err := p.Start(); err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	p.gate.SetRateLimits(false)
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: p.URL(), APIURL: p.URL(), Token: p.Token(), SteppedClock: clock.Now})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	src := &watch.Source{Client: c, Org: p.Org(), Now: clock.Now}
	const app = "app-42"
	model := snapshot.New(p.Org(), app, nil)
	ctx := context.Background()
	step := func() {
		next, ok := rec.Next(clock.Now())
		if !ok || next.After(to) {
			next = from.Add(time.Hour)
		}
		clock.Seek(next)
		r := src.Do(ctx, watch.Job{Kind: watch.ListJob, App: app, Timeout: 10 * time.Second})
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		model.ApplyConverted(r.Listing, next)
		if len(model.Machines) != 100 {
			b.Fatalf("at %s: %d machines of %s", next, len(model.Machines), app)
		}
	}
	step() // the first listing converts every machine; a step converts what changed
	b.ResetTimer()
	began, cpu := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		step()
	}
	// The wall time, and the process's CPU time (client, platform and
	// model alike): on a shared machine the wall time is also the others'.
	b.ReportMetric(float64(time.Since(began).Microseconds())/1000/float64(b.N), "ms/step")
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/step")
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
