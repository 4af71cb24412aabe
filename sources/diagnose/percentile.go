package diagnose

import (
	"math"
	"slices"
	"time"
)

// Percentile returns the p-th percentile (0 < p <= 100) of values by the
// nearest-rank method: sort ascending and take the value at rank ceil(p/100*n).
// Nearest rank always returns one of the observed values (no interpolation),
// which is what "p95 cold start" should mean on a list of a few dozen boots.
// Empty input or p outside (0, 100] gives 0. values is not modified.
func Percentile(values []time.Duration, p float64) time.Duration {
	if len(values) == 0 || !(p > 0 && p <= 100) {
		return 0
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}

// Median is the 50th percentile by nearest rank (the lower middle for even counts).
func Median(values []time.Duration) time.Duration {
	return Percentile(values, 50)
}
