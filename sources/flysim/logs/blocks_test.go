package logs

import (
	"reflect"
	"strconv"
	"testing"
	"time"
)

// TestStoreBlocksKeepOrder: the store, which keeps its lines in blocks,
// answers Lines, Query and Tail as one plain slice trimmed the same way
// would, whatever the bound (drops within a block, across blocks, none).
func TestStoreBlocksKeepOrder(t *testing.T) {
	for _, max := range []int{1, 7, 4096, 5000, 9000, 400000} {
		s := NewStore(max)
		var ref []Line
		t0 := time.Unix(0, 0)
		for i := 0; i < 30000; i++ {
			ln := Line{App: "a", Message: strconv.Itoa(i), Time: t0.Add(time.Duration(i/3) * time.Second), Machine: strconv.Itoa(i % 3)}
			s.Add(ln)
			ref = append(ref, ln)
			if len(ref) > max {
				ref = append(ref[:0:0], ref[len(ref)-max+max/10:]...)
			}
			if i%997 == 0 || i == 29999 {
				if got := s.Lines("a"); !reflect.DeepEqual(got, ref) && !(len(got) == 0 && len(ref) == 0) {
					t.Fatalf("max %d i %d: %d lines, want %d", max, i, len(got), len(ref))
				}
				after := t0.Add(time.Duration(i/6) * time.Second)
				q := s.Query("a", after, "1", "", 50)
				var want []Line
				for _, r := range ref {
					if r.Time.After(after) && r.Machine == "1" && len(want) < 50 {
						want = append(want, r)
					}
				}
				if !reflect.DeepEqual(q, want) {
					t.Fatalf("max %d i %d: query differs %d %d", max, i, len(q), len(want))
				}
				tl := s.Tail("a", after, "", "", 30)
				var wt []Line
				for j := len(ref) - 1; j >= 0 && len(wt) < 30 && !ref[j].Time.Before(after); j-- {
					wt = append([]Line{ref[j]}, wt...)
				}
				if !reflect.DeepEqual(tl, wt) {
					t.Fatalf("max %d i %d: tail differs %d %d", max, i, len(tl), len(wt))
				}
			}
		}
	}
}
