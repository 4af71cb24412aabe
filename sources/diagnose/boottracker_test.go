package diagnose

import (
	"reflect"
	"testing"
	"time"
)

// Fed page by page, the tracker builds exactly what Boots builds at once.
func TestBootTrackerMatchesBoots(t *testing.T) {
	var lines []LogLine
	start := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	for i, m := range []string{"m1", "m2", "m3"} {
		for b := 0; b < 4; b++ {
			lines = append(lines, linesFor(m, start.Add(time.Duration(b*120+i*7)*time.Second), scaleToZeroBoot(10))...)
		}
	}
	sortByTime(lines)
	want := boots(lines, DefaultMarkers())
	if len(want) != 12 {
		t.Fatalf("fixture: %d boots, want 12", len(want))
	}
	for _, page := range []int{1, 7, 100, len(lines)} {
		tr := NewBootTracker(DefaultMarkers())
		for i := 0; i < len(lines); i += page {
			tr.Add(lines[i:min(i+page, len(lines))])
		}
		if got := tr.Boots(); !reflect.DeepEqual(got, want) {
			t.Errorf("pages of %d lines: %d boots differ from Boots' %d", page, len(got), len(want))
		}
	}
}

func sortByTime(lines []LogLine) {
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j].Time.Before(lines[j-1].Time); j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
}
