package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	flyc "github.com/flywake/flywake/sources/fly"
	"github.com/flywake/flywake/sources/watch"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// The header gives way segment by segment: long forms first, then the
// least important segments whole; none is ever cut, the name and the
// freshness always stay.
func TestHeaderGivesWayWholeSegments(t *testing.T) {
	detail := "GET /v1/apps/sleepy-api/machines: 503 Service Unavailable"
	segs := []segment{
		{kind: partName, text: "demo-org/sleepy-api", short: "sleepy-api"},
		{kind: partMode, text: "DEMO"},
		{kind: partReadOnly, text: "READONLY", short: "RO"},
		{kind: partAPI, text: "API ✓"},
		{kind: partError, text: "last error 2m05s ago: " + detail, short: "last error 2m05s ago", detail: detail},
		{kind: partStates, text: "1 started 9 stopped", short: "●1 ○9", right: true},
		{kind: partRelease, text: "release v42", short: "v42", right: true},
		{kind: partCalls, text: "4 Machines API calls/min · 26 logs/metrics", short: "4 API calls/min", right: true},
		{kind: partFresh, text: "updated 3s ago", right: true},
	}
	cases := []struct {
		width   int
		want    []string
		notWant []string
	}{
		{240, []string{"demo-org/sleepy-api", "503 Service Unavailable", "1 started 9 stopped", "release v42", "4 Machines API calls/min · 26 logs/metrics", "READONLY"}, nil},
		{150, []string{"demo-org/sleepy-api", "last error 2m05s ago: GET /v1/apps/sleepy-api/machines: 503", "v42", "READONLY", "●1 ○9"}, []string{"calls/min"}},
		{110, []string{"demo-org/sleepy-api", "last error 2m05s ago", "READONLY", "v42"}, []string{"calls/min", "503"}},
		{80, []string{"sleepy-api", "last error 2m05s ago", "API ✓", "updated 3s ago", "RO"}, []string{"503", "calls/min", "v42"}},
		{50, []string{"sleepy-api", "updated 3s ago", "API ✓"}, []string{"last error", "demo-org"}},
	}
	for _, c := range cases {
		l, r := fitHeader(segs, c.width)
		line := strings.Join(l, " · ") + " " + strings.Join(r, " · ")
		if w := ansi.StringWidth(line); w > c.width {
			t.Errorf("%d: %d wide: %q", c.width, w, line)
		}
		t.Run(fmt.Sprint(c.width), func(t *testing.T) { uitest.AssertMentions(t, line, c.want, c.notWant) })
		if strings.Count(line, "…") > 0 && !strings.Contains(line, "last error 2m05s ago: ") {
			t.Errorf("%d: a segment other than the error's words is cut: %q", c.width, line)
		}
		if strings.HasSuffix(strings.Join(l, " · "), "last error…") {
			t.Errorf("%d: the error reads as cut: %q", c.width, line)
		}
	}
}

// Read-only says so in the header, and the machine action keys say why
// they do nothing; a key of an overlay pressed outside it says where it
// acts.
func TestReadOnlyAndInertKeysSaySo(t *testing.T) {
	m := offline(t, true)
	if h := ansi.Strip(m.View()); !strings.Contains(strings.Split(h, "\n")[0], "READONLY") {
		t.Fatalf("no READONLY badge:\n%s", strings.Split(h, "\n")[0])
	}
	for key, want := range map[string]string{
		"S": "S (stop machine) is off: flywake runs read-only (--readonly)",
		"w": "w (wake test) is off",
		"n": "n steps through the checklist's items (c opens it)",
		"v": "in the wake test (w)",
		"%": "% is not a key flywake uses",
	} {
		mm := send(m, runes(key))
		if !strings.Contains(mm.notice.text, want) {
			t.Errorf("%s: notice %q, want %q", key, mm.notice.text, want)
		}
	}
	m = offline(t, false)
	m = send(m, tea.KeyMsg{Type: tea.KeyTab}) // cold starts
	if mm := send(m, runes("o")); !strings.Contains(mm.notice.text, "o (sort by next column) does nothing in Cold starts") {
		t.Errorf("o in cold starts: notice %q", mm.notice.text)
	}
	// A scroll key in a pane with nothing more to show says so.
	if mm := send(m, runes("j")); !strings.Contains(mm.notice.text, "j: Cold starts is at its end") {
		t.Errorf("a scroll key in a pane with nothing to scroll: notice %q", mm.notice.text)
	}
}

// Over an error only the user can fix the header does not contradict the
// body: a refused token reads API ✗, and nothing claims to be loading or
// fresh, since nothing is fetched.
func TestHeaderOverAFatalError(t *testing.T) {
	c, err := flyc.New(context.Background(), flyc.Config{FlapsURL: "http://127.0.0.1:9", APIURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, tc := range []struct {
		name    string
		listed  bool
		err     error
		want    []string
		notWant []string
	}{
		{"bad token", false, flyc.ErrBadToken{}, []string{"API ✗"}, []string{"API ✓", "loading", "updated", "retrying"}},
		{"unknown app", false, flyc.ErrUnknownApp{App: "app-a"}, []string{"API ✓"}, []string{"loading", "updated", "retrying"}},
		{"bad token after a listing", true, flyc.ErrBadToken{}, []string{"API ✗"}, []string{"updated", "stale"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(Config{Source: &watch.Source{Client: c, Org: "org", Now: func() time.Time { return t0 }}, App: "app-a", Theme: theme.New(true)})
			m = send(m, tea.WindowSizeMsg{Width: 160, Height: 40})
			if tc.listed {
				m = send(m, listReply(m, listing("a")))
			}
			m = send(m, listFailed(m, tc.err))
			if m.Err() == nil {
				t.Fatal("the error is not fatal")
			}
			uitest.AssertMentions(t, ansi.Strip(m.headerLine()), tc.want, tc.notWant)
		})
	}
}
