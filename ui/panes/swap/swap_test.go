package swap

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// unusedSwap is the demo's sleepy app: 2048 MB swap, nothing in it.
const unusedSwapTotal, unusedSwapFree = 2097148, 2097148

func fleet(n int, each func(i int, s *spec)) []spec {
	var out []spec
	for i := range n {
		s := spec{id: fmt.Sprintf("e82d%010d", i), state: "started", swapMB: 2048, memoryMB: 1024,
			probe: meminfo(unusedSwapTotal, unusedSwapFree)}
		if each != nil {
			each(i, &s)
		}
		out = append(out, s)
	}
	return out
}

func TestSwapPane(t *testing.T) {
	cases := []struct {
		name    string
		specs   []spec
		want    []string
		notWant []string
	}{
		{"configured and unused on every machine", fleet(10, nil), []string{
			"! warn 2048 MB swap on 10/10 machines, 0 kB in use (all probed), no OOM kills — it only blocks suspend",
			"swap blocks suspend on 10/10 machines",
			"e82d0000000009",
			"1024 MB  2048 MB 2048/2048 MB   606 MB   0 kB   0 probed 5s ago",
			"probed 5s ago",
		}, []string{"not running", "✗"}},
		{"stopped machines are not probed, calmly", fleet(4, func(i int, s *spec) {
			if i > 0 {
				s.state, s.probe = "stopped", ""
			}
			if i == 3 {
				s.state = "suspended"
			}
		}), []string{
			"0 kB in use (1 of 4 probed)",
			"○ stopped",
			"not running",
		}, []string{"probe failed", "✗"}},
		{"started but not probed yet", fleet(2, func(i int, s *spec) { s.probe = "" }), []string{
			"? unknown 2048 MB swap on 2/2 machines, usage unknown: no running machine to probe",
			"not probed yet",
		}, nil},
		{"swap in use", fleet(3, func(i int, s *spec) {
			if i == 1 {
				s.probe = meminfo(unusedSwapTotal, unusedSwapTotal-300*1024)
			}
		}), []string{
			"! warn swap in use on 1 machine (up to 300 MB): add memory before removing it",
			"1748/2048 MB",
		}, nil},
		{"OOM kills counted from exit events", fleet(2, func(i int, s *spec) {
			if i == 0 {
				s.ooms = 2
			}
		}), []string{"but 2 OOM kills: check memory before removing it"}, nil},
		{"no swap at all", fleet(2, func(i int, s *spec) { s.swapMB, s.probe = 0, meminfo(0, 0) }), []string{
			"✓ pass no swap configured",
			"no swap configured: swap does not block suspend",
			"none",
			"0/0 kB",
		}, []string{"blocks suspend on"}},
		{"other blockers named", fleet(1, func(i int, s *spec) { s.memoryMB = 4096 }), []string{
			"also blocking suspend: memory 4096 MB (over 2 GB)",
		}, nil},
		{"probe failure shown as what it is", fleet(1, func(i int, s *spec) { s.probe, s.probeErr = "", true }), []string{
			"probe failed: exit 1: cat: /proc/meminfo: Permission denied",
		}, nil},
		{"no machines", nil, []string{"? unknown no machines", "no machines"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(theme.New(true))
			p.SetData(build(c.specs), t0)
			out := uitest.PlainView(p, 160, 48, true, t0)
			uitest.AssertMentions(t, out, c.want, c.notWant)
		})
	}
}

func TestSwapCursorMoves(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(fleet(5, nil)), t0)
	for _, k := range []tea.KeyType{tea.KeyDown, tea.KeyDown} {
		p.Update(tea.KeyMsg{Type: k})
	}
	if row, ok := p.table.Selected(); !ok || row.ID != "e82d0000000002" {
		t.Errorf("selected %q, want e82d0000000002", row.ID)
	}
	// The cursor survives a refresh.
	p.SetData(build(fleet(5, nil)), t0)
	if row, _ := p.table.Selected(); row.ID != "e82d0000000002" {
		t.Errorf("after refresh selected %q", row.ID)
	}
}

func TestSwapViewIsExactAtEverySize(t *testing.T) {
	fixtures := map[string][]spec{
		"fleet": fleet(30, func(i int, s *spec) { s.ooms = i % 2 }),
		"empty": nil,
		"mixed": fleet(3, func(i int, s *spec) { s.state = []string{"started", "stopped", "weird-new-state"}[i] }),
		"nil":   nil,
	}
	for name, specs := range fixtures {
		for _, noColor := range []bool{false, true} {
			p := newPane(theme.New(noColor))
			if name != "nil" {
				p.SetData(build(specs), t0)
			}
			for _, sz := range uitest.Sizes {
				for _, focused := range []bool{false, true} {
					uitest.AssertSize(t, uitest.View(p, sz[0], sz[1], focused, t0), sz[0], sz[1])
				}
			}
			if out := uitest.View(p, 0, 3, true, t0); out != "" {
				t.Errorf("%s: zero width gave %q", name, out)
			}
		}
	}
}

func TestSwapLevelLooks(t *testing.T) {
	uitest.PinColorProfile(t)
	t.Run("colour", func(t *testing.T) {
		th := theme.New(false)
		p := newPane(th)
		p.SetData(build(fleet(2, nil)), t0)
		if out := uitest.View(p, 160, 20, false, t0); !strings.Contains(out, th.Level(diagnose.Warn).Render()) {
			t.Error("verdict not drawn in the warn look")
		}
	})
	t.Run("NO_COLOR", func(t *testing.T) {
		p := newPane(theme.New(true))
		p.SetData(build(fleet(2, func(i int, s *spec) { s.ooms = 1 })), t0)
		out := uitest.View(p, 160, 20, false, t0)
		if !strings.HasPrefix(ansi.Strip(out), "! warn ") {
			t.Errorf("level glyph and word lost: %q", strings.SplitN(ansi.Strip(out), "\n", 2)[0])
		}
		uitest.AssertNoColour(t, out)
	})
}

// At 80×24 one pane gets 78×22 inside its border: every number column,
// the OOM count and the reason a machine has no numbers must still show.
func TestSwapFitsEightyColumns(t *testing.T) {
	p := newPane(theme.New(true))
	p.SetData(build(fleet(3, func(i int, s *spec) {
		switch i {
		case 1:
			s.state, s.probe = "stopped", ""
		case 2:
			s.probe, s.ooms = "", 1
		}
	})), t0)
	out := uitest.PlainView(p, 78, 22, true, t0)
	flat := strings.Join(strings.Fields(out), " ")
	if want := "0 kB in use now but 1 OOM kill: check memory before removing it"; !strings.Contains(flat, want) {
		t.Errorf("verdict lost its end %q:\n%s", want, out)
	}
	for _, want := range []string{" OOM ", "SwapFree/Tot", "MemAvail", "○ stopped", "not running", "not probed", "2048/2048 MB"} {
		if !strings.Contains(out, want) {
			t.Errorf("78 wide: missing %q in\n%s", want, out)
		}
	}
}
