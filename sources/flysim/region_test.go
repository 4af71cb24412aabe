package flysim

import (
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
	"github.com/superfly/fly-go/flaps"
)

// twoRegionApp has three started machines in its primary region (ams,
// min_machines_running 1) and three in ord, with no traffic of its own.
func twoRegionApp() AppProfile {
	p := DemoApps()[1]
	p.Name = "two-regions"
	p.Machines, p.InitialAwake = 3, 3
	p.MoreRegions = []RegionGroup{{Region: "ord", Machines: 3, InitialAwake: 3}}
	return p
}

// listByRegion lists the app through fly-go and counts started machines per
// region.
func listByRegion(t *testing.T, c *flaps.Client, app string) (started map[string]int, ms []*fly.Machine) {
	t.Helper()
	ms, err := c.List(ctxT(t), app, "")
	if err != nil {
		t.Fatal(err)
	}
	started = map[string]int{}
	for _, m := range ms {
		if m.State == fly.MachineStateStarted {
			started[m.Region]++
		}
	}
	return started, ms
}

// TestContractMinRunningPrimaryRegionOnly: autostop runs per region, one
// machine per region per pass, and min_machines_running holds in the primary
// region only: ams keeps one machine, ord goes to zero (fly-platform.md §3.1,
// §4.1). Every machine still carries min_machines_running 1 in its config.
func TestContractMinRunningPrimaryRegionOnly(t *testing.T) {
	t.Parallel()
	p := twoRegionApp()
	s := New(Options{Speed: 200, History: -1, NoTraffic: true, Seed: contractSeed, AutostopInterval: time.Minute,
		Apps: []AppProfile{p}})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c := clientFor(t, s, s.Token())

	// Wait on the platform itself (the list's rate limit is for users), then
	// look through fly-go.
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		s.sched.Lock()
		asleep := 0
		for _, m := range s.store.App(p.Name).Machines() {
			if m.State() == "suspended" {
				asleep++
			}
		}
		s.sched.Unlock()
		if asleep == 5 {
			break
		}
	}
	time.Sleep(s.clock.WallDuration(2 * time.Minute)) // two more passes: nothing more may go
	started, ms := listByRegion(t, c, p.Name)
	if started["ams"] != 1 || started["ord"] != 0 {
		t.Fatalf("started by region %v, want ams 1 (min_machines_running, primary region) and ord 0", started)
	}
	// Autosuspends per region and pass: each pass took one machine in every
	// region that had one to spare, so ams's two and ord's first two fall
	// on the same passes.
	passes := map[string][]time.Time{}
	for _, m := range ms {
		if c := m.Config; c == nil || len(c.Services) == 0 || c.Services[0].MinMachinesRunning == nil || *c.Services[0].MinMachinesRunning != 1 {
			t.Errorf("machine %s (%s) lacks min_machines_running 1 in its config", m.ID, m.Region)
		}
		for _, e := range m.Events {
			if e.Source == SourceProxy && e.Status == "suspending" {
				passes[m.Region] = append(passes[m.Region], e.Time())
			}
		}
	}
	for _, r := range []string{"ams", "ord"} {
		sort.Slice(passes[r], func(i, j int) bool { return passes[r][i].Before(passes[r][j]) })
	}
	if len(passes["ams"]) != 2 || len(passes["ord"]) != 3 {
		t.Fatalf("autosuspends by region %v, want 2 in ams and 3 in ord", passes)
	}
	for i, at := range passes["ams"] {
		if d := passes["ord"][i].Sub(at); d < -time.Second || d > time.Second {
			t.Errorf("pass %d: ams at %s, ord at %s; want the same pass in both regions", i+1, at, passes["ord"][i])
		}
	}
	if d := passes["ord"][2].Sub(passes["ord"][1]); d < 50*time.Second {
		t.Errorf("ord's last two autosuspends %s apart, want one pass (1 min) apart", d)
	}
	if n := countLines(s, p.Name, "proxy", "0 out of 3 machines left running (region=ord, process group=app)"); n != 1 {
		t.Errorf("%d lines for ord's last autosuspend, want 1", n)
	}
	if n := countLines(s, p.Name, "proxy", "(region=ams"); n != 2 {
		t.Errorf("%d autosuspend lines in ams, want 2", n)
	}
}

// TestEdgeWakesInTheNearestRegion: when every running machine is at its soft
// limit, the edge wakes a machine in the region the request came in at — the
// primary's edge wakes an ams machine, a request with fly-prefer-region: ord
// wakes an ord one — and a request with room on a running machine anywhere
// wakes nothing (autostart, fly-platform.md §4.2).
func TestEdgeWakesInTheNearestRegion(t *testing.T) {
	t.Parallel()
	p := twoRegionApp()
	p.InitialAwake, p.MoreRegions[0].InitialAwake = 1, 0
	p.Autostop, p.SoftLimit, p.HardLimit = "off", 1, 0
	p.ResponseTime = Span{Min: time.Minute, Max: time.Minute} // requests stay in flight
	s := startSim(t, Options{Speed: 50, Apps: []AppProfile{p}})
	c := clientFor(t, s, s.Token())

	region := map[string]string{}
	_, ms := listByRegion(t, c, p.Name)
	for _, m := range ms {
		region[m.ID] = m.Region
	}
	get := func(prefer string) (status int, machine string) {
		req, _ := http.NewRequest("GET", s.EdgeURL(p.Name)+"/", nil)
		if prefer != "" {
			req.Header.Set(PreferRegionHeader, prefer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get(MachineIDHeader)
	}
	var wg sync.WaitGroup
	got := make([]string, 3)
	for i, prefer := range []string{"", "", "ord"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, id := get(prefer)
			got[i] = region[id]
			if status != http.StatusOK {
				got[i] = http.StatusText(status)
			}
		}()
		time.Sleep(100 * time.Millisecond) // 5 s of platform time: the one before is in flight on a woken machine
	}
	wg.Wait()
	// 1st: the running ams machine (room under its soft limit of 1).
	// 2nd: it is at its soft limit, so the ams edge wakes an ams machine.
	// 3rd: both at their limit; the ord edge wakes an ord machine.
	if strings.Join(got, ",") != "ams,ams,ord" {
		t.Fatalf("answered from regions %v, want ams,ams,ord", got)
	}
	started, _ := listByRegion(t, c, p.Name)
	if started["ams"] != 2 || started["ord"] != 1 {
		t.Errorf("started by region %v, want ams 2, ord 1", started)
	}
}

// TestDemoTunedTwoRegions: the demo's snappy-api lives its day in two regions:
// ord's machines are woken when ams is full and put back to sleep by
// autosuspend, and at Start ams keeps its one machine while ord has none
// running — for several seeds.
func TestDemoTunedTwoRegions(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		s := New(Options{Seed: seed, Frozen: true})
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		c := clientFor(t, s, s.Token())
		started, ms := listByRegion(t, c, DemoTuned)
		byRegion := map[string]int{}
		for _, m := range ms {
			byRegion[m.Region]++
			if m.Config.Env["PRIMARY_REGION"] != "ams" {
				t.Errorf("seed %d: machine %s in %s has PRIMARY_REGION %q", seed, m.ID, m.Region, m.Config.Env["PRIMARY_REGION"])
			}
		}
		if byRegion["ams"] != 4 || byRegion["ord"] != 2 || started["ams"] != 1 || started["ord"] != 0 {
			t.Errorf("seed %d: machines %v, started %v; want 4 in ams with 1 started, 2 in ord with none", seed, byRegion, started)
		}
		if n := countLines(s, DemoTuned, "proxy", "autosuspending machine"); n == 0 {
			t.Errorf("seed %d: no autosuspend in the history", seed)
		}
		if n := countLines(s, DemoTuned, "proxy", "0 out of 2 machines left running (region=ord"); n == 0 {
			t.Errorf("seed %d: ord never went to zero in the history", seed)
		}
		woken := 0
		s.sched.Lock()
		for _, ln := range s.logs.Lines(DemoTuned) {
			if ln.Region == "ord" && ln.Provider == "proxy" && ln.Message == "Starting machine" {
				woken++
			}
		}
		s.sched.Unlock()
		if woken == 0 {
			t.Errorf("seed %d: the edge never woke an ord machine (ams full in a herd)", seed)
		}
		_ = s.Close()
	}
}
