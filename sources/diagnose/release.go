package diagnose

import "strconv"

// CurrentRelease names the app's current release among its machines'
// fly_release_version values: the highest one ("" when none is set).
//
// Highest, not most common: Fly numbers releases upwards, one per deploy,
// so the highest on any machine is the release the app is moving to. During
// a rolling deploy — and in a deploy halted because the new release crashes
// on its first machines — most machines still run the old release; naming
// that one would keep the crash banner off exactly the release it exists to
// catch, and the banner, the checklist and the wake report must name the
// same release. Numbers compare as numbers; anything else as text, below
// any number.
func CurrentRelease(releases []string) string {
	best := ""
	for _, r := range releases {
		if r != "" && (best == "" || releaseLess(best, r)) {
			best = r
		}
	}
	return best
}

func releaseLess(a, b string) bool {
	ai, aerr := strconv.Atoi(a)
	bi, berr := strconv.Atoi(b)
	switch {
	case aerr == nil && berr == nil:
		return ai < bi
	case aerr == nil || berr == nil:
		return aerr != nil // a number beats text
	}
	return a < b
}

// CompareReleases orders two fly_release_version values as CurrentRelease
// does (numbers as numbers, text below any number): -1, 0 or +1.
func CompareReleases(a, b string) int {
	switch {
	case a == b:
		return 0
	case releaseLess(a, b):
		return -1
	case releaseLess(b, a):
		return 1
	}
	return 0
}
