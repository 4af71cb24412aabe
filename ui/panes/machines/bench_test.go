package machines

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
)

// One listing handed to the pane, every machine changed (renamed), the
// two listings taking turns: what the pane's SetData costs a deploy.
// The model's own work (ApplyMachines) and its garbage are left out of
// the timing.
//
//	go test ./ui/panes/machines -run '^$' -bench SetDataAllChanged -benchmem
func BenchmarkSetDataAllChanged(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			lists := [2][]*fly.Machine{}
			for i := range n {
				id := fmt.Sprintf("3d8d%010d", i)
				lists[0] = append(lists[0], machine(id, "started"))
				lists[1] = append(lists[1], machine(id, "started", withName("other-"+id)))
			}
			a := appOf(lists[0]...)
			p := newPane()
			p.SetSize(160, 30)
			p.SetData(a, t0)
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				b.StopTimer()
				i++
				a.ApplyMachines(lists[i%2], t0.Add(2*time.Duration(i)))
				runtime.GC() // the model's garbage is not the pane's
				b.StartTimer()
				p.SetData(a, t0.Add(2*time.Duration(i)))
			}
		})
	}
}
