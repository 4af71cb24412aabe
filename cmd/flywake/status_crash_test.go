package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/flysim"
	"github.com/flywake/flywake/sources/flysim/simtest"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/app"
	"github.com/flywake/flywake/ui/theme"
)

// One crash judgement on every surface: the dashboard and `status`, run
// on the same platform, name the same release failing, and every machine
// the dashboard's banner names crash-looping or given up is a failure in
// status's one run too — status takes the looks the judge needs instead of
// leaving a crash-looping machine at "crashed … looking again". No
// background traffic: a request waking a machine the platform gave up on
// between the two runs would hand status a different machine (started,
// nothing newer yet) than the dashboard judged.
func TestStatusReportsTheCrashLoopTheDashboardShows(t *testing.T) {
	isolateEnv(t)
	sim := simtest.StartSim(t, flysim.Options{Seed: 1, Speed: 4, NoTraffic: true, Token: "fo1_CANARY_crash_judgement_0123456789"})
	simtest.UseAsFly(t, sim, sim.Token())
	c, err := fly.New(context.Background(), fly.Config{FlapsURL: sim.URL(), APIURL: sim.URL(), Token: sim.Token()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	m := app.New(app.Config{Source: &watch.Source{Client: c, Org: sim.Org(), Now: sim.Clock().Now}, App: flysim.DemoCrash, Theme: theme.New(false)})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	var screen strings.Builder
	// The banner once a machine crash-loops (its second look saw a newer
	// crash) or the platform gave up restarting it (the demo's day can end
	// there before the dashboard starts).
	banner := regexp.MustCompile(`✗ release v(\d+): ([^\n]*(?:crash-looping|gave up restarting))`)
	var found []string
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		screen.Write(b)
		found = banner.FindStringSubmatch(screen.String())
		return found != nil
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	release, named := found[1], regexp.MustCompile(`[0-9a-f]{14}`).FindAllString(found[2], -1)
	t.Logf("dashboard: %s", found[0])
	if len(named) == 0 {
		t.Fatalf("the banner names no machine: %q", found[0])
	}

	out, errOut, code := runFlywake(t, nil, "status", "-a", flysim.DemoCrash, "--json")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
	var doc struct {
		Apps []struct {
			Release   string `json:"release"`
			CrashLoop string `json:"crash_loop"`
			Crash     struct {
				Level string `json:"level"`
			} `json:"crash"`
			Machines []struct {
				ID    string `json:"id"`
				Crash struct {
					Verdict, Level, Reason string
				} `json:"crash"`
			} `json:"machines"`
		} `json:"apps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Apps) != 1 {
		t.Fatalf("status JSON: %v\n%s", err, out)
	}
	a := doc.Apps[0]
	if a.Release != release || a.Crash.Level != "fail" || !strings.Contains(a.CrashLoop, "release v"+release) {
		t.Fatalf("the dashboard's banner says %q; status says release %s, crash %s, %q", found[0], a.Release, a.Crash.Level, a.CrashLoop)
	}
	level := map[string]string{}
	for _, m := range a.Machines {
		level[m.ID] = m.Crash.Level
		if strings.Contains(m.Crash.Reason, "looking again") {
			t.Errorf("%s: status promises a look it never takes: %q", m.ID, m.Crash.Reason)
		}
	}
	for _, id := range named {
		if level[id] != "fail" {
			t.Errorf("the banner names %s; status calls it %q", id, level[id])
		}
	}
}
