package recorder

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkRecordDemo records the demo's day as `flywake --replay --demo`
// does on first use, its first FLYWAKE_BENCH_HOURS hours (default 2; 24
// is the whole day), and reports the file's size. The CPU it takes is the
// first replay's wait, and ui/app's long frame test's cost.
// FLYWAKE_BENCH_OUT=FILE keeps the recording (to compare two builds'):
//
//	FLYWAKE_BENCH_HOURS=2 go test ./sources/recorder -run XXX -bench RecordDemo -benchtime 1x -cpu 2 -cpuprofile cpu.out
func BenchmarkRecordDemo(b *testing.B) {
	hours := 2
	if v, err := strconv.Atoi(os.Getenv("FLYWAKE_BENCH_HOURS")); err == nil && v > 0 {
		hours = v
	}
	until := DemoDayEnd.Add(time.Duration(hours-24) * time.Hour)
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "demo.db")
		if err := RecordDemo(context.Background(), path, DemoOptions{Until: until}); err != nil {
			b.Fatal(err)
		}
		if st, err := os.Stat(path); err == nil {
			b.ReportMetric(float64(st.Size())/(1<<20), "MB")
		}
		if out := os.Getenv("FLYWAKE_BENCH_OUT"); out != "" { // to compare two builds' recordings
			if err := os.Rename(path, out); err != nil {
				b.Fatal(err)
			}
		}
	}
}
