package frame

import "strings"

// sparkBars are the eight bar heights, lowest first.
var sparkBars = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws the newest width values as bars scaled from 0 to the
// largest value, newest on the right, exactly width cells. Missing history
// is blank on the left; negative values count as 0.
func Sparkline(values []int, width int) string {
	if width <= 0 {
		return ""
	}
	if len(values) > width {
		values = values[len(values)-width:]
	}
	peak := 0
	for _, v := range values {
		peak = max(peak, v)
	}
	var b strings.Builder
	b.Grow(width * 3)
	b.WriteString(strings.Repeat(" ", width-len(values)))
	top := len(sparkBars) - 1
	for _, v := range values {
		level := 0
		if peak > 0 && v > 0 {
			// Round to the nearest bar; any positive value shows above the floor.
			level = max((v*top*2+peak)/(peak*2), 1)
		}
		b.WriteRune(sparkBars[level])
	}
	return b.String()
}
