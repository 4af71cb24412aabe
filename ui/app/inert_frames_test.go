package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/panes/logs"
	"github.com/flywake/flywake/ui/panes/overview"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// hostileText clears the screen, retitles the terminal, moves the cursor,
// writes the clipboard and opens a CSI with the 8-bit C1 control: what no
// frame may pass to the terminal.
const hostileText = "\x1b[2J\x1b]0;owned\x07\x1b[1A\x1b]52;c;UFdORUQ=\x07\u009b2J"

// sgrSequence is the only sequence a frame may hold: the UI's own styling.
var sgrSequence = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// appendHostile appends hostileText to every exported string reachable from
// v (struct fields, slice elements, map values), but for the fields named in
// keep.
func appendHostile(v reflect.Value, keep map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			appendHostile(v.Elem(), keep)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && !keep[f.Name] {
				appendHostile(v.Field(i), keep)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			appendHostile(v.Index(i), keep)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			appendHostile(e, keep)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + hostileText)
		}
	}
}

// hostileFixture is the golden fixture with hostileText in every string the
// platform sends (the ids and lifecycle states aside, so the panes still
// have rows to draw), one machine in a state flywake does not know, and
// probes whose output carries it too.
func hostileFixture(now time.Time) fixtureData {
	fx := newFixture(10, now)
	for _, mc := range fx.machines {
		appendHostile(reflect.ValueOf(mc), map[string]bool{"ID": true, "InstanceID": true, "State": true, "Digest": true})
	}
	fx.machines[len(fx.machines)-1].State = "hibernating" + hostileText
	for i := range fx.logs {
		fx.logs[i].Message += hostileText
		fx.logs[i].Region += hostileText
	}
	a := snapshot.New(fixtureOrg, fixtureApp, nil)
	a.ApplyMachines(fx.machines[:1], now)
	fx.probes = nil
	for _, req := range a.ProbesDue(now) {
		out := map[snapshot.ProbeKind]string{snapshot.ProbeMeminfo: fixtureMeminfo, snapshot.ProbeSockets: fixtureNetTCP,
			snapshot.ProbeBytecode: strings.ReplaceAll(fixtureBytecode, `"cpython-3`, `"`+jsonText(hostileText)+`cpython-3`)}
		fx.probes = append(fx.probes, fixtureProbe{req, snapshot.ExecResult{Stdout: out[req.Kind] + hostileText, Stderr: hostileText}})
	}
	fx.metrics.Edge24h["5"+hostileText] = 3
	return fx
}

// jsonText is s as the inside of a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestNoFrameCarriesAControlSequence feeds hostileText through every way
// text reaches the screen — the platform's answers (the listing, the logs,
// the probes, the metrics, a describe, an error body, the org's app
// names) and keys the user pasted, as keys or into the views' filters —
// and draws every tile, zoomed and tiled, every overlay, the drill-down,
// the describe view, the switcher, the notice and the fatal screen: no
// frame holds a sequence but the UI's own styling, and the text is
// there, inert.
func TestNoFrameCarriesAControlSequence(t *testing.T) {
	t.Parallel()
	fx := hostileFixture(t0)
	one := newFixture(1, t0).machines[0] // GET machine: its free text hostile, its enums as the API spells them
	one.Name, one.Region, one.Config.Image = one.Name+hostileText, one.Region+hostileText, one.Config.Image+hostileText
	one.Config.Metadata["note"] = hostileText
	var fatal atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case fatal.Load():
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"token expired ` + jsonText(hostileText) + `"}`))
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/machines/"+fixtureID(0)):
			_ = json.NewEncoder(w).Encode(one)
		default:
			http.Error(w, "upstream said "+hostileText, http.StatusBadGateway)
		}
	}))
	t.Cleanup(srv.Close)
	client, err := flyc.New(context.Background(), flyc.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "inert-token"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ctx := context.Background()

	m := newInline(Config{Source: &watch.Source{Client: client, Org: fixtureOrg, Now: func() time.Time { return t0 }},
		App: fixtureApp, Demo: true, Theme: theme.New(false)})
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = send(m, listReply(m, fx.machines))
	m = send(m, logsReply(t, m, fx))
	for _, p := range fx.probes {
		m = send(m, probeReply(m, p.req, p.res))
	}
	m = send(m, metricsReply(t, m, fx))
	m.org.ApplyApps([]string{fixtureApp, "evil" + hostileText}, nil, t0)
	m.org.ApplyListing(m.org.Apps()[1], snapshot.Convert(flyc.Listing{Machines: fx.machines}), nil, t0)

	shown := map[string]bool{}
	look := func(what string, m Model) {
		t.Helper()
		frame := m.View()
		if rest := sgrSequence.ReplaceAllString(frame, ""); strings.ContainsAny(rest, "\x1b\x07\u009b") {
			i := strings.IndexAny(rest, "\x1b\x07\u009b")
			t.Errorf("%s: a control sequence reached the frame: %q", what, rest[max(i-40, 0):min(i+40, len(rest))])
		}
		if strings.Contains(frame, "␛[2J") {
			shown[what] = true
		}
	}
	paste := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(hostileText), Paste: true}

	// The panes are shared by every copy of the root: one walk, each step
	// backed out of before the next.
	esc := tea.KeyMsg{Type: tea.KeyEsc}
	look("tiled", m)
	for i := range m.panes {
		look("tile "+string(m.panes[i].ID()), m)
		m = send(m, runes("f"))
		look("zoomed "+string(m.panes[i].ID()), m)
		m = send(send(m, runes("f")), tea.KeyMsg{Type: tea.KeyTab})
	}
	m = send(m, paste)
	look("pasted key notice", m)
	m = send(m, tea.KeyMsg{Type: tea.KeyEnter})
	look("drill-down", m)
	lines, err := client.DescribeMachine(ctx, fixtureApp, fixtureID(0))
	if err != nil {
		t.Fatal(err)
	}
	m = send(m, runes("d"))
	m = send(m, watch.Reply{Job: watch.Job{Gen: m.gen, Kind: watch.DescribeJob, App: fixtureApp, Machine: fixtureID(0), Ref: 1}, Lines: lines})
	look("describe", m)
	m = send(send(m, esc), esc)
	m = send(send(m, runes(":")), paste)
	look("switcher", m)
	m = send(m, esc)
	for _, o := range m.overlays {
		if o.pane.ID() == overview.ID && m.notice.text != "" {
			m = send(m, esc) // esc pressed to dismiss a notice does not leave the app
		}
		m = send(m, uitest.Key(o.key.Keys()[0]))
		if openOverlay(m) != o.pane.ID() {
			t.Fatalf("%s did not open %s (open: %q)", o.key.Keys()[0], o.pane.ID(), openOverlay(m))
		}
		look("overlay "+string(o.pane.ID()), m)
		m = send(m, paste)
		look("overlay "+string(o.pane.ID())+", pasted key", m)
		m = send(m, esc)
	}

	// Text the user types where the views take text (the machines filter,
	// the logs view's regex, the overview's filter) is drawn as typed,
	// inert: each view's input is opened, the hostile text pasted into it.
	filter := uitest.Key(m.keys.Filter.Keys()[0])
	capturing := func() bool {
		if m.open != nil {
			return m.open.Capturing()
		}
		return m.panes[m.focus].Capturing()
	}
	typed := func(what string) {
		t.Helper()
		m = send(send(m, filter), paste)
		if !capturing() {
			t.Fatalf("%s: %s opened no input to type into", what, m.keys.Filter.Keys()[0])
		}
		look(what+", typed into its filter", m)
		m = send(m, esc) // out of the input, the filter cleared
	}
	for range m.panes {
		if m.panes[m.focus].ID() == "machines" {
			typed("tile machines")
		}
		m = send(m, tea.KeyMsg{Type: tea.KeyTab})
	}
	for _, o := range m.overlays {
		if id := o.pane.ID(); id == logs.ID || id == overview.ID {
			m = send(m, uitest.Key(o.key.Keys()[0]))
			typed("overlay " + string(id))
			m = send(m, esc)
		}
	}

	_, listErr := client.List(ctx, fixtureApp)
	if listErr == nil {
		t.Fatal("the failing platform answered the listing")
	}
	look("stale", send(m, listFailed(m, listErr)))
	fatal.Store(true)
	_, fatalErr := client.List(ctx, fixtureApp)
	if !watch.IsFatal(fatalErr) {
		t.Fatalf("a 401 is not fatal: %v", fatalErr)
	}
	dead := send(m, listFailed(m, fatalErr))
	if dead.fatal == nil {
		t.Fatal("the 401 did not reach the fatal screen")
	}
	look("fatal", dead)
	look("fatal, pasted key", send(dead, paste))

	for _, what := range []string{"tiled", "drill-down", "describe", "overlay logs", "overlay overview", "fatal",
		"tile machines, typed into its filter", "overlay logs, typed into its filter", "overlay overview, typed into its filter"} {
		if !shown[what] {
			t.Errorf("%s: the hostile text is not on screen as inert text (the test would prove nothing there)", what)
		}
	}
}
