package app

import (
	"fmt"
	"testing"

	flyc "github.com/flywake/flywake/sources/fly"
)

func BenchmarkListReply(b *testing.B) {
	for _, n := range benchCounts {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := rootForBench(b, n)
			ms := newFixture(n, t0).machines
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				next, _ := m.Update(machinesMsg{req: req{gen: m.gen, id: m.seq + 1}, listing: flyc.Listing{Machines: ms}})
				m = next.(Model)
			}
		})
	}
}
