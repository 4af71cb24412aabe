package metrics

import (
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/promql"
)

func TestCountersBySeries(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	ms := NewStore(time.Hour)
	ms.AddEdge("a", "ams", 200, t0, 3)
	ms.AddEdge("a", "ams", 200, t0.Add(90*time.Second), 2) // the second minute
	ms.AddEdge("a", "ams", 502, t0.Add(30*time.Second), 1)
	ms.AddApp("a", "ord", "m1", 200, t0, 4)
	ms.AddEdge("a", "ams", 200, t0.Add(3*time.Hour), 7) // the first minutes fall out of the hour kept

	got := map[string]float64{}
	ms.Read(func(src promql.Source) {
		for name, series := range src("") {
			for _, s := range series {
				key := name + " " + promql.LabelKey(s.Labels)
				got[key+" now"] = s.ValueAt(t0.Add(3*time.Hour + time.Minute))
				got[key+" 2m"] = s.Increase(t0, t0.Add(2*time.Minute))
			}
		}
	})
	want := map[string]float64{
		EdgeResponses + ` app="a",region="ams",status="200", now`:              12,
		EdgeResponses + ` app="a",region="ams",status="200", 2m`:               0, // pruned
		EdgeResponses + ` app="a",region="ams",status="502", now`:              1,
		EdgeResponses + ` app="a",region="ams",status="502", 2m`:               1,
		AppResponses + ` app="a",instance="m1",region="ord",status="200", now`: 4,
		AppResponses + ` app="a",instance="m1",region="ord",status="200", 2m`:  4,
	}
	if len(got) != len(want) {
		t.Fatalf("series %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if tot := ms.EdgeTotals("a"); tot[200] != 12 || tot[502] != 1 {
		t.Errorf("edge totals %v", tot)
	}
	if tot := ms.AppTotals("a"); tot["m1"][200] != 4 || len(tot) != 1 {
		t.Errorf("app totals %v", tot)
	}
}
