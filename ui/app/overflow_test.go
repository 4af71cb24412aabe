package app

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/words"
	"github.com/flywake/flywake/ui/components/frame"
	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/panes/traffic"
)

var (
	moreMark = regexp.MustCompile(`↓ ([0-9,]+) more lines?`)
	position = regexp.MustCompile(`([0-9,]+)–([0-9,]+) of ([0-9,]+)`)
)

// boxOn is the box of tile r as it stands in the screen's body lines.
func boxOn(body []string, r rect) []string {
	var out []string
	for y := r.y; y < r.y+r.h && y < len(body); y++ {
		line := []rune(body[y])
		if r.x+r.w <= len(line) {
			out = append(out, string(line[r.x:r.x+r.w]))
		}
	}
	return out
}

// TestEveryPaneSaysWhatItCannotFit reads the screen at the tile sizes on
// every demo app: a pane given fewer lines than it has names what it left
// out — "↓ N more lines" in its bottom border, or a table's or history's
// position ("1–7 of 10") — and the Traffic chart's lost and boots rows
// are on screen even at 150×42.
func TestEveryPaneSaysWhatItCannotFit(t *testing.T) {
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
		for _, sz := range [][2]int{{150, 42}, {160, 48}, {220, 60}} {
			m := rootShowing(cfg, a, sz[0], sz[1], true)
			screen := strings.Split(ansi.Strip(m.View()), "\n")
			body := screen[1+len(m.bannerLines()):]
			for _, r := range m.tiles {
				box := boxOn(body, r)
				iw, ih := frame.InnerSize(r.w, r.h)
				if len(box) != r.h {
					t.Fatalf("%s %dx%d: %s's box not found on screen", name, sz[0], sz[1], r.pane.ID())
				}
				has := r.pane.Height(iw)
				if has <= ih {
					continue
				}
				said := false
				if mk := moreMark.FindStringSubmatch(box[len(box)-1]); mk != nil {
					said = true
					if id := r.pane.ID(); id == traffic.ID {
						if n, _ := strconv.Atoi(strings.ReplaceAll(mk[1], ",", "")); n != has-ih {
							t.Errorf("%s %dx%d: %s says %s more lines, it has %d past its %d", name, sz[0], sz[1], id, mk[1], has-ih, ih)
						}
					}
				}
				for _, l := range box {
					if p := position.FindStringSubmatch(l); p != nil && p[2] != p[3] {
						said = true
					}
				}
				if !said {
					t.Errorf("%s %dx%d: %s has %d lines in %d and says nothing of the rest:\n%s",
						name, sz[0], sz[1], r.pane.ID(), has, ih, strings.Join(box, "\n"))
				}
				if r.pane.ID() == traffic.ID && a.TrafficSummary(m.now()).Lost24h > 0 {
					rows := map[string]bool{}
					for _, l := range box {
						if f := strings.Fields(strings.Trim(l, "│┃")); len(f) > 0 {
							rows[f[0]] = true
						}
					}
					if !rows["lost"] || !rows["boots"] {
						t.Errorf("%s %dx%d: the Traffic chart's lost and boots rows are not on screen:\n%s",
							name, sz[0], sz[1], strings.Join(box, "\n"))
					}
				}
			}
		}
	}
	if apps[flysim.DemoScaleToZero] == nil {
		t.Fatal("no sleepy-api to read")
	}
	drillDownIsWhole(t, apps, cfg)
}

// drillDownIsWhole: a machine's drill-down, at 80×24 and zoomed at
// 120×40, shows its identity line (the release and the image included)
// and the reminder about the event list whole, wrapped rather than cut.
func drillDownIsWhole(t *testing.T, apps map[string]*snapshot.App, cfg Config) {
	t.Helper()
	for _, name := range demoApps {
		a := apps[name]
		if a == nil || len(a.Machines) == 0 {
			continue
		}
		events := 0
		for _, mc := range a.Machines {
			events = max(events, len(mc.Events))
		}
		for _, sz := range []struct {
			w, h int
			keys []tea.Msg
		}{
			{80, 24, []tea.Msg{tea.KeyMsg{Type: tea.KeyEnter}}},
			{120, 40, []tea.Msg{tea.KeyMsg{Type: tea.KeyEnter}, runes("f")}},
		} {
			m := rootShowing(cfg, a, sz.w, sz.h, true)
			for _, k := range sz.keys {
				m = send(m, k)
			}
			id, _ := m.panes[0].(*machines.Model).Selected()
			mach, ok := a.Machine(id)
			if !ok {
				t.Fatalf("%s: no machine selected", name)
			}
			// The identity line is the drill-down's first: on the first
			// screen; the reminder comes into view as it scrolls.
			want := []string{"release " + words.Release(mach.Release), machines.EventsNote(events)}
			if d := snapshot.ShortDigest(mach.ImageDigest); d != "" {
				want = append(want, "image "+d)
			}
			seen := map[string]bool{}
			var screen string
			for range 60 {
				screen = ansi.Strip(m.View())
				text := strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(screen)), " ")
				for _, w := range want {
					seen[w] = seen[w] || strings.Contains(text, w)
				}
				m = send(m, runes("j"))
			}
			for _, w := range want {
				if !seen[w] {
					t.Errorf("%s %dx%d: the drill-down of %s never shows %q whole; last screen:\n%s", name, sz.w, sz.h, id, w, screen)
				}
			}
			if !m.zoomed() && sz.w == 120 {
				t.Errorf("%s %dx%d: f did not zoom the drill-down", name, sz.w, sz.h)
			}
		}
	}
}
