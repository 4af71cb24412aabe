package snapshot

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	flyapi "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/fly/flytest"
	"github.com/flywake/flywake/sources/verdict"
)

// An App fed every listing through a Converter (hashes in order, as the
// client hands them) ends each step where an App fed fresh conversions
// does: its machines, the judge's result, and the checklist's evidence.
func TestConverterAppAgreesWithFreshOverRandomWalks(t *testing.T) {
	t.Parallel()
	walks := int64(150)
	if testing.Short() {
		walks = 30 // the race step runs -short: a fifth of the walks
	}
	for seed := int64(0); seed < walks; seed++ {
		rng := rand.New(rand.NewSource(seed))
		now := t0
		var ms []*fly.Machine
		for i := 0; i < 5; i++ {
			m := flyMachine(fmt.Sprintf("m%d", i), "started", "d1", now)
			m.Config.Services = []fly.MachineService{{InternalPort: 8080}}
			m.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: "passing"}}
			ms = append(ms, m)
		}
		var cv Converter
		inc, ref := New("org", "app", nil), New("org", "app", nil)
		ref.judge = verdict.New(verdict.Options{Afresh: true}) // no shortcut: what they are tested against
		var log []string
		for step := 0; step < 50; step++ {
			i := rng.Intn(len(ms))
			c := *ms[i]
			cfg := *c.Config
			cfg.Metadata = map[string]string{"fly_release_version": c.Config.Metadata["fly_release_version"]}
			c.Config = &cfg
			c.Checks = []*fly.MachineCheckStatus{{Name: "http", Status: ms[i].Checks[0].Status}}
			c.Events = append([]*fly.MachineEvent(nil), ms[i].Events...)
			what := "wait"
			switch rng.Intn(9) {
			case 0, 1:
				now = now.Add(time.Duration(rng.Intn(8000)) * time.Millisecond)
			case 2:
				now = now.Add(time.Duration(rng.Intn(30)) * time.Hour)
			case 3:
				now = now.Add(2500 * time.Millisecond)
				c.Events = append([]*fly.MachineEvent{{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: now.UnixMilli(),
					Request: &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{ExitCode: 1, Restarting: true, ExitedAt: now}}},
					{Type: "start", Status: "started", Source: "flyd", Timestamp: now.Add(time.Second).UnixMilli()}}, c.Events...)
				if len(c.Events) > 5 {
					c.Events = c.Events[:5]
				}
				what = "crash " + c.ID
			case 4:
				c.State = []string{"started", "stopped", "replacing", "suspended"}[rng.Intn(4)]
				what = c.ID + " " + c.State
			case 5:
				c.Checks[0].Status = fly.ConsulCheckStatus([]string{"passing", "critical"}[rng.Intn(2)])
				what = c.ID + " check " + string(c.Checks[0].Status)
			case 6:
				c.Config.Metadata["fly_release_version"] = []string{"6", "7", "8"}[rng.Intn(3)]
				what = c.ID + " release " + c.Config.Metadata["fly_release_version"]
			case 7:
				c.Name = fmt.Sprintf("n%d", rng.Intn(3))
				what = c.ID + " renamed"
			case 8:
				now = now.Add(-time.Duration(rng.Intn(3000)) * time.Millisecond)
				what = "clock back"
			}
			ms[i] = &c
			log = append(log, what)
			inc.ApplyConverted(cv.Convert("app", flytest.Hashed(t, ms)), now)
			ref.ApplyListing(flyapi.Listing{Machines: ms}, now)
			if !reflect.DeepEqual(inc.Rollout, ref.Rollout) {
				t.Fatalf("seed %d step %d %v: result\n%+v\nwant\n%+v", seed, step, log, inc.Rollout, ref.Rollout)
			}
			for k := range ref.Machines {
				g, w := inc.Machines[k], ref.Machines[k]
				if g.Hash != w.Hash || g.Crash != w.Crash || g.State != w.State || g.Name != w.Name || g.Release != w.Release ||
					g.FromRelease != w.FromRelease || g.Rollout != w.Rollout {
					t.Fatalf("seed %d step %d %v: machine %d\n%+v\nwant\n%+v", seed, step, log, k, g, w)
				}
			}
			if g, w := inc.Evidence(now, nil, nil), ref.Evidence(now, nil, nil); !reflect.DeepEqual(g, w) {
				t.Fatalf("seed %d step %d %v: evidence\n%+v\nwant\n%+v", seed, step, log, g, w)
			}
		}
	}
}
