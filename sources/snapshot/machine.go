package snapshot

import (
	"fmt"
	"hash/fnv"
	"io"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/sources/verdict"
)

// Machine is one machine as every pane, verdict and command reads it: the
// plain machine (sources/snapshot/machine, built once from the API's
// answer in Convert) and what the release's judge says of it. The raw
// fly-go value is not kept.
type Machine struct {
	machine.Machine

	Crash diagnose.CrashVerdict
	// While a deploy moves the app's machines between releases
	// (App.Rollout.Rollout), FromRelease is the release it ran before the
	// deploy replaced it ("" when flywake did not see it change) and
	// Rollout is where it stands in the judgement of the newest release;
	// both are zero otherwise.
	FromRelease string
	Rollout     verdict.Status
	// Hash covers what the machine's row shows, ages aside: a different hash
	// than the previous listing's means the row changed.
	Hash uint64

	content uint64 // the row hash without the crash verdict, from Convert
}

// The parts of a machine, as sources/snapshot/machine has them.
type (
	Check       = machine.Check
	Event       = machine.Event
	Config      = machine.Config
	Service     = machine.Service
	Concurrency = machine.Concurrency
	ConfigCheck = machine.ConfigCheck
)

// rowHash covers what a row shows, ages aside, so a flash means something
// the user can see changed.
func rowHash(m *Machine) uint64 {
	h := fnv.New64a()
	w := func(vs ...any) {
		fmt.Fprint(h, vs...)
		_, _ = io.WriteString(h, "\x00")
	}
	w(m.ID, m.Name, m.State, m.Region, m.ProcessGroup, m.Release, m.ImageDigest, m.InstanceID, m.HostStatus, m.Cordoned,
		m.UpdatedAt.UnixNano(), len(m.Events))
	if m.Config != nil {
		w(m.Config.Autostop)
	}
	if len(m.Events) > 0 {
		e := m.Events[0]
		w(e.At.UnixNano(), e.Type, e.Status, e.Source)
	}
	for _, c := range m.Checks {
		w(c.Name, c.Status)
	}
	return h.Sum64()
}

// withCrash mixes the crash verdict (the ALERT badge) into a row hash.
func withCrash(h uint64, k diagnose.CrashKind) uint64 {
	return (h ^ uint64(k+1)) * 1099511628211 // one more FNV-1a step
}

// withRollout mixes the rollout columns (REL's "v42→v43", the ALERT
// column's rollout status) into a row hash.
func withRollout(h uint64, from string, st verdict.Status) uint64 {
	if from == "" && st == 0 {
		return h
	}
	f := fnv.New64a()
	fmt.Fprint(f, h, "\x00", from, "\x00", int(st))
	return f.Sum64()
}
