package checklist

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

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

// percent formats a share as "21.9 %".
func percent(share float64) string {
	return fmt.Sprintf("%.1f %%", share*100)
}

// dur formats a duration for people: 250 ms, 9.4 s, 2 min 5 s.
func dur(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		s := strconv.FormatFloat(d.Seconds(), 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + " s"
	default:
		d = d.Round(time.Second)
		m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
		if s == 0 {
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, s)
	}
}

// andList joins words as "a", "a + b", "a, b + c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " + " + words[len(words)-1]
}
