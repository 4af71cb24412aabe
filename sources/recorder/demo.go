package recorder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/record"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
)

// DemoDayEnd is when the demo's recorded day ends (UTC). It is fixed, so
// the same seed records the same day, to the nanosecond, on every machine.
var DemoDayEnd = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

// DemoOptions configure RecordDemo.
type DemoOptions struct {
	Seed uint64 // default 1, the demo's
	// Until ends the recording early (zero: DemoDayEnd, the whole day).
	Until time.Time
	// Samples are instants at which Sample is handed the open apps' models
	// and a source of its own on the platform (a client without the
	// recorder's tap: what it reads is not recorded), while the platform
	// stands at the instant.
	Samples []time.Time
	Sample  func(at time.Time, apps []*snapshot.App, live *watch.Source)
}

// RecordDemo records the demo org's day into path: the embedded platform
// at the seed, standing at the start of its 24-hour history, is lived a
// step at a time while a recorder watches every app as an open dashboard
// would (and the org as the overview does), at the platform times a
// recorder running through that day would look. path is written whole or
// not at all.
func RecordDemo(ctx context.Context, path string, o DemoOptions) error {
	if o.Seed == 0 {
		o.Seed = 1
	}
	wall := func() time.Time { return DemoDayEnd }
	sim := flysim.New(flysim.Options{Seed: o.Seed, Frozen: true, Unlived: true, Wall: wall})
	if err := sim.Start(); err != nil {
		return err
	}
	defer sim.Close()
	sim.SetRateLimits(false) // the day's calls come as fast as the platform lives it
	c, err := fly.New(ctx, fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token(), SteppedClock: sim.Clock().Now})
	if err != nil {
		return err
	}
	defer c.Close()
	src := &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".part"
	os.Remove(tmp)
	w, err := record.Create(tmp, record.Options{Org: sim.Org(), Scope: fmt.Sprintf("the demo's day (seed %d)", o.Seed), Now: src.Now})
	if err != nil {
		return err
	}
	c.SetTap(&Tap{W: w, Now: src.Now})
	until := o.Until
	if until.IsZero() || until.After(DemoDayEnd) {
		until = DemoDayEnd
	}
	var sample func(time.Time, []*snapshot.App)
	if o.Sample != nil {
		lc, err := fly.New(ctx, fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
		if err != nil {
			w.Close()
			return err
		}
		defer lc.Close()
		live := &watch.Source{Client: lc, Org: sim.Org(), Now: sim.Clock().Now}
		sample = func(at time.Time, apps []*snapshot.App) { o.Sample(at, apps, live) }
	}
	err = Lockstep(ctx, Config{Source: src, Apps: sim.Apps(), Org: true, Writer: w}, sim.AdvanceTo, until, o.Samples, sample)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(tmp + suffix)
	}
	return os.Rename(tmp, path)
}
