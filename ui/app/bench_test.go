package app

import (
	"fmt"
	"testing"

	"github.com/flywake/flywake/ui/uitest"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/theme"
)

// Frame cost against machine count. Only the visible rows should be drawn,
// so 1,000 machines may cost at most ~3× what 10 do. Run with
//
//	go test ./ui/app -run '^$' -bench 'View' -benchmem
//
// The time ratios come from the ns/op figures; the allocation ratio, which
// does not depend on the machine's load, is enforced by
// TestFrameAllocsScaleWithScreenNotMachines.

var benchCounts = []int{10, 1000, 10000}

const benchW, benchH = 160, 48

// machinesPaneAt is the machines pane holding n fixture machines, sized to
// the whole 160×48 screen.
func machinesPaneAt(n int) *machines.Model {
	p := machines.New(paneContext(theme.New(false)))
	p.SetSize(benchW, benchH)
	p.SetData(newFixture(n, t0).apply(t0), t0)
	return p
}

// rootForBench is the whole dashboard at 160×48 (tiled) holding n fixture
// machines.
func rootForBench(tb testing.TB, n int) Model {
	tb.Helper()
	fx := newFixture(n, t0)
	m := New(Config{App: fixtureApp, Demo: true, Theme: theme.New(false)})
	m = send(m, tea.WindowSizeMsg{Width: benchW, Height: benchH})
	// No client: replies are sent by hand, nothing is fetched.
	m = send(m, listReply(m, fx.machines))
	m = send(m, logsReply(tb, m, fx))
	for _, p := range fx.probes {
		m = send(m, probeReply(m, p.req, p.res))
	}
	m = send(m, metricsReply(tb, m, fx))
	if got := len(m.app.Machines); got != n {
		tb.Fatalf("root holds %d machines, want %d", got, n)
	}
	return m
}

func BenchmarkMachinesPaneView(b *testing.B) {
	for _, n := range benchCounts {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p := machinesPaneAt(n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = uitest.View(p, benchW, benchH, true, t0)
			}
		})
	}
}

func BenchmarkRootView(b *testing.B) {
	for _, n := range benchCounts {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := rootForBench(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// TestFrameAllocsScaleWithScreenNotMachines: a frame of 1,000 machines may
// allocate at most 3× what a frame of 10 does, for the machines pane and for
// the whole root. Allocation counts are deterministic, unlike time.
func TestFrameAllocsScaleWithScreenNotMachines(t *testing.T) {
	const limit = 3.0
	cases := []struct {
		name  string
		frame func(n int) func()
	}{
		{"machines pane", func(n int) func() {
			p := machinesPaneAt(n)
			return func() { _ = uitest.View(p, benchW, benchH, true, t0) }
		}},
		{"root", func(n int) func() {
			m := rootForBench(t, n)
			return func() { _ = m.View() }
		}},
	}
	for _, c := range cases {
		small := testing.AllocsPerRun(20, c.frame(10))
		big := testing.AllocsPerRun(20, c.frame(1000))
		ratio := big / small
		t.Logf("%s: %.0f allocs/frame at 10 machines, %.0f at 1,000 (%.2f×)", c.name, small, big, ratio)
		if ratio > limit {
			t.Errorf("%s: a 1,000-machine frame allocates %.2f× a 10-machine one (%.0f vs %.0f), want ≤ %.0f×",
				c.name, ratio, big, small, limit)
		}
	}
}
