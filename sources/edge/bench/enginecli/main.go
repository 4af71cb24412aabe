// Command enginecli fires the wake-test engine at a loopback URL for a few
// rounds and prints, per round, the median latency and the start skew, one
// line of key=value pairs each (milliseconds), for bench/compare-hey.sh.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/url"
	"time"

	"github.com/flywake/flywake/sources/edge"
)

func main() {
	target := flag.String("url", "", "base URL of a loopback server, e.g. http://127.0.0.1:PORT")
	n := flag.Int("n", 40, "requests per round, released together")
	rounds := flag.Int("rounds", 1, "rounds to fire, one after the other")
	flag.Parse()

	u, err := url.Parse(*target)
	if err != nil || u.Hostname() == "" || !net.ParseIP(u.Hostname()).IsLoopback() {
		log.Fatalf("enginecli: -url must point at 127.0.0.1, got %q", *target)
	}
	for round := 1; round <= *rounds; round++ {
		res, err := edge.Run(context.Background(), edge.Plan{URL: *target, Requests: *n, Timeout: 30 * time.Second}, nil)
		if err != nil {
			log.Fatalf("enginecli: %v", err)
		}
		s := edge.Summarize(res)
		fmt.Printf("round=%d n=%d ok=%d median_ms=%.3f p95_ms=%.3f max_ms=%.3f start_skew_ms=%.3f wire_skew_ms=%.3f\n",
			round, *n, s.OK, ms(s.P50), ms(s.P95), ms(s.Max), ms(s.StartSkew), ms(s.WireSkew))
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
