package snapshot

import (
	"fmt"
	"testing"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/fly/flytest"
)

// One converted listing of n machines through ApplyConverted alone (the
// judge and the model's machines, no conversion): two listings converted
// once by one Converter, alternated. "one" renames one machine between
// them, "changed" every machine. What the UI goroutine pays the model.
//
//	go test ./sources/snapshot -run '^$' -bench 'ApplyConverted' -benchmem
func BenchmarkApplyConverted(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		base := benchFleet(n, "")
		renamed := benchFleet(n, "-b")
		one := append([]*fly.Machine(nil), base...)
		one[n/2] = renamed[n/2]
		for _, c := range []struct {
			name string
			next []*fly.Machine
		}{{"unchanged", base}, {"one", one}, {"changed", renamed}} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				a := New("o", "a", nil)
				var cv Converter
				var convs [2]Converted
				convs[1] = cv.Convert("a", flytest.Hashed(b, base))
				convs[0] = cv.Convert("a", flytest.Hashed(b, c.next))
				a.ApplyConverted(convs[1], t0)
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				for b.Loop() {
					a.ApplyConverted(convs[i%2], t0) // the clock still, as in ui/app's
					i++
				}
			})
		}
	}
}
