package recorder

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/watch"
)

// BenchmarkRecordSteadyOrg records an org of 100 steady apps with 100
// machines each, as `flywake record --org` watches it, for an hour of the
// platform's time lived a step at a time, and reports the calls a minute
// (the platform's minutes are the recorder's wall minutes) and the file's
// size after that hour. A steady org changes nothing after the first look
// at every machine, config and event, so the hour's size is mostly that
// look; it says nothing of a day (sources/record's benchmarks record a
// busy day).
//
//	go test ./sources/recorder -run XXX -bench RecordSteadyOrg -benchtime 1x
func BenchmarkRecordSteadyOrg(b *testing.B) {
	const hour = time.Hour
	for i := 0; i < b.N; i++ {
		sim := flysim.New(flysim.Options{Seed: 1, Frozen: true, Unlived: true, Apps: flysim.SteadyOrg(100, 100),
			Wall: func() time.Time { return DemoDayEnd }})
		if err := sim.Start(); err != nil {
			b.Fatal(err)
		}
		sim.SetRateLimits(false)
		c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token(), SteppedClock: sim.Clock().Now})
		if err != nil {
			b.Fatal(err)
		}
		src := &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}
		path := filepath.Join(b.TempDir(), "org.db")
		w, err := record.Create(path, record.Options{Org: sim.Org(), Now: src.Now})
		if err != nil {
			b.Fatal(err)
		}
		c.SetTap(&Tap{W: w, Now: src.Now})
		began := time.Now()
		start := src.Now()
		if err := Lockstep(context.Background(), Config{Source: src, Org: true, Writer: w}, sim.AdvanceTo, start.Add(hour), nil, nil); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		took := time.Since(began)
		machines, other := 0, 0
		for k, n := range sim.APICalls() {
			switch {
			case strings.HasPrefix(k, "logs:"), strings.HasPrefix(k, "prom:"):
				other += n
			default:
				machines += n
			}
		}
		size := int64(0)
		for _, suffix := range []string{"", "-wal"} {
			if st, err := os.Stat(path + suffix); err == nil {
				size += st.Size()
			}
		}
		st := w.Stats()
		b.ReportMetric(float64(machines)/60, "machines-api-calls/min")
		b.ReportMetric(float64(other)/60, "logs+prom-calls/min")
		b.ReportMetric(float64(size)/(1<<20), "MB-first-hour")
		b.Logf("an hour of 100 apps × 100 machines in %s: %d state changes, %d events, %d log lines, %d probe answers, %d counter minutes; %.1f MB",
			took.Round(time.Second), st.States, st.Events, st.Logs, st.Probes, st.Counts, float64(size)/(1<<20))
		sim.Close()
		c.Close()
	}
}
