// Package recorder is `flywake record`: the dashboard's data layer run
// without a screen (watch.go, the one file that knows sources/watch), and
// a tap on its client (this file) that hands every answer it reads to a
// recording (sources/record). It makes no call the dashboard would not
// make, but one: the response counters per minute (two Prometheus queries
// a minute for the whole org), which the dashboard reads only for the app
// it has open.
package recorder

import (
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/record"
)

// Tap hands what the client reads to a recording, timestamped with the
// platform's clock.
type Tap struct {
	W   *record.Writer
	Now func() time.Time
}

var _ fly.Tap = (*Tap)(nil)

func (t *Tap) Listed(app string, l fly.Listing) { t.W.Listing(t.Now(), app, l) }

func (t *Tap) Got(app string, m *fly.Machine) { t.W.Machine(t.Now(), app, m, false) }

func (t *Tap) Logged(app string, entries []fly.LogEntry) {
	if len(entries) > 0 {
		t.W.Logs(app, entries)
	}
}

func (t *Tap) Executed(app, id, cmd string, res fly.MachineExecResponse) {
	t.W.Probe(t.Now(), app, id, cmd, res)
}

func (t *Tap) VolumesListed(app string, vs []fly.Volume) { t.W.Volumes(t.Now(), app, vs) }

func (t *Tap) AppsListed(_ string, apps []fly.App) {
	names := make([]string, 0, len(apps))
	for _, a := range apps {
		names = append(names, a.Name)
	}
	t.W.Apps(t.Now(), names)
}
