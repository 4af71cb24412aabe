package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/ui/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/bytecode"
	"github.com/flywake/flywake/ui/panes/coldstart"
	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/panes/swap"
	"github.com/flywake/flywake/ui/theme"
)

// Golden frames of every pane and of the root, from the hand-built
// sleepy-api fixture at the fixed platform time t0, with the colour profile
// pinned to ANSI 256 and once more with NO_COLOR. Regenerate with
//
//	go test ./ui/app -run Golden -update
//
// and read the diff: a golden only proves the frame did not change.

var goldenSizes = [][2]int{{80, 24}, {160, 48}}

type paneCase struct {
	name  string
	build func(pane.Context) pane.Pane
	// want is text the frame must hold at both sizes, so a golden
	// regenerated from a broken frame still fails.
	want []string
}

var paneCases = []paneCase{
	{"machines", func(c pane.Context) pane.Pane { return machines.New(c) },
		[]string{"● started", "○ stopped", fixtureID(0), "1–10 of 10"}},
	{"coldstart", func(c pane.Context) pane.Pane { return coldstart.New(c) },
		[]string{"migrations"}},
	{"swap", func(c pane.Context) pane.Pane { return swap.New(c) },
		[]string{"2048"}},
	{"bytecode", func(c pane.Context) pane.Pane { return bytecode.New(c) },
		[]string{"3.14.0"}},
}

func paneContext(th *theme.Theme) pane.Context {
	km := keys.Default()
	return pane.Context{Theme: th, Keys: &km}
}

func TestPaneGolden(t *testing.T) {
	fx := newFixture(10, t0)
	for _, pc := range paneCases {
		for _, sz := range goldenSizes {
			for _, noColor := range []bool{false, true} {
				name := fmt.Sprintf("%s_%dx%d", pc.name, sz[0], sz[1])
				if noColor {
					name += "_nocolor"
				}
				t.Run(name, func(t *testing.T) {
					uitest.PinColorProfile(t)
					p := pc.build(paneContext(theme.New(noColor)))
					p.SetSize(sz[0], sz[1])
					p.SetData(fx.apply(t0), t0)
					out := uitest.View(p, sz[0], sz[1], true, t0)
					checkFrame(t, out, sz[0], sz[1], noColor, pc.want)
					golden.RequireEqual(t, []byte(out))
				})
			}
		}
	}
}

// quietClient is a fly client whose platform fails the test if it is ever
// called: the root goldens feed replies by hand and never run a command.
func quietClient(t *testing.T) *fly.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected platform call %s %s", r.Method, r.URL.Path)
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "golden-token"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// fedRoot is the root model after one full round of replies (listing, logs,
// probes, volumes, metrics) for the fixture, sent through Update as the commands'
// replies would be. The commands Update returns are dropped, not run: the
// frame depends on the data and t0 only, never on timing.
func fedRoot(t *testing.T, fx fixtureData, client *fly.Client, noColor bool, w, h int) Model {
	t.Helper()
	m := newInline(Config{
		Source: &watch.Source{Client: client, Org: fixtureOrg, Now: func() time.Time { return t0 }},
		App:    fixtureApp, Demo: true, Theme: theme.New(noColor),
	})
	// The wall clock stands still too: "updated 0s ago" however long a
	// loaded machine (or the race detector) takes between reply and frame.
	m.wall = func() time.Time { return t0 }
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	m = send(m, listReply(m, fx.machines))
	m = send(m, logsReply(t, m, fx))
	for _, p := range fx.probes {
		m = send(m, probeReply(m, p.req, p.res))
	}
	m = send(m, volumesReply(t, m, fx))
	return send(m, metricsReply(t, m, fx))
}

func TestRootGolden(t *testing.T) {
	fx := newFixture(10, t0)
	cases := []struct {
		name string
		w, h int
		keys []tea.Msg
		want []string
	}{
		{"tiled_160x48", 160, 48, nil,
			[]string{"demo-org/sleepy-api", "DEMO", "API " + theme.GlyphPass, "0 Machines API calls/min · 0 logs/metrics", "release v42", "1 started 9 stopped", "Machines", "Cold starts", "Swap", "Bytecode", "● started"}},
		{"split_120x40", 120, 40, []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}, tea.KeyMsg{Type: tea.KeyTab}, tea.KeyMsg{Type: tea.KeyTab}},
			[]string{"Machines", focusTitle(3) + " · tab next", "● started", "swap blocks suspend"}},
		{"zoom_160x48", 160, 48, []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}, runes("f")},
			[]string{"Cold starts", "L listening", "f unzoom"}},
		{"single_80x24", 80, 24, nil,
			[]string{focusTitle(0) + " · tab next", "● started", "1–10 of 10"}},
		{"detail_80x24", 80, 24, []tea.Msg{tea.KeyMsg{Type: tea.KeyEnter}},
			[]string{"machine " + fixtureID(0), "no crash since the deploy", "lines 1–", "s/S/Z start/stop/suspend"}},
		{"stop_prompt_80x24", 80, 24, []tea.Msg{pane.Msg{To: machines.ID, Msg: machines.ActionRequest{Action: machines.ActionStop, MachineID: fixtureID(0)}}},
			[]string{"Stop machine " + fixtureID(0) + " (started) of sleepy-api? y/N", "y stop " + fixtureID(0), "any other key no: nothing is sent"}},
	}
	for _, c := range cases {
		for _, noColor := range []bool{false, true} {
			name := c.name
			if noColor {
				name += "_nocolor"
			}
			t.Run(name, func(t *testing.T) {
				uitest.PinColorProfile(t)
				m := fedRoot(t, fx, quietClient(t), noColor, c.w, c.h)
				for _, k := range c.keys {
					if pm, ok := k.(pane.Msg); ok {
						pm.Gen = m.gen // addressed to this generation's pane
						k = pm
					}
					m = send(m, k)
				}
				out := m.View()
				checkFrame(t, out, c.w, c.h, noColor, c.want)
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

// checkFrame: exactly w×h cells, the wanted text, and colour codes present
// exactly when colour is on.
func checkFrame(t *testing.T, out string, w, h int, noColor bool, want []string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
	plain := ansi.Strip(out)
	for _, s := range want {
		if !strings.Contains(plain, s) {
			t.Errorf("frame lacks %q", s)
		}
	}
	if got := uitest.HasColour(out); got == noColor {
		t.Errorf("colour codes present = %v with NO_COLOR = %v", got, noColor)
	}
	if t.Failed() {
		t.Logf("frame:\n%s", plain)
	}
}
