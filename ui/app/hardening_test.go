package app

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/sources/flysim"
)

// Under Retry-After: 30 the dashboard's next listing waits the 30 s asked
// (not 2, 4, 8… s), and the client answers at once instead of sleeping
// past the listing's deadline: one call reaches the API, not four.
func TestDashboardHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	rig := startFaultRig(t, 10)
	rig.rec.waitFor(t, 20*time.Second, "the first listing", fresh)
	before := rig.sim.APICalls()["list:"+rig.app]
	rig.sim.SetFault("list", flysim.Fault{Rate429: 1, RetryAfter: "30"})
	rig.prog.Send(runes("r"))
	f := rig.rec.waitFor(t, 10*time.Second, "the failed listing", func(f faultFrame) bool { return f.failing })
	if f.failDelay != 30*time.Second {
		t.Errorf("retry in %s, want the 30 s the API asked for", f.failDelay)
	}
	if !strings.Contains(f.failErr, "asked to wait 30s") {
		t.Errorf("error %q does not say how long the API asked to wait", f.failErr)
	}
	// The countdown is read from the first frame at least 2 s after the
	// failure, however late a loaded machine delivers the clock's tick
	// (a fixed sleep then the newest frame flaked on CI: no tick had come).
	failedAt := f.wall
	f = rig.rec.waitFor(t, 7*time.Second, "a frame 2 s after the failure", func(g faultFrame) bool {
		return g.wall.Sub(failedAt) >= 2*time.Second
	})
	if n := rig.sim.APICalls()["list:"+rig.app] - before; n != 1 {
		t.Errorf("%d list calls under Retry-After: 30 in %s, want 1", n, f.wall.Sub(failedAt).Round(time.Second))
	}
	if !strings.Contains(f.header, "back-off 2") || !strings.Contains(f.header, "retrying in 2") {
		t.Errorf("header %q %s after the failure: want the back-off and the retry 21–28 s away", f.header, f.wall.Sub(failedAt).Round(time.Second))
	}
}

// An HTML page answered with 200 is named in the header's last error, not
// hidden behind a bare "API ✗" or an older error.
func TestDashboardNamesBadAnswers(t *testing.T) {
	t.Parallel()
	rig := startFaultRig(t, 10)
	rig.rec.waitFor(t, 20*time.Second, "the first listing", fresh)
	rig.sim.SetFault("list", flysim.Fault{Body: "<html><h1>502 Bad Gateway</h1>\x1b]0;x\x07</html>"})
	rig.prog.Send(runes("r"))
	f := rig.rec.waitFor(t, 10*time.Second, "the bad answer", func(f faultFrame) bool { return f.failing })
	for _, want := range []string{"the API answered something that is not JSON", "<html><h1>502 Bad Gateway"} {
		if !strings.Contains(f.failErr, want) {
			t.Errorf("error %q lacks %q", f.failErr, want)
		}
	}
	if !strings.Contains(f.header, "ago: GET /v1/apps/"+rig.app+"/machines: the API answered") {
		t.Errorf("header %q does not name the bad answer", f.header)
	}
	if strings.ContainsAny(f.failErr+f.header, "\x1b\x07") {
		t.Errorf("escape sequence in the error or header: %q", f.failErr)
	}
}

// Null machines, checks and events in a listing: the dashboard keeps
// running, shows the machines and says how many entries it skipped.
func TestDashboardSkipsNullEntries(t *testing.T) {
	t.Parallel()
	rig := startFaultRig(t, 10)
	good := rig.rec.waitFor(t, 20*time.Second, "the first listing", fresh)
	rig.sim.SetFault("list", flysim.Fault{NullEntries: true})
	rig.prog.Send(runes("r"))
	f := rig.rec.waitFor(t, 10*time.Second, "a listing with nulls", func(f faultFrame) bool { return f.malformed > 0 })
	if want := 1 + 2*len(good.ids); f.malformed != want || f.failing || len(f.ids) != len(good.ids) {
		t.Errorf("malformed %d (want %d), failing %v, %d machines (want %d)", f.malformed, want, f.failing, len(f.ids), len(good.ids))
	}
	if !strings.Contains(f.view, "malformed entries skipped in the API's answer") {
		t.Errorf("the machines pane does not say entries were skipped:\n%s", f.view)
	}
}

// Switching apps keeps one 1 s clock: each switch used to start another
// tick chain beside the running one, so after three switches the
// dashboard redrew four times a second. The test's clock ticks every
// 10 ms and counts the ticks armed and not yet fired: one chain keeps
// that at one; a second chain makes it two until the program ends.
func TestAppSwitchesKeepOneClock(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	armed, most, fired := 0, 0, 0
	rig := startFaultRigWith(t, 10, func(m *Model) {
		m.timer = func(d time.Duration, msg tea.Msg) tea.Cmd {
			if _, ok := msg.(clockMsg); !ok {
				return tea.Tick(d, func(time.Time) tea.Msg { return msg })
			}
			return func() tea.Msg {
				mu.Lock()
				armed++
				most = max(most, armed)
				mu.Unlock()
				time.Sleep(10 * time.Millisecond)
				mu.Lock()
				armed--
				fired++
				mu.Unlock()
				return clockMsg{at: time.Now()}
			}
		}
	})
	ticks := func() int { mu.Lock(); defer mu.Unlock(); return fired }
	rig.rec.waitFor(t, 20*time.Second, "the first listing", fresh)
	for _, app := range []string{flysim.DemoTuned, flysim.DemoScaleToZero, flysim.DemoTuned} {
		for _, k := range []tea.Msg{runes(":"), runes(app), tea.KeyMsg{Type: tea.KeyEnter}} {
			rig.prog.Send(k)
		}
		rig.rec.waitFor(t, 20*time.Second, "the listing of "+app, func(f faultFrame) bool {
			return fresh(f) && strings.Contains(f.header, "/"+app+" ")
		})
	}
	// A few ticks after the last switch, so a chain it started is armed.
	for from, deadline := ticks(), time.Now().Add(10*time.Second); ticks() < from+5; {
		if time.Now().After(deadline) {
			t.Fatalf("the clock stopped: %d ticks in 10 s after the switches", ticks()-from)
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if most > 1 {
		t.Errorf("%d clock ticks armed at once after three app switches, want one chain", most)
	}
}
