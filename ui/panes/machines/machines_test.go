package machines

import (
	"strings"
	"testing"
	"time"

	plain "github.com/flywake/flywake/sources/snapshot/machine"
	"github.com/flywake/flywake/ui/uitest"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/columns"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newPane() *Model {
	km := keys.Default()
	return New(pane.Context{Theme: theme.New(true), Keys: &km})
}

func machine(id, state string, opts ...func(*fly.Machine)) *fly.Machine {
	m := &fly.Machine{
		ID: id, Name: "name-" + id, State: state, Region: "ams", HostStatus: "ok",
		UpdatedAt: t0.Add(-90 * time.Second).Format(time.RFC3339),
		ImageRef:  fly.MachineImageRef{Digest: "sha256:0123456789abcdef0123"},
		Config: &fly.MachineConfig{Metadata: map[string]string{
			"fly_release_version": "42", "fly_process_group": "app"}},
		Events: []*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: t0.Add(-3 * time.Minute).UnixMilli()}},
	}
	for _, o := range opts {
		o(m)
	}
	return m
}

func appOf(ms ...*fly.Machine) *snapshot.App {
	a := snapshot.New("org", "app", nil)
	a.ApplyMachines(ms, t0)
	return a
}

func plainCells(r []string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = ansi.Strip(c)
	}
	return out
}

func TestRowCells(t *testing.T) {
	th := theme.New(true)
	cases := []struct {
		name string
		m    *fly.Machine
		col  int
		want string
	}{
		{"started glyph and word", machine("a", "started"), columns.State, "● started"},
		{"stopped", machine("a", "stopped"), columns.State, "○ stopped"},
		{"failed", machine("a", "failed"), columns.State, "✗ failed"},
		{"unknown state shown raw", machine("a", "hibernating"), columns.State, "? hibernating"},
		{"short digest", machine("a", "started"), columns.Image, "0123456789ab"},
		{"release", machine("a", "started"), columns.Release, "v42"},
		{"group", machine("a", "started"), columns.Group, "app"},
		{"newest event", machine("a", "started"), columns.Event, "start/started/flyd"},
		{"one age: since the newest event", machine("a", "started"), columns.Age, "3m00s"},
		{"no events: since the update", machine("a", "started", func(m *fly.Machine) { m.Events = nil }), columns.Age, "1m30s"},
		{"checks passing/total", machine("a", "started", func(m *fly.Machine) {
			m.Checks = []*fly.MachineCheckStatus{{Name: "a", Status: "passing"}, {Name: "b", Status: "critical"}}
		}), columns.Checks, "1/2"},
		{"no checks", machine("a", "started"), columns.Checks, "–"},
		{"host unreachable", machine("a", "started", func(m *fly.Machine) {
			m.HostStatus = "unreachable"
			m.IncompleteConfig, m.Config = m.Config, nil
		}), columns.Alert, "! host unreachable"},
		{"incomplete config still gives the release", machine("a", "started", func(m *fly.Machine) {
			m.HostStatus = "unreachable"
			m.IncompleteConfig, m.Config = m.Config, nil
		}), columns.Release, "v42"},
		{"autostop off without services", machine("a", "started"), columns.Autostop, "off"},
	}
	for _, c := range cases {
		a := appOf(c.m)
		got := plainCells(buildRow(a.Machines[0], newStyles(th), t0).Cells)[c.col]
		if got != c.want {
			t.Errorf("%s: cell %d = %q, want %q", c.name, c.col, got, c.want)
		}
	}
}

func TestCrashBadge(t *testing.T) {
	th := theme.New(true)
	cases := []struct {
		verdict snapshotCrash
		want    string
	}{
		{crashLooping, "✗ crash-loop"},
		{gaveUp, "✗ gave up"},
		{steady, ""},
	}
	for _, c := range cases {
		a := appOf(machine("a", "started"))
		a.Machines[0].Crash.Kind = c.verdict.kind()
		if got := buildRow(a.Machines[0], newStyles(th), t0).Cells[columns.Alert]; got != c.want {
			t.Errorf("crash %v: badge %q, want %q", c.verdict, got, c.want)
		}
	}
}

func TestOnlyChangedRowsFlash(t *testing.T) {
	p := newPane()
	a := snapshot.New("org", "app", nil)
	a.ApplyMachines([]*fly.Machine{machine("a", "started"), machine("b", "stopped")}, t0)
	p.SetData(a, t0)
	// Ten seconds later: every age moved, only b changed state.
	later := t0.Add(10 * time.Second)
	a.ApplyMachines([]*fly.Machine{machine("a", "started"), machine("b", "starting")}, later)
	p.SetData(a, later)
	if p.table.IsFlashing("a") || !p.table.IsFlashing("b") {
		t.Fatalf("flash a=%v b=%v, want only b", p.table.IsFlashing("a"), p.table.IsFlashing("b"))
	}
	// Data that is not a new listing (logs, probes) ends the flash.
	p.SetData(a, later.Add(time.Second))
	if p.table.IsFlashing("b") {
		t.Fatal("flash survived the next data")
	}
}

func TestFilterAndCursorSurviveRefresh(t *testing.T) {
	p := newPane()
	p.SetSize(100, 10)
	ms := []*fly.Machine{machine("aa1", "started"), machine("bb2", "stopped"), machine("aa3", "stopped")}
	a := appOf(ms...)
	p.SetData(a, t0)
	for _, k := range []string{"/", "a", "a", "enter", "j"} {
		p.Update(uitest.Key(k))
	}
	if id, _ := p.Selected(); id != "aa3" {
		t.Fatalf("selected %q before refresh, want aa3", id)
	}
	a.ApplyMachines(ms, t0.Add(12*time.Second))
	p.SetData(a, t0.Add(12*time.Second))
	if id, _ := p.Selected(); id != "aa3" || p.table.Len() != 2 {
		t.Fatalf("after refresh: selected %q, %d visible; want aa3 and 2", id, p.table.Len())
	}
	p.Update(uitest.Key("esc"))
	if p.table.Len() != 3 {
		t.Fatalf("esc did not clear the filter: %d visible", p.table.Len())
	}
}

func TestFilterCapturesKeys(t *testing.T) {
	p := newPane()
	p.SetData(appOf(machine("a", "started")), t0)
	if p.Capturing() {
		t.Fatal("capturing before /")
	}
	p.Update(uitest.Key("/"))
	if !p.Capturing() {
		t.Fatal("not capturing after /")
	}
	p.Update(uitest.Key("q")) // typed, not quit
	if p.filter.Value() != "q" {
		t.Fatalf("filter %q, want q", p.filter.Value())
	}
	p.Update(uitest.Key("esc"))
	if p.Capturing() || p.table.Filter() != "" {
		t.Fatal("esc did not end and clear the filter")
	}
}

func TestDetail(t *testing.T) {
	down := machine("h1", "started", func(m *fly.Machine) {
		m.HostStatus = "unreachable"
		swap := 512
		m.Config.Init.SwapSizeMB = &swap
		m.IncompleteConfig, m.Config = m.Config, nil
	})
	cases := []struct {
		name string
		m    *fly.Machine
		want []string
	}{
		{"events note and config", machine("a", "started"), []string{
			EventsNote(1), "start/started/flyd", "Config", "swap         none", "Recent logs", "meminfo  not probed"}},
		{"host unreachable uses incomplete_config", down, []string{"host unreachable", "512 MB", "release v42"}},
	}
	for _, c := range cases {
		p := newPane()
		p.SetSize(200, 60)
		p.SetData(appOf(c.m), t0)
		p.Update(uitest.Key("enter"))
		if !p.InDetail() {
			t.Fatalf("%s: enter did not open the detail", c.name)
		}
		view := ansi.Strip(uitest.View(p, 200, 60, true, t0))
		for _, w := range c.want {
			if !strings.Contains(view, w) {
				t.Errorf("%s: detail lacks %q:\n%s", c.name, w, view)
			}
		}
		p.Update(uitest.Key("esc"))
		if p.InDetail() {
			t.Errorf("%s: esc did not close the detail", c.name)
		}
	}
}

func TestViewIsExactSize(t *testing.T) {
	p := newPane()
	p.SetData(appOf(machine("a", "started"), machine("b", "stopped")), t0)
	for _, size := range [][2]int{{78, 20}, {40, 5}, {156, 24}, {1, 1}} {
		w, h := size[0], size[1]
		lines := strings.Split(uitest.View(p, w, h, true, t0), "\n")
		if len(lines) != h {
			t.Errorf("%dx%d: %d lines", w, h, len(lines))
		}
		for i, l := range lines {
			if lw := ansi.StringWidth(l); lw != w {
				t.Errorf("%dx%d: line %d is %d wide", w, h, i, lw)
			}
		}
	}
}

// A sleeping machine keeps its checks (not passing): drawn dim, not as a
// warning; a running machine's failing check is a warning.
func TestChecksCellOfASleepingMachineIsNoWarning(t *testing.T) {
	th := theme.New(false)
	warning := []snapshot.Check{{Name: "servicecheck-00-http-8000", Status: "warning"}}
	tests := []struct {
		state  string
		checks []snapshot.Check
		text   string
		style  *lipgloss.Style
	}{
		{"stopped", warning, "0/1", &th.Dim},
		{"suspended", warning, "0/1", &th.Dim},
		{"started", []snapshot.Check{{Status: "critical"}}, "0/1", &th.Warn},
		{"started", []snapshot.Check{{Status: "passing"}}, "1/1", &th.Pass},
		{"stopped", nil, "–", &th.Dim},
	}
	for _, tt := range tests {
		row := buildRow(snapshot.Machine{Machine: plain.Machine{State: tt.state, Checks: tt.checks}}, newStyles(th), t0)
		if text, style := row.Cells[columns.Checks], row.Styles[columns.Checks]; text != tt.text || style != tt.style {
			t.Errorf("%s %v: %q in another style than wanted (%q)", tt.state, tt.checks, text, tt.text)
		}
	}
}

// While a deploy replaces the machines, each row shows the release it left
// and the one it moved to, and the ALERT column where the new release's
// machine stands: booting, being looked at, live; the machine still on the
// old release says so.
func TestRolloutRows(t *testing.T) {
	th := theme.New(true)
	onRelease := func(rel, instance string) func(*fly.Machine) {
		return func(m *fly.Machine) {
			m.Config.Metadata["fly_release_version"] = rel
			m.InstanceID = instance
		}
	}
	a := snapshot.New("org", "app", nil)
	at := t0
	list := func(ms ...*fly.Machine) map[string][]string {
		a.ApplyMachines(ms, at)
		out := map[string][]string{}
		for _, m := range a.Machines {
			out[m.ID] = plainCells(buildRow(m, newStyles(th), at).Cells)
		}
		return out
	}
	rows := list(machine("a", "started", onRelease("42", "i1")), machine("b", "started", onRelease("42", "i1")))
	if rows["a"][columns.Alert] != "" || rows["a"][columns.Release] != "v42" {
		t.Fatalf("no deploy yet: alert %q release %q", rows["a"][columns.Alert], rows["a"][columns.Release])
	}
	at = at.Add(10 * time.Second)
	rows = list(machine("a", "replacing", onRelease("43", "i2")), machine("b", "started", onRelease("42", "i1")))
	if got := rows["a"]; got[columns.Release] != "v42→v43" || got[columns.Alert] != "… v43 boot" {
		t.Fatalf("replacing: release %q alert %q", got[columns.Release], got[columns.Alert])
	}
	if got := rows["b"][columns.Alert]; got != "· v42 old" {
		t.Fatalf("the machine not replaced yet: alert %q", got)
	}
	started := func(m *fly.Machine) {
		m.Events = append([]*fly.MachineEvent{{Type: "start", Status: "started", Source: "flyd", Timestamp: at.UnixMilli()}}, m.Events...)
	}
	at = at.Add(3 * time.Second)
	if got := list(machine("a", "started", onRelease("43", "i2"), started), machine("b", "started", onRelease("42", "i1")))["a"]; got[columns.Alert] != "◔ v43 looks" {
		t.Fatalf("first look: alert %q", got[columns.Alert])
	}
	at = at.Add(10 * time.Second)
	if got := list(machine("a", "started", onRelease("43", "i2")), machine("b", "started", onRelease("42", "i1")))["a"]; got[columns.Alert] != "✓ v43 live" || got[columns.Release] != "v42→v43" {
		t.Fatalf("second look: alert %q release %q", got[columns.Alert], got[columns.Release])
	}
	// The drill-down says why.
	detail := ansi.Strip(strings.Join(detailLines(a, "a", th, at), "\n"))
	if !strings.Contains(detail, "rollout v42→v43: live — stayed up across 2 looks") {
		t.Errorf("the drill-down does not give the rollout's reason:\n%s", detail)
	}
}
