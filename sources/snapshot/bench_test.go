package snapshot

import (
	"fmt"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/diagnose"
)

// A page of new lines on top of a full day of logs costs the page, not the day
// (before the incremental tracker: ~835 ms per page at 150,000 lines).
func BenchmarkApplyLogsPageOnFullDay(b *testing.B) {
	var lines []diagnose.LogLine
	t := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for i := 0; i < MaxLogLines; i++ {
		t = t.Add(500 * time.Millisecond)
		m := fmt.Sprintf("m%02d", i%10)
		msg := `"GET /api/v1/notifications/ HTTP/1.1" 304 0 65ms`
		switch i % 1000 {
		case 0:
			msg = "Configuring firecracker"
		case 1:
			msg = "Machine started in 1.0s"
		}
		prov := "app"
		if i%1000 < 2 {
			prov = "runner"
		}
		lines = append(lines, diagnose.LogLine{Time: t, Machine: m, Provider: prov, Message: msg})
	}
	a := New("o", "a", nil)
	a.ApplyLogs(lines)
	extra := []diagnose.LogLine{{Time: t.Add(time.Second), Machine: "m01", Provider: "app", Message: "x"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		extra[0].Time = extra[0].Time.Add(time.Second)
		a.ApplyLogs(extra)
	}
}
