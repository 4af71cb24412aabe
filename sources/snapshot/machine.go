package snapshot

import (
	"hash/maphash"

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
// the user can see changed. It runs on every machine converted, so each
// string is hashed whole (maphash) and mixed in, with no allocation.
func rowHash(m *machine.Machine) uint64 {
	h := fnvOffset
	for _, s := range [...]string{m.ID, m.Name, m.State, m.Region, m.ProcessGroup, m.Release, m.ImageDigest, m.InstanceID, m.HostStatus} {
		h = mixString(h, s)
	}
	h = fnvBool(h, m.Cordoned)
	h = mix(h, uint64(m.UpdatedAt.UnixNano()))
	h = mix(h, uint64(len(m.Events)))
	if m.Config != nil {
		h = mixString(fnvBool(h, true), m.Config.Autostop)
	}
	if len(m.Events) > 0 {
		e := m.Events[0]
		h = mix(h, uint64(e.At.UnixNano()))
		h = mixString(mixString(mixString(h, e.Type), e.Status), e.Source)
	}
	for _, c := range m.Checks {
		h = mixString(mixString(h, c.Name), c.Status)
	}
	return h
}

// rowSeed keys rowHash's strings: its hashes are compared within one
// process only.
var rowSeed = maphash.MakeSeed()

// mixString mixes s's hash (its length included) into h.
func mixString(h uint64, s string) uint64 { return mix(h, maphash.String(rowSeed, s)) }

// mix folds v into h so that the order of what is folded counts (a
// multiply and a shift: each bit of v reaches most of h's).
func mix(h, v uint64) uint64 {
	h = (h ^ v) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// FNV-1a, 64 bits (hash/fnv's constants), written out so a string or a
// number is mixed in without an interface or a buffer.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// fnvString mixes s and a terminator, so "ab","c" and "a","bc" differ.
func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return (h ^ 0xff) * fnvPrime // 0xff never occurs in UTF-8
}

func fnvInt(h uint64, v int64) uint64 {
	for i := 0; i < 8; i++ {
		h = (h ^ uint64(byte(v>>(8*i)))) * fnvPrime
	}
	return h
}

func fnvBool(h uint64, b bool) uint64 {
	if b {
		return (h ^ 1) * fnvPrime
	}
	return (h ^ 2) * fnvPrime
}

// withCrash mixes the crash verdict (the ALERT badge) into a row hash.
func withCrash(h uint64, k diagnose.CrashKind) uint64 {
	return (h ^ uint64(k+1)) * fnvPrime // one more FNV-1a step
}

// withRollout mixes the rollout columns (REL's "v42→v43", the ALERT
// column's rollout status) into a row hash.
func withRollout(h uint64, from string, st verdict.Status) uint64 {
	if from == "" && st == 0 {
		return h
	}
	return fnvInt(fnvString(h, from), int64(st))
}
