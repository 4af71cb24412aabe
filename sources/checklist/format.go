package checklist

import (
	"math"

	"github.com/flywake/flywake/sources/words"
)

// count formats an integer with thousands separators: 5,707.
func count(n int) string { return words.Thousands(n) }

// countf rounds a metric count and formats it like count.
func countf(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "?"
	}
	return count(int(math.Round(f)))
}
