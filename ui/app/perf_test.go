package app

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/longtest"
	"github.com/flywake/flywake/sources/race"
	"github.com/flywake/flywake/sources/watch"
)

// The dashboard's data-flow figures (README "Performance"). Run by
// .ci/perf.sh with FLYWAKE_PERF=1; without it only the 10-machine API budget
// (in the long mode: FLYWAKE_LONG=1) and the in-process
// start-up check run.
//
//	FLYWAKE_PERF=1 FLYWAKE_LONG=1 go test ./ui/app -run 'TestAPIEconomy|TestDetectionLatency|TestStartup' -v -count=1

// steadyMachinesPerMinute is the Machines API budget for a steady
// 10-machine app (README "Performance"): the scheduler's own, with a wait
// on every machine.
const steadyMachinesPerMinute = watch.MachinesPerMin

// byteCounter is a reverse proxy in front of flysim that counts response
// bytes: Machines API apart from logs and Prometheus.
type byteCounter struct {
	srv            *httptest.Server
	machines, rest atomic.Int64
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func newByteCounter(t testing.TB, target string) *byteCounter {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	bc := &byteCounter{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(r *http.Response) error {
		n := &bc.rest
		if strings.HasPrefix(r.Request.URL.Path, "/v1/") {
			n = &bc.machines
		}
		r.Body = countingBody{r.Body, n}
		return nil
	}
	bc.srv = httptest.NewServer(rp)
	t.Cleanup(bc.srv.Close)
	return bc
}

// economy is what the dashboard cost the platform over one window.
type economy struct {
	machines     int
	window       time.Duration
	byAction     map[string]int
	machinesAPI  int   // list, get, wait, exec, … (logs and prom apart)
	apiBytes     int64 // Machines API response bytes
	otherBytes   int64 // logs and Prometheus response bytes
	listBytes    int   // one list of the app, as `fly machine list` fetches it
	maxPerSecond int   // busiest wall second of any one (action, id)
	limited      int   // 429s
}

func (e economy) perMinute(n float64) float64 { return n * float64(time.Minute) / float64(e.window) }

// measureEconomy runs the dashboard against a steady app of n machines at
// speed 1 for window and reads the counters at flysim.
func measureEconomy(t *testing.T, n int, window time.Duration) economy {
	name := fmt.Sprintf("steady-%d", n)
	sim := flysim.New(flysim.Options{Seed: 21, History: -1, NoTraffic: true, Apps: []flysim.AppProfile{steadyProfile(name, n)}})
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sim.Close() }()
	bc := newByteCounter(t, sim.URL())
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: bc.srv.URL, APIURL: bc.srv.URL, Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}
	prog := runHeadless(t, dashboard(src, name), 160, 48)
	time.Sleep(window)
	stats := sim.APIStats()
	prog.stop(t)
	e := economy{machines: n, window: window, apiBytes: bc.machines.Load(), otherBytes: bc.rest.Load()}
	calls := map[string]int{}
	for k, s := range stats {
		calls[k] = s.Calls
		e.limited += s.Limited
		if !strings.HasPrefix(k, "logs:") && !strings.HasPrefix(k, "prom:") {
			e.maxPerSecond = max(e.maxPerSecond, s.MaxPerSecond)
		}
	}
	e.byAction, e.machinesAPI = machinesAPI(calls)
	e.listBytes = listSize(t, sim, name)
	return e
}

// listSize fetches the machine list once, the way `fly machine list` does.
func listSize(t *testing.T, sim *flysim.Sim, app string) int {
	req, _ := http.NewRequest(http.MethodGet, sim.URL()+"/v1/apps/"+app+"/machines", nil)
	req.Header.Set("Authorization", "Bearer "+sim.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("list: %d %v", resp.StatusCode, err)
	}
	return len(b)
}

// TestAPIEconomy: Machines API calls per minute for steady apps, counted at
// flysim, against `fly machine list` every 2 s (30 lists a minute). The
// 10-machine budget runs in the long mode (one wall minute); 500 machines
// with FLYWAKE_PERF too.
func TestAPIEconomy(t *testing.T) {
	longtest.Need(t, "one wall minute")
	t.Parallel() // counts calls at its own platform: beside the fault rigs, not after them
	sizes := []int{10}
	if perfOn() {
		sizes = append(sizes, 500)
	}
	for _, n := range sizes {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			e := measureEconomy(t, n, time.Minute)
			perMin := e.perMinute(float64(e.machinesAPI))
			peerBytes := 30 * e.listBytes
			perfLine(t, fmt.Sprintf("economy.%d", n),
				"%.1f Machines API calls/min (%s), %.0f KB/min Machines API + %.0f KB/min logs/prom; "+
					"fly machine list every 2 s: 30 calls/min, %.0f KB/min (one list %d B); ratio calls %.2fx, bytes %.2fx; 429s %d, busiest second of one Machines API key %d",
				perMin, actionsLine(e.byAction), e.perMinute(float64(e.apiBytes))/1024, e.perMinute(float64(e.otherBytes))/1024,
				float64(peerBytes)/1024, e.listBytes, perMin/30, e.perMinute(float64(e.apiBytes))/float64(peerBytes),
				e.limited, e.maxPerSecond)
			if n == 10 && perMin > steadyMachinesPerMinute {
				t.Errorf("steady 10-machine app: %.1f Machines API calls/min, budget %d", perMin, steadyMachinesPerMinute)
			}
			if e.limited > 0 {
				t.Errorf("the dashboard drew %d 429s from a steady app", e.limited)
			}
		})
	}
}

func actionsLine(by map[string]int) string {
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, by[k]))
	}
	return strings.Join(parts, ", ")
}

func percentile(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	rank := max((p*len(s)+99)/100, 1)
	return s[rank-1]
}

func pct(ds []time.Duration, p int) string {
	return percentile(ds, p).Round(time.Millisecond).String()
}

// TestStartup: from nothing to the first full frame of the demo in process —
// flysim.New (a day of history) + Start, the root model, its first listing
// and logs applied, and a View showing machine rows. Median of 5.
func TestStartup(t *testing.T) {
	runs := 1
	if perfOn() {
		runs = 5
	} else {
		t.Parallel() // the budget is asserted alone (FLYWAKE_PERF=1)
	}
	var took []time.Duration
	for range runs {
		took = append(took, startupOnce(t))
	}
	perfLine(t, "startup.inprocess", "median %s of %d (min %s, max %s)", pct(took, 50), runs, pct(took, 0), pct(took, 100))
	// A wall-clock budget, asserted where the figure is measured alone
	// (.ci/perf.sh, FLYWAKE_PERF=1): beside the rest of the suite on shared
	// cores it says how busy the machine was, not how fast flywake is.
	if m := percentile(took, 50); m > 10*time.Second && perfOn() && !race.Enabled {
		t.Errorf("first full frame after %s", m)
	}
}

func startupOnce(t *testing.T) time.Duration {
	t0 := time.Now()
	sim := flysim.New(flysim.Options{Seed: 1})
	src, client := simSource(t, sim)
	defer func() { _ = sim.Close() }()
	defer client.Close()
	frame := make(chan time.Duration, 1)
	var listed, logged, sent bool
	model := observed{Model: dashboard(src, flysim.DemoScaleToZero), onMsg: func(m *Model, msg tea.Msg, at time.Time) {
		if r, ok := msg.(watch.Reply); ok {
			listed = listed || (r.Kind == watch.ListJob && len(m.app.Machines) > 0)
			logged = logged || (r.Kind == watch.FeedJob && m.sched.FeedName(r.Feed) == "logs")
		}
		if listed && logged && !sent && strings.Contains(ansi.Strip(m.View()), "of 10") {
			sent = true
			frame <- time.Since(t0)
		}
	}}
	prog := runHeadless(t, model, 160, 48)
	defer prog.stop(t)
	select {
	case d := <-frame:
		return d
	case <-time.After(startupPatience()):
		t.Fatalf("no full frame within %s", startupPatience())
		return 0
	}
}

// startupPatience bounds the wait for the first full frame: it is the
// benchmark's figure that is held to a target, this only ends a hang. The
// race detector on loaded cores needs more than 20 s.
func startupPatience() time.Duration {
	if race.Enabled {
		return time.Minute
	}
	return 20 * time.Second
}
