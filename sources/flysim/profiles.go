package flysim

import (
	"github.com/flywake/flywake/sources/flysim/guest"
	"github.com/flywake/flywake/sources/flysim/profile"
)

// The apps a platform plays (package profile), under the names flysim's
// callers know them by.
type (
	AppProfile    = profile.App
	Span          = profile.Span
	Phase         = profile.Phase
	RegionGroup   = profile.RegionGroup
	BytecodeImage = guest.Bytecode
	VolumeFile    = guest.VolumeFile
)

// Demo app names are stable across runs: screenshots, docs and tests use them.
const (
	DemoScaleToZero = profile.DemoScaleToZero
	DemoTuned       = profile.DemoTuned
	DemoCrash       = profile.DemoCrash
	DemoBacklog     = profile.DemoBacklog
	DemoOrg         = profile.DemoOrg
)

// DemoApps are the four apps of the demo org.
func DemoApps() []AppProfile { return profile.DemoApps() }

// SteadyOrg is an org of n quiet apps with perApp machines each, for
// tests and benchmarks at org scale (profile.SteadyOrg).
func SteadyOrg(n, perApp int) []AppProfile { return profile.SteadyOrg(n, perApp) }

// SteadyAppName is the name of SteadyOrg's app i.
func SteadyAppName(i int) string { return profile.SteadyAppName(i) }
