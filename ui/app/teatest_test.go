package app

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// demoSource starts a real flysim on 127.0.0.1 and a fly client to it.
func demoSource(t *testing.T) *watch.Source {
	t.Helper()
	p := simtest.Start(t, flysim.Options{Seed: 1, Speed: 1})
	return &watch.Source{Client: p.Client, Org: p.Sim.Org(), Now: p.Sim.Clock().Now}
}

// The platform's timestamps move with the wall clock (ages, "updated N s
// ago"), so a byte-for-byte golden would be flaky; these tests pin the
// structure instead: size, titles, columns, states, colour or its absence.
//
// Not parallel: its cases pin lipgloss's global colour profile, which a
// parallel TestViewIsPure would see change between its two Views.
func TestDashboardAgainstFlysim(t *testing.T) {
	cases := []struct {
		name    string
		w, h    int
		noColor bool
		want    []string
		notWant []string
	}{
		{"80x24 one pane at a time", 80, 24, false,
			[]string{"demo-org/sleepy-api", "DEMO", focusTitle(0) + " · tab next", "STATE", "ID", "CHECKS", "NEWEST EVENT", "● started", "○ stopped", "1–10 of 10", "? help"},
			[]string{"Cold starts", "Bytecode"}},
		{"160x48 tiles every pane", 160, 48, false,
			append(TileTitles(), "STATE", "REGION", "IMAGE", "AUTOSTOP", "● started", "calls/min"),
			[]string{focusTitle(0)}},
		{"160x48 NO_COLOR", 160, 48, true,
			[]string{"Machines", "Cold starts", "● started", "○ stopped", "DEMO"},
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			uitest.PinColorProfile(t)
			m := New(Config{Source: demoSource(t), App: flysim.DemoScaleToZero, Demo: true, Theme: theme.New(c.noColor)})
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(c.w, c.h))
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				return strings.Contains(string(b), "of 10")
			}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(50*time.Millisecond))
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
			final := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(Model)
			view := final.View()
			plain := ansi.Strip(view)
			lines := strings.Split(view, "\n")
			if len(lines) != c.h {
				t.Errorf("%d lines, want %d", len(lines), c.h)
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != c.w {
					t.Errorf("line %d is %d cells wide, want %d: %q", i, w, c.w, ansi.Strip(l))
				}
			}
			for _, w := range c.want {
				if !strings.Contains(plain, w) {
					t.Errorf("view lacks %q", w)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(plain, w) {
					t.Errorf("view has %q", w)
				}
			}
			if got := uitest.HasColour(view); got == c.noColor {
				t.Errorf("colour codes present = %v with NO_COLOR = %v", got, c.noColor)
			}
			if t.Failed() {
				t.Logf("view:\n%s", plain)
			}
		})
	}
}

// hangingPlatform lists one machine stuck in "starting" and holds every
// wait long-poll open until the client goes away.
func hangingPlatform(t *testing.T) (*watch.Source, <-chan struct{}, <-chan struct{}) {
	t.Helper()
	waiting, released := make(chan struct{}, 8), make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/wait"):
			waiting <- struct{}{}
			<-r.Context().Done()
			released <- struct{}{}
		case strings.HasSuffix(r.URL.Path, "/machines"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `[{"id":"m1","state":"starting","instance_id":"i1","host_status":"ok","region":"ams"}]`)
		case strings.Contains(r.URL.Path, "/logs"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"data":[],"meta":{"next_token":""}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "test-token"})
	if err != nil {
		t.Fatal(err)
	}
	return &watch.Source{Client: c, Org: "org", Now: time.Now}, waiting, released
}

func TestQuitIsPromptWithWaitInFlight(t *testing.T) {
	src, waiting, released := hangingPlatform(t)
	m := New(Config{Source: src, App: "hang-app", Theme: theme.New(true)})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	select {
	case <-waiting:
	case <-time.After(15 * time.Second):
		t.Fatal("the dashboard never long-polled wait for the starting machine")
	}
	start := time.Now()
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Second))
	select {
	case <-released:
	case <-time.After(time.Second):
		t.Fatal("the wait long-poll was still open a second after q")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("quit took %v", d)
	}
}
