package checklist

import (
	"github.com/flywake/flywake/ui/uitest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/checklist"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// flat is the view as one line of words: wrapped text joins up again, so
// a sentence can be found whatever width it was wrapped at.
func flat(s string) string { return strings.Join(strings.Fields(plain(s)), " ") }

// headLine is the view's row of the item with title.
func headLine(t *testing.T, view, title string) string {
	t.Helper()
	for _, l := range strings.Split(plain(view), "\n") {
		if strings.Contains(l, title) && (strings.Contains(l, "▸") || strings.Contains(l, "▾")) {
			return l
		}
	}
	t.Fatalf("no row for %q in:\n%s", title, plain(view))
	return ""
}

// TestFailingItemsShowEvidenceAndFix walks to each failing item of the
// scale-to-zero demo, expands it and finds its evidence, sources and fix.
func TestFailingItemsShowEvidenceAndFix(t *testing.T) {
	cases := []struct {
		id, title string
		steps     []string
		want      []string // phrases of the scale-to-zero story, with their sources
	}{
		{checklist.IDReleaseWork, "Release work run on every boot", []string{"n"}, []string{
			"migrations: `python manage.py migrate --noinput` runs before the server on every boot entrypoint.sh:6",
			"24 boots, 1 release in 24 h deployed v7 · logs (24 h)",
			"fix Run migrations once per release with `[deploy] release_command",
		}},
		{checklist.IDBytecode, "Bytecode cache", []string{"n", "n"}, []string{
			"ENV PYTHONDONTWRITEBYTECODE=1 and no compileall",
			"Dockerfile:4",
			"(use `**/__pycache__/`) .dockerignore:4",
			"site-packages holds 5,707 .py files and 0 .pyc",
			"deployed v7 · exec bytecode probe on image 9f86d081884c",
			"fix Compile once at build time",
		}},
		{checklist.IDSleepWake, "Sleep and wake", []string{"down", "down", "down"}, []string{
			"2,048 MB of swap configured, 0 kB used on 3 machines probed",
			"fly.toml:5",
			"fix Remove swap_size_mb (it was never used",
			"Set auto_stop_machines = 'suspend'",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			p := newPane(t, theme.New(true), demoDay)
			press(p, tc.steps...)
			if p.Cursor() != tc.id {
				t.Fatalf("cursor on %q after %v, want %q", p.Cursor(), tc.steps, tc.id)
			}
			collapsed := uitest.View(p, 100, 40, true, t0)
			if h := headLine(t, collapsed, tc.title); !strings.Contains(h, "✗ fail") || !strings.HasPrefix(h, "›") {
				t.Errorf("row %q: want the cursor and ✗ fail", h)
			}
			if strings.Contains(flat(collapsed), tc.want[0]) {
				t.Errorf("evidence shown before enter:\n%s", plain(collapsed))
			}

			press(p, "enter")
			it := itemOf(t, p, tc.id)
			view := flat(uitest.View(p, 120, 60, true, t0))
			for _, w := range tc.want {
				if !strings.Contains(view, w) {
					t.Errorf("expanded view lacks %q:\n%s", w, view)
				}
			}
			for _, f := range it.Evidence {
				if !strings.Contains(view, strings.Join(strings.Fields(f.Text), " ")) || !strings.Contains(view, f.Source) {
					t.Errorf("fact %q [%s] not shown", f.Text, f.Source)
				}
			}
			if !strings.Contains(view, strings.Join(strings.Fields(it.Fix), " ")) {
				t.Errorf("fix not shown in full: %q", it.Fix)
			}

			press(p, "enter")
			if strings.Contains(flat(uitest.View(p, 120, 60, true, t0)), tc.want[0]) {
				t.Error("a second enter did not collapse the item")
			}
		})
	}
}

func TestKeysMoveBetweenItems(t *testing.T) {
	cases := []struct {
		keys []string
		want string
	}{
		{nil, checklist.IDColdStart},
		{[]string{"p"}, checklist.IDColdStart}, // stops at the first item
		{[]string{"n", "n"}, checklist.IDBytecode},
		{[]string{"down", "down", "up"}, checklist.IDReleaseWork},
		{[]string{"j", "j", "k"}, checklist.IDReleaseWork},
		{[]string{"n", "n", "n", "n", "n", "n", "n", "n", "n", "n"}, checklist.IDHealthChecks}, // stops at the last
		{[]string{"end"}, checklist.IDHealthChecks},
		{[]string{"end", "p", "p"}, checklist.IDCrashLoop},
		{[]string{"end", "home"}, checklist.IDColdStart},
		{[]string{"n", "enter", "n"}, checklist.IDBytecode},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.keys, ","), func(t *testing.T) {
			p := newPane(t, theme.New(true), demoDay)
			press(p, tc.keys...)
			if p.Cursor() != tc.want {
				t.Fatalf("cursor on %q, want %q", p.Cursor(), tc.want)
			}
			// The marked row on screen is the cursor's item, even at a size
			// where the list has to scroll.
			view := plain(uitest.View(p, 40, 8, true, t0))
			marked := ""
			for _, l := range strings.Split(view, "\n") {
				if strings.HasPrefix(l, "›") {
					marked = l
				}
			}
			if title := checklist.Titles[tc.want]; !strings.Contains(marked, title[:min(len(title), 18)]) {
				t.Errorf("marked row %q, want %q:\n%s", marked, title, view)
			}
		})
	}
}

// TestCursorAndExpansionSurviveSetData: a refresh re-evaluates every item
// (a probe's answer changes a status) but the walk stays where it was.
func TestCursorAndExpansionSurviveSetData(t *testing.T) {
	p := newPane(t, theme.New(true), asleep)
	press(p, "n", "enter", "n", "n", "enter") // release work and sleep & wake open
	if p.Cursor() != checklist.IDSleepWake {
		t.Fatalf("cursor on %q", p.Cursor())
	}
	if s := itemOf(t, p, checklist.IDSleepWake).Status; s != checklist.Warn {
		t.Fatalf("sleep & wake asleep = %s, want warn (swap use unknown)", s)
	}
	for _, f := range []fixture{demoDay, asleep, demoDay} {
		p.SetData(f.app(), t0)
		if p.Cursor() != checklist.IDSleepWake {
			t.Fatalf("cursor moved to %q after SetData", p.Cursor())
		}
	}
	if s := itemOf(t, p, checklist.IDSleepWake).Status; s != checklist.Fail {
		t.Errorf("sleep & wake after the meminfo probes = %s, want fail", s)
	}
	view := flat(uitest.View(p, 120, 80, true, t0))
	for _, w := range []string{"0 kB used on 3 machines probed", "24 boots, 1 release in 24 h"} {
		if !strings.Contains(view, w) {
			t.Errorf("an expanded item closed on refresh: %q missing", w)
		}
	}
	if strings.Contains(view, "Dockerfile:4") {
		t.Error("bytecode opened by itself")
	}
}

// TestWaitsForARunningMachine: an item that only a running machine can
// answer says so, why it is still waiting, and updates when a probe lands.
func TestWaitsForARunningMachine(t *testing.T) {
	const noneStarted = "needs a running machine — none is started; flywake never wakes one to look. " +
		"Start one (or run the wake test) and the item updates by itself."
	cases := []struct {
		name string
		app  *snapshot.App // nil: no model yet
		want string
	}{
		{"all stopped", asleep.app(), noneStarted},
		{"started, probe not back", fixture{state: "started", boots: 24}.app(), "needs a running machine — one is started; the item updates by itself when its probe answers."},
		{"no listing yet", nil, "needs a running machine — no machine listing yet; flywake never wakes one to look."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			km := keys.Default()
			p := New(pane.Context{Theme: theme.New(true), Keys: &km}, nil, nil, checklist.Options{}) // no project directory
			p.SetData(tc.app, t0)
			it := itemOf(t, p, checklist.IDBytecode)
			if it.Status != checklist.Unknown || !it.NeedsRunningMachine {
				t.Fatalf("bytecode = %s needs=%v, want unknown waiting for a machine", it.Status, it.NeedsRunningMachine)
			}
			press(p, "n", "n")
			if h := headLine(t, uitest.View(p, 100, 30, true, t0), "Bytecode cache"); !strings.Contains(h, "? unknown") || !strings.Contains(h, "waits for a running machine") {
				t.Errorf("collapsed row %q", h)
			}
			press(p, "enter")
			if view := flat(uitest.View(p, 100, 30, true, t0)); !strings.Contains(view, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, view)
			}

			p.SetData(demoDay.app(), t0) // the machines started and the probe answered
			if it := itemOf(t, p, checklist.IDBytecode); it.Status != checklist.Fail {
				t.Errorf("bytecode after the probe = %s, want fail", it.Status)
			}
			view := flat(uitest.View(p, 100, 30, true, t0))
			if strings.Contains(view, "needs a running machine") {
				t.Errorf("still waiting after the probe answered:\n%s", view)
			}
			if !strings.Contains(view, "0 .pyc") {
				t.Errorf("the probe's evidence is missing:\n%s", view)
			}
		})
	}
}

// TestProgressAndSummary: "N of 8 checked" counts items with an answer
// (anything but unknown); the summary is what `flywake check` would say.
func TestProgressAndSummary(t *testing.T) {
	cases := []struct {
		name        string
		withProject bool
		app         *snapshot.App
		progress    string
		summary     string
	}{
		{"demo day", true, demoDay.app(), "6 of 8 checked",
			"3 fail · 1 warn · 2 pass · 2 unknown — `flywake check` would exit 2"},
		{"asleep", true, asleep.app(), "6 of 8 checked",
			"2 fail · 2 warn · 2 pass · 2 unknown — `flywake check` would exit 2"},
		{"project only, no model", true, nil, "5 of 8 checked",
			"2 fail · 1 warn · 2 pass · 3 unknown — `flywake check` would exit 2"},
		{"nothing at all", false, nil, "0 of 8 checked",
			"8 unknown — `flywake check` would exit 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			km := keys.Default()
			var p *Pane
			if tc.withProject {
				proj, errs := project(t)
				p = New(pane.Context{Theme: theme.New(true), Keys: &km}, proj, errs, checklist.Options{})
			} else {
				p = New(pane.Context{Theme: theme.New(true), Keys: &km}, nil, nil, checklist.Options{})
			}
			p.SetData(tc.app, t0)
			lines := strings.Split(plain(uitest.View(p, 100, 20, true, t0)), "\n")
			if !strings.HasPrefix(lines[0], tc.progress) {
				t.Errorf("progress line %q, want %q", lines[0], tc.progress)
			}
			if last := lines[len(lines)-1]; last != tc.summary {
				t.Errorf("summary line %q, want %q", last, tc.summary)
			}
			// A narrow pane keeps the counts and the exit status, not the words.
			narrow := strings.Split(plain(uitest.View(p, 34, 8, true, t0)), "\n")[7]
			counts, _, _ := strings.Cut(tc.summary, " — ")
			if !strings.HasPrefix(narrow, strings.Fields(counts)[0]) || strings.Contains(narrow, "`flywake check`") {
				t.Errorf("narrow summary %q, want the counts of %q", narrow, tc.summary)
			}
		})
	}
}

// TestSameItemsAsFlywakeCheck: the pane evaluates exactly what the
// headless command does (cmd/flywake/check.go), thresholds included.
func TestSameItemsAsFlywakeCheck(t *testing.T) {
	proj, errs := project(t)
	for _, f := range []fixture{demoDay, asleep} {
		opts := checklist.Options{ProxyPatience: 20 * time.Second, CDNOriginTimeout: 10 * time.Second}
		km := keys.Default()
		p := New(pane.Context{Theme: theme.New(true), Keys: &km}, proj, errs, opts)
		a := f.app()
		p.SetData(a, t0)
		want := checklist.Run(a.Name, a.Evidence(t0, proj, errs), opts)
		if !reflect.DeepEqual(p.Report(), want) {
			t.Errorf("%+v: pane report differs from flywake check's", f)
		}
		if got := len(p.Items()); got != len(checklist.IDs) {
			t.Errorf("%d items, want %d", got, len(checklist.IDs))
		}
	}
}
