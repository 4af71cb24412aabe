package edge

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// BenchmarkRun fires bursts at a local server and reports the start skew and
// the median latency per burst size.
func BenchmarkRun(b *testing.B) {
	for _, n := range []int{40, 200, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			srv, _ := newServer(b, func(w http.ResponseWriter, r *http.Request) {})
			var skew, p50 time.Duration
			for b.Loop() {
				res, err := Run(context.Background(), Plan{URL: srv.URL, Requests: n}, nil)
				if err != nil {
					b.Fatal(err)
				}
				s := Summarize(res)
				if s.OK != n {
					b.Fatalf("ok %d of %d: %v", s.OK, n, s.ByErrClass)
				}
				skew += s.StartSkew
				p50 += s.P50
			}
			b.ReportMetric(float64(skew.Microseconds())/float64(b.N), "skew-µs/op")
			b.ReportMetric(float64(p50.Microseconds())/float64(b.N), "p50-µs/op")
		})
	}
}
