// Command flywake-perf serves a warm flysim edge for .ci/perf.sh, so the
// wake-test engine and hey can be compared on the same server: one app of
// warm machines (all started, autostop off, no background traffic, a few
// milliseconds per request, no hard limit), served on 127.0.0.1 until
// interrupted. It prints the edge's base URL on the first line of stdout.
//
//	flywake-perf [-machines 10] [-response 2ms-4ms]
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/flywake/flywake/sources/flysim"
)

// WarmApp is the app the edge serves.
const WarmApp = "warm-api"

func main() {
	machines := flag.Int("machines", 10, "warm machines behind the edge")
	minResp := flag.Duration("response-min", 2*time.Millisecond, "shortest service time of a request")
	maxResp := flag.Duration("response-max", 4*time.Millisecond, "longest service time of a request")
	flag.Parse()
	if *machines < 1 || *minResp < 0 || *maxResp < *minResp {
		log.Fatal("flywake-perf: need -machines >= 1 and 0 <= -response-min <= -response-max")
	}

	p := flysim.DemoApps()[1] // snappy-api's shape
	p.Name, p.Machines, p.InitialAwake = WarmApp, *machines, *machines
	p.MoreRegions = nil // exactly -machines, in one region
	p.Autostop, p.MinRunning = "off", 0
	p.SoftLimit, p.HardLimit = 10_000, 0 // measure the edge, not its limits
	p.ResponseTime = flysim.Span{Min: *minResp, Max: *maxResp}
	sim := flysim.New(flysim.Options{Seed: 41, History: -1, NoTraffic: true, Apps: []flysim.AppProfile{p}})
	if err := sim.Start(); err != nil {
		log.Fatal(err)
	}
	defer sim.Close()
	fmt.Println(sim.EdgeURL(WarmApp))
	_ = os.Stdout.Sync()

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
}
