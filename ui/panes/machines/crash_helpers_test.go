package machines

import "github.com/flywake/flywake/sources/diagnose"

// snapshotCrash names a crash verdict kind for table cases.
type snapshotCrash int

const (
	steady snapshotCrash = iota
	crashLooping
	gaveUp
)

func (s snapshotCrash) kind() diagnose.CrashKind {
	switch s {
	case crashLooping:
		return diagnose.CrashLooping
	case gaveUp:
		return diagnose.GaveUp
	}
	return diagnose.Steady
}
