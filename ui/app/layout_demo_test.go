package app

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/components/cell"
	"github.com/flywake/flywake/ui/theme"
)

// demoApps are the demo platform's apps, each with its story.
var demoApps = []string{flysim.DemoScaleToZero, flysim.DemoTuned, flysim.DemoCrash, flysim.DemoBacklog}

// demoLook is collectDemo's one look, shared by the tests that read it:
// each took 10 s to take its own, and none changes what it reads.
var demoLook struct {
	once sync.Once
	apps map[string]*snapshot.App
	cfg  Config
}

// collectDemo is one full look at every demo app (machines twice for the
// crash verdict, every feed, every probe), as `flywake status` takes it;
// it fails the test unless the look saw every app.
func collectDemo(t *testing.T) (map[string]*snapshot.App, Config) {
	t.Helper()
	demoLook.once.Do(func() { demoLook.apps, demoLook.cfg = lookAtDemo(t) })
	for _, name := range demoApps {
		if demoLook.apps[name] == nil {
			t.Fatalf("the demo look has no %s: it failed in the first test that took it", name)
		}
	}
	return demoLook.apps, demoLook.cfg
}

// lookAtDemo takes the look; its platform closes with the test that took it.
func lookAtDemo(t *testing.T) (map[string]*snapshot.App, Config) {
	t.Helper()
	src := demoSource(t)
	out := map[string]*snapshot.App{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, name := range demoApps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			a, err := src.Collect(ctx, name, dashboardFeeds()...)
			// The crash app's verdict needs a crash between two looks: look
			// again until its banner is up.
			for err == nil && name == flysim.DemoCrash && !a.CrashLoops().Any() && ctx.Err() == nil {
				a, err = src.Collect(ctx, name, dashboardFeeds()...)
			}
			if err != nil {
				t.Errorf("collect %s: %v", name, err)
				return
			}
			mu.Lock()
			out[name] = a
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out, Config{Source: src, Demo: true}
}

// rootShowing is the dashboard at w×h showing a collected app.
func rootShowing(cfg Config, a *snapshot.App, w, h int, noColor bool) Model {
	cfg.App, cfg.Theme = a.Name, theme.New(noColor)
	m := New(cfg)
	m.app = a
	m.setData()
	return send(m, tea.WindowSizeMsg{Width: w, Height: h})
}

// cutAtEdge reports a line of a w-cell box that was cut to fit: its last
// cell is the ellipsis cell.Fit puts where text ran out of room.
func cutAtEdge(line string, w int) bool {
	plain := ansi.Strip(line)
	return ansi.StringWidth(plain) == w && strings.HasSuffix(plain, cell.Ellipsis)
}

// TestNothingIsCutAtTileSizes: on every demo app at 160×48 and 220×60,
// every registered pane is on screen, no line of any pane ends cut with
// "…" (verdicts, legends and sentences wrap; tables drop columns), and
// the banner is whole.
func TestNothingIsCutAtTileSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("collects every demo app (~10 s)")
	}
	t.Parallel()
	apps, cfg := collectDemo(t)
	for _, name := range demoApps {
		a := apps[name]
		if a == nil {
			continue
		}
		for _, sz := range [][2]int{{160, 48}, {220, 60}} {
			m := rootShowing(cfg, a, sz[0], sz[1], true)
			frame := m.View()
			plain := ansi.Strip(frame)
			if len(m.tiles) != len(m.panes) {
				t.Errorf("%s %dx%d: %d of %d panes on screen", name, sz[0], sz[1], len(m.tiles), len(m.panes))
			}
			for _, r := range m.tiles {
				iw, _ := m.sizes[r.pane.ID()][0], 0
				for i, l := range strings.Split(r.pane.View(false, m.now()), "\n") {
					if cutAtEdge(l, iw) {
						t.Errorf("%s %dx%d: %s line %d is cut: %q", name, sz[0], sz[1], r.pane.ID(), i, ansi.Strip(l))
					}
				}
			}
			if name == flysim.DemoCrash && len(m.bannerLines()) < 2 {
				t.Errorf("%s %dx%d: no two-line crash banner", name, sz[0], sz[1])
			}
			for _, l := range m.bannerLines() {
				if strings.Contains(ansi.Strip(l), cell.Ellipsis) {
					t.Errorf("%s %dx%d: the banner is cut: %q", name, sz[0], sz[1], ansi.Strip(l))
				}
			}
			if t.Failed() {
				t.Logf("%s at %dx%d:\n%s", name, sz[0], sz[1], plain)
			}
		}
	}
	// At 80 columns crashy-api's banner is whole: two lines, its machines
	// named in the first.
	if a := apps[flysim.DemoCrash]; a != nil {
		m := rootShowing(cfg, a, 80, 24, true)
		lines := m.bannerLines()
		text := ansi.Strip(strings.Join(lines, "\n"))
		if len(lines) != 2 || strings.Contains(text, cell.Ellipsis) {
			t.Errorf("crashy-api at 80x24: banner %q, want two whole lines", text)
		}
		c := a.CrashLoops()
		for _, id := range append(c.Looping, c.GaveUp...) {
			if !strings.Contains(ansi.Strip(lines[0]), id) {
				t.Errorf("crashy-api at 80x24: the banner's first line does not name %s: %q", id, text)
			}
		}
	}
}
