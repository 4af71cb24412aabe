package app

import (
	"fmt"
	"testing"

	flygo "github.com/superfly/fly-go"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/fly/flytest"
	"github.com/flywake/flywake/sources/snapshot"
)

// One machines listing reply through the root's Update, conversion
// included, with every pane holding n fixture machines: what a refresh
// costs the dashboard. Three cases: the listing unchanged, one machine
// changed, every machine changed (a deploy, a mass autostop); each reply
// alternates between the fixture and its changed copy. The listing
// command's Converter converts only the machines whose entry changed.
//
//	go test ./ui/app -run '^$' -bench 'ListReply|ListConvert' -benchmem
//
// The conversion into the model's plain machines runs in the listing
// command, off the UI goroutine; BenchmarkListConvert measures it alone.
func BenchmarkListReply(b *testing.B) {
	for _, n := range benchCounts {
		base := newFixture(n, t0).machines
		cases := []struct {
			name string
			next []*flygo.Machine
		}{
			{"unchanged", base},
			{"one", renamed(base, func(i int) bool { return i == n/2 })},
			{"changed", renamed(base, func(int) bool { return true })},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				m := rootForBench(b, n)
				lists := [2]flyc.Listing{flytest.Hashed(b, c.next), flytest.Hashed(b, base)}
				var cv snapshot.Converter // as the listing command has it
				cv.Convert(fixtureApp, lists[1])
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				for b.Loop() {
					conv := cv.Convert(fixtureApp, lists[i%2])
					next, _ := m.Update(convReply(m, conv))
					m = next.(Model)
					i++
				}
			})
		}
	}
}

// renamed copies ms, renaming the machines pick picks: a change every
// pane shows.
func renamed(ms []*flygo.Machine, pick func(int) bool) []*flygo.Machine {
	out := make([]*flygo.Machine, len(ms))
	for i, m := range ms {
		out[i] = m
		if pick(i) {
			c := *m
			c.Name += "-b"
			out[i] = &c
		}
	}
	return out
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

// BenchmarkListApply is BenchmarkListReply's "changed" case without the
// conversion: two listings converted once, every machine differing
// between them, handed to the root's Update in turn. What the UI
// goroutine pays for a listing in which every machine changed.
func BenchmarkListApply(b *testing.B) {
	for _, n := range benchCounts {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base := newFixture(n, t0).machines
			m := rootForBench(b, n)
			// One converter, as the listing command has it: the changed
			// copy shares what did not change with the fixture's.
			var cv snapshot.Converter
			var convs [2]snapshot.Converted
			convs[1] = cv.Convert(fixtureApp, flytest.Hashed(b, base))
			convs[0] = cv.Convert(fixtureApp, flytest.Hashed(b, renamed(base, func(int) bool { return true })))
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				next, _ := m.Update(convReply(m, convs[i%2]))
				m = next.(Model)
				i++
			}
		})
	}
}
