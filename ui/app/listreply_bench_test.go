package app

import (
	"fmt"
	"testing"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
)

// One machines listing reply through the root's Update, with every pane
// holding n fixture machines: what a refresh freezes the keyboard for.
// The floors: ≤ 3 ms at 1,000 and ≤ 16 ms (a 60 Hz frame) at 10,000.
//
//	go test ./ui/app -run '^$' -bench 'ListReply|ListConvert' -benchmem
//
// The listing's conversion into the model's plain machines runs in the
// listing command, off the UI goroutine; BenchmarkListConvert measures it.
func BenchmarkListReply(b *testing.B) {
	for _, n := range benchCounts {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := rootForBench(b, n)
			conv := snapshot.Convert(flyc.Listing{Machines: newFixture(n, t0).machines})
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				next, _ := m.Update(convReply(m, conv))
				m = next.(Model)
			}
		})
	}
}

func BenchmarkListConvert(b *testing.B) {
	for _, n := range benchCounts {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			l := flyc.Listing{Machines: newFixture(n, t0).machines}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = snapshot.Convert(l)
			}
		})
	}
}

// TestListReplyAllocsIndependentOfMachines is the deterministic guard of
// the floors above: a listing reply allocates about as often at 1,000
// machines as at 10 (rows are cached by hash and styled when drawn, so no
// per-machine allocation is left in Update). Allocation counts, unlike
// time, do not depend on the machine's load.
func TestListReplyAllocsIndependentOfMachines(t *testing.T) {
	allocs := func(n int) float64 {
		m := rootForBench(t, n)
		conv := snapshot.Convert(flyc.Listing{Machines: newFixture(n, t0).machines})
		return testing.AllocsPerRun(10, func() {
			next, _ := m.Update(convReply(m, conv))
			m = next.(Model)
		})
	}
	small, big := allocs(10), allocs(1000)
	t.Logf("allocs per listing reply: %.0f at 10 machines, %.0f at 1,000", small, big)
	if big > 1.5*small {
		t.Errorf("a 1,000-machine listing reply allocates %.0f times, a 10-machine one %.0f: want ≤ 1.5×", big, small)
	}
}
