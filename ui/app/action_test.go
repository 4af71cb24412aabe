package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/panes/machines"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// platformCalls records the action calls a fake platform received.
type platformCalls struct {
	mu    sync.Mutex
	paths []string
}

func (p *platformCalls) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paths = append(p.paths, s)
}

func (p *platformCalls) list() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.paths...)
}

// actionPlatform answers start, stop and suspend with status (200: accepted)
// and body, and records them; the lease calls around them find no lease,
// grant one and release it; anything else fails the test.
func actionPlatform(t *testing.T, status int, body string) (*watch.Source, *platformCalls) {
	return leasedPlatform(t, status, body, "")
}

// leasedPlatform is actionPlatform whose machines are leased by holder
// (none when "").
func leasedPlatform(t *testing.T, status int, body, holder string) (*watch.Source, *platformCalls) {
	t.Helper()
	calls := &platformCalls{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/lease") {
			calls.add(r.Method + " lease")
			switch {
			case r.Method == http.MethodGet && holder != "":
				_, _ = w.Write([]byte(`{"status":"success","data":{"nonce":"theirs","expires_at":1900000000,"owner":"` + holder + `","version":"v1"}}`))
			case r.Method == http.MethodGet:
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"error":"lease not found"}`))
			case r.Method == http.MethodPost:
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write([]byte(`{"status":"success","data":{"nonce":"ours","expires_at":1900000000,"owner":"me@example.com","version":"v1"}}`))
			default:
				_, _ = w.Write([]byte(`{"status":"success","data":{"ok":true}}`))
			}
			return
		}
		for _, verb := range []string{"/start", "/stop", "/suspend"} {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, verb) {
				if r.Header.Get("fly-machine-lease-nonce") != "ours" {
					t.Errorf("%s sent without our lease's nonce", r.URL.Path)
				}
				calls.add(r.URL.Path)
				w.WriteHeader(status)
				_, _ = w.Write([]byte(body))
				return
			}
		}
		t.Errorf("unexpected platform call %s %s", r.Method, r.URL.Path)
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	c, err := flyc.New(context.Background(), flyc.Config{FlapsURL: srv.URL, APIURL: srv.URL, Token: "action-token-secret"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &watch.Source{Client: c, Org: "org", Now: func() time.Time { return t0 }}, calls
}

// actionMachines: one of each state the rules care about. "swap" is started
// with 512 MB swap; the rest have a config that allows suspend.
func actionMachines() []*fly.Machine {
	mk := func(id, state string) *fly.Machine {
		return &fly.Machine{ID: id, State: state, HostStatus: "ok",
			Config: &fly.MachineConfig{Guest: &fly.MachineGuest{MemoryMB: 256}}}
	}
	swap := mk("swap", "started")
	mb := 512
	swap.Config.Init.SwapSizeMB = &mb
	return []*fly.Machine{mk("up", "started"), mk("down", "stopped"), mk("asleep", "suspended"), mk("going", "stopping"), swap}
}

// actionModel is a model at 160×30 (wide enough that no prompt wraps)
// listing actionMachines, with src as its platform.
func actionModel(t *testing.T, src *watch.Source, readOnly bool) Model {
	t.Helper()
	if src == nil {
		src = &watch.Source{Org: "org", Now: func() time.Time { return t0 }}
	}
	m := newInline(Config{Source: src, App: "sleepy-api", ReadOnly: readOnly, Theme: theme.New(true), Secrets: []string{"action-token-secret"}})
	// The wall stands still: no listing or feed comes due, so the only
	// call an action's y makes is the action's.
	m.wall = func() time.Time { return t0 }
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 30})
	return send(m, listReply(m, actionMachines()))
}

// ask selects machine id in the machines pane and presses k; the pane's
// request, if it makes one, is delivered to the root as the runtime would.
func ask(t *testing.T, m Model, id, k string) Model {
	t.Helper()
	for range len(m.app.Machines) {
		if sel, _ := machinesOf(m).Selected(); sel == id {
			break
		}
		m = send(m, runes("j"))
	}
	if sel, _ := machinesOf(m).Selected(); sel != id {
		t.Fatalf("cannot select %s (at %s)", id, sel)
	}
	next, cmd := m.Update(runes(k))
	m = next.(Model)
	if cmd != nil {
		if r, ok := cmd().(pane.Msg); ok {
			if _, isAction := r.Msg.(machines.ActionRequest); !isAction || r.To != machines.ID {
				t.Fatalf("%s on %s answered %+v, want an action request from the machines pane", k, id, r)
			}
			m = send(m, r)
		}
	}
	return m
}

func plainView(m Model) string { return ansi.Strip(m.View()) }

func TestConfirmationNamesAppMachineAndState(t *testing.T) {
	cases := []struct {
		id, key, want, footer string
	}{
		{"up", "S", "Stop machine up (started) of sleepy-api? y/N", "y stop up"},
		{"down", "s", "Start machine down (stopped) of sleepy-api? y/N", "y start down"},
		{"asleep", "S", "Stop machine asleep (suspended) of sleepy-api? y/N", "y stop asleep"},
		{"asleep", "s", "Resume machine asleep (suspended) of sleepy-api? y/N", "y resume asleep"}, // named by state
		{"up", "Z", "Suspend machine up (started) of sleepy-api? y/N", "y suspend up"},
	}
	for _, c := range cases {
		m := ask(t, actionModel(t, nil, false), c.id, c.key)
		if m.confirm == nil {
			t.Errorf("%s %s: no prompt (notice %q)", c.key, c.id, m.notice.text)
			continue
		}
		v := plainView(m)
		lines := strings.Split(v, "\n")
		if len(lines) != 30 {
			t.Errorf("%s %s: %d lines", c.key, c.id, len(lines))
		}
		if !strings.Contains(lines[len(lines)-2], c.want) {
			t.Errorf("%s %s: the line above the footer is %q, want %q", c.key, c.id, lines[len(lines)-2], c.want)
		}
		if foot := lines[len(lines)-1]; !strings.Contains(foot, c.footer) || strings.Contains(foot, "next pane") {
			t.Errorf("%s %s: footer %q, want the prompt's keys (%q) only", c.key, c.id, foot, c.footer)
		}
	}
}

func TestOnlyYesProceeds(t *testing.T) {
	cases := []struct {
		name string
		key  tea.KeyMsg
		call bool
	}{
		{"y", runes("y"), true},
		{"Y", runes("Y"), true}, // one rule: y, Y or yes
		{"n", runes("n"), false},
		{"esc", tea.KeyMsg{Type: tea.KeyEsc}, false},
		{"enter", tea.KeyMsg{Type: tea.KeyEnter}, false},
		{"S again", runes("S"), false},
		{"q does not quit past the prompt", runes("q"), false},
	}
	for _, c := range cases {
		src, calls := actionPlatform(t, http.StatusOK, `{}`)
		m := ask(t, actionModel(t, src, false), "up", "S")
		next, cmd := m.Update(c.key)
		m = next.(Model)
		if m.confirm != nil {
			t.Errorf("%s: the prompt stayed open", c.name)
		}
		if (m.acting != nil) != c.call {
			t.Errorf("%s: call in flight = %v, want %v", c.name, m.acting != nil, c.call)
		}
		if !c.call {
			if !strings.Contains(m.notice.text, "stop cancelled — nothing was sent to up") {
				t.Errorf("%s: notice %q", c.name, m.notice.text)
			}
			if m.ctx.Err() != nil {
				t.Errorf("%s: the key quit the dashboard", c.name)
			}
			continue
		}
		reply, ok := cmd().(watch.Reply)
		if !ok || reply.Kind != watch.ActJob || reply.Err != nil {
			t.Fatalf("%s: reply %#v", c.name, reply)
		}
		want := []string{"GET lease", "POST lease", "/v1/apps/sleepy-api/machines/up/stop", "DELETE lease"}
		if got := calls.list(); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: platform calls %v, want %v", c.name, got, want)
		}
		next, cmd = m.Update(reply)
		m = next.(Model)
		if m.acting != nil || !strings.Contains(plainView(m), "stop sent to up — watching it settle") {
			t.Errorf("%s: after the reply: acting %v, view:\n%s", c.name, m.acting, plainView(m))
		}
		if !dueNow(m, watch.ListJob, cmd) {
			t.Errorf("%s: the reply did not list the machines at once", c.name)
		}
	}
}

func TestReadOnlyIgnoresActionKeys(t *testing.T) {
	for _, k := range []string{"s", "S", "Z"} {
		for _, id := range []string{"up", "down"} {
			m := ask(t, actionModel(t, nil, true), id, k)
			// Even a request that got through is ignored.
			m = send(m, pane.Msg{To: machines.ID, Gen: m.gen, Msg: machines.ActionRequest{Action: machines.ActionStop, MachineID: id}})
			if m.confirm != nil || m.acting != nil || !strings.Contains(m.notice.text, "is off: flywake runs read-only (--readonly)") {
				t.Errorf("readonly %s on %s: prompt %v, notice %q (want it to say why nothing happens)", k, id, m.confirm, m.notice.text)
			}
			if v := plainView(m); strings.Contains(v, "y/N") {
				t.Errorf("readonly %s on %s: a prompt is shown:\n%s", k, id, v)
			}
		}
	}
}

func TestRefusedWithoutACall(t *testing.T) {
	cases := []struct {
		id, key, want string
	}{
		{"up", "s", "machine up is started — nothing to start"},
		{"down", "Z", "machine down is stopped — nothing to suspend"},
		{"down", "S", "machine down is stopped — nothing to stop"},
		{"asleep", "Z", "machine asleep is suspended — nothing to suspend"},
		{"going", "s", "machine going is stopping — start it once it has settled"},
		{"swap", "Z", "won't suspend swap of sleepy-api: its config blocks suspend — swap (512 MB)"},
	}
	for _, c := range cases {
		// quietClient fails the test on any platform call.
		src := &watch.Source{Client: quietClient(t), Org: "org", Now: func() time.Time { return t0 }}
		m := ask(t, actionModel(t, src, false), c.id, c.key)
		if m.confirm != nil || m.acting != nil {
			t.Errorf("%s %s: asked or called instead of refusing", c.key, c.id)
		}
		if !strings.Contains(m.notice.text, c.want) || !strings.Contains(plainView(m), c.want) {
			t.Errorf("%s %s: notice %q, want %q", c.key, c.id, m.notice.text, c.want)
		}
	}
}

func TestStaleActionReplyDropped(t *testing.T) {
	src, _ := actionPlatform(t, http.StatusOK, `{}`)
	m := ask(t, actionModel(t, src, false), "up", "S")
	m = send(m, runes("y"))
	if m.acting == nil {
		t.Fatal("y did not send")
	}
	cur := actionReply(m, nil)
	older, otherApp := actionReply(m, flyc.ErrAPIDown{Op: "older call"}), actionReply(m, flyc.ErrAPIDown{Op: "old app"})
	older.ID--
	otherApp.Gen--
	for _, s := range []watch.Reply{otherApp, older} {
		m = send(m, s)
		if m.acting == nil || strings.Contains(m.notice.text, "failed") {
			t.Fatalf("stale reply (gen %d, id %d) applied: notice %q", s.Gen, s.ID, m.notice.text)
		}
	}
	// While it is in flight, a second action is refused, not queued.
	m = ask(t, m, "down", "s")
	if m.confirm != nil || !strings.Contains(m.notice.text, "still in flight") {
		t.Errorf("second action while one is in flight: prompt %v, notice %q", m.confirm, m.notice.text)
	}
	m = send(m, cur)
	if m.acting != nil || !strings.Contains(m.notice.text, "stop sent to up") {
		t.Errorf("the current reply was not applied: notice %q", m.notice.text)
	}
}

func TestAPIRefusalShownVerbatim(t *testing.T) {
	const text = "failed_precondition: machine was not updated since 2024-06-01; update it to suspend"
	src, calls := actionPlatform(t, http.StatusPreconditionFailed, `{"error":"`+text+`"}`)
	m := ask(t, actionModel(t, src, false), "up", "Z") // nothing in its config blocks suspend
	next, cmd := m.Update(runes("y"))
	m = next.(Model)
	if cmd == nil {
		t.Fatal("y did not send")
	}
	m = send(m, cmd())
	if got := calls.list(); len(got) != 4 || got[2] != "/v1/apps/sleepy-api/machines/up/suspend" {
		t.Fatalf("platform calls %v, want the suspend between the lease's look-up, take and release", got)
	}
	if !strings.Contains(m.notice.text, "Fly refused to suspend up: "+text) || m.notice.kind != noticeFail {
		t.Errorf("notice %q (kind %d), want the API's text verbatim", m.notice.text, m.notice.kind)
	}
	if v := plainView(m); !strings.Contains(strings.Join(strings.Fields(v), " "), text) {
		t.Errorf("view lacks the API's text:\n%s", v)
	}
}

func TestActionErrorRedactsTheToken(t *testing.T) {
	m := ask(t, actionModel(t, &watch.Source{Client: quietClient(t), Org: "org", Now: func() time.Time { return t0 }}, false), "up", "S")
	m.acting = &acting{id: m.sched.Ask(watch.Job{Kind: watch.ActJob, Machine: "up", Action: watch.Stop}).ID, action: machines.ActionStop, machine: "up"}
	m.confirm = nil
	m = send(m, actionReply(m, flyc.ErrRejected{Op: "stop machine", Status: 400, Text: "bad header Bearer action-token-secret"}))
	if strings.Contains(m.notice.text, "action-token-secret") || !strings.Contains(m.notice.text, "[REDACTED]") {
		t.Errorf("notice %q leaks or lost the redaction", m.notice.text)
	}
}

func TestNoticeExpires(t *testing.T) {
	m := ask(t, actionModel(t, nil, false), "up", "s") // refused: a notice
	first := m.notice.id
	if first == 0 {
		t.Fatal("no notice")
	}
	m = ask(t, m, "down", "Z") // a newer notice replaces it
	m = send(m, noticeMsg{req: req{gen: m.gen, id: first}})
	if m.notice.text == "" {
		t.Fatal("the old notice's timer cleared the newer notice")
	}
	m = send(m, noticeMsg{req: req{gen: m.gen, id: m.notice.id}})
	if m.notice.text != "" {
		t.Fatalf("notice %q outlived its timer", m.notice.text)
	}
}

func TestFooterFitsTheContext(t *testing.T) {
	cases := []struct {
		name    string
		keys    []tea.Msg
		want    []string
		notWant []string
	}{
		{"dashboard", nil, []string{"? help", "c checklist", "w wake test", "/ filter", "enter drill in"}, nil},
		{"help", []tea.Msg{runes("?")}, []string{"?/esc close", "q quit"}, []string{"tab next pane"}},
		{"switcher", []tea.Msg{runes(":")}, []string{"enter open highlighted", "tab/shift+tab next/prev match", "esc cancel"}, []string{"next pane"}},
		{"checklist", []tea.Msg{runes("c")}, []string{"n/p next/prev", "enter evidence", "esc back"}, []string{"next pane"}},
		{"wake setup", []tea.Msg{runes("w")}, []string{"enter start", "esc back", "q quit"}, []string{"next pane", "esc close"}},
	}
	for _, c := range cases {
		m := actionModel(t, nil, false)
		for _, k := range c.keys {
			m = send(m, k)
		}
		lines := strings.Split(plainView(m), "\n")
		foot := lines[len(lines)-1]
		t.Run(c.name, func(t *testing.T) { uitest.AssertMentions(t, foot, c.want, c.notWant) })
	}
}

func TestLongNoticeKeepsTheFrameSize(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {80, 24}, {160, 48}} {
		m := ask(t, actionModel(t, nil, false), "swap", "Z") // the longest refusal: wraps when narrow
		m = send(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		lines := strings.Split(m.View(), "\n")
		if len(lines) != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != sz[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", sz[0], sz[1], i, w, ansi.Strip(l))
			}
		}
		if flat := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(flat, "swap (512 MB)") {
			t.Errorf("%dx%d: the reason was cut:\n%s", sz[0], sz[1], ansi.Strip(m.View()))
		}
	}
}

func TestActionRefusedUnderSomeoneElsesLease(t *testing.T) {
	src, calls := leasedPlatform(t, http.StatusOK, `{"ok":true}`, "deployer@example.com")
	m := ask(t, actionModel(t, src, false), "up", "S")
	next, cmd := m.Update(runes("y"))
	m = next.(Model)
	m = send(m, cmd())
	if got := calls.list(); len(got) != 1 || got[0] != "GET lease" {
		t.Errorf("platform calls %v, want only the lease look-up", got)
	}
	want := "machine up is leased by deployer@example.com until 2030-03-17T17:46:40Z — nothing was changed"
	if !strings.Contains(m.notice.text, want) || m.notice.kind != noticeWarn {
		t.Errorf("notice %q (kind %d), want %q", m.notice.text, m.notice.kind, want)
	}
}
