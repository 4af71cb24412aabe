package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/longtest"
	"github.com/flywake/flywake/sources/watch"
)

// TestMetricsEconomy: Prometheus calls a minute for a steady app, counted at
// flysim, with the instant queries (edge/origin, checklist item 5) and the
// Traffic pane's range queries told apart. The traffic feed may add at most
// four a minute: two for the hour under way, two more when a new
// hour began — at --speed 60 every minute is a new hour, the worst case.
//
//	FLYWAKE_LONG=1 go test ./ui/app -run TestMetricsEconomy -v
func TestMetricsEconomy(t *testing.T) {
	longtest.Need(t, "70 s: a wall minute after a warm-up")
	t.Parallel() // counts calls at its own platform: beside the fault rigs, not after them
	for _, speed := range []float64{1, 60} {
		name := fmt.Sprintf("speed%g", speed)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			instant, ranged, atSim := measureMetrics(t, speed, 10*time.Second, time.Minute)
			perfLine(t, "metrics."+name, "%d Prometheus calls/min at flysim: %d instant (edge/origin), %d range (traffic feed)", atSim, instant, ranged)
			if instant+ranged != atSim {
				t.Errorf("the proxy saw %d instant + %d range calls, flysim counted %d", instant, ranged, atSim)
			}
			if ranged > 4 || ranged < 2 {
				t.Errorf("the traffic feed made %d calls in a minute, want 2–4", ranged)
			}
			if instant > 4 {
				t.Errorf("edge/origin made %d calls in a minute, want 4", instant)
			}
		})
	}
}

// measureMetrics runs the dashboard on a steady app at speed, waits out
// warmup (the first fetches), then counts the Prometheus calls of window:
// at a proxy in front of flysim by endpoint, and at flysim itself.
func measureMetrics(t *testing.T, speed float64, warmup, window time.Duration) (instant, ranged, atSim int) {
	const name = "steady-metrics"
	sim := flysim.New(flysim.Options{Seed: 21, Speed: speed, History: -1, NoTraffic: true, Apps: []flysim.AppProfile{steadyProfile(name, 3)}})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sim.Close() }()
	u, _ := url.Parse(sim.URL())
	var nInstant, nRange atomic.Int64
	rp := httputil.NewSingleHostReverseProxy(u)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/api/v1/query_range"):
			nRange.Add(1)
		case strings.HasSuffix(r.URL.Path, "/api/v1/query"):
			nInstant.Add(1)
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: proxy.URL, APIURL: proxy.URL, Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}
	prog := runHeadless(t, dashboard(src, name), 160, 48)
	defer prog.stop(t)
	key := "prom:" + sim.Org()
	time.Sleep(warmup)
	i0, r0, s0 := nInstant.Load(), nRange.Load(), sim.APIStats()[key].Calls
	time.Sleep(window)
	i1, r1, s1 := nInstant.Load(), nRange.Load(), sim.APIStats()[key].Calls
	return int(i1 - i0), int(r1 - r0), s1 - s0
}
