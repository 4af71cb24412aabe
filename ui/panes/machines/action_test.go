package machines

import (
	"strings"
	"testing"

	"github.com/flywake/flywake/ui/uitest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

// requested runs the pane's command, if any, and returns the request it made.
func requested(cmd tea.Cmd) (ActionRequest, bool) {
	if cmd == nil {
		return ActionRequest{}, false
	}
	r, ok := cmd().(ActionRequest)
	return r, ok
}

func TestActionKeysAskTheRoot(t *testing.T) {
	ms := []*fly.Machine{machine("aa1", "started"), machine("bb2", "stopped"), machine("cc3", "suspended")}
	cases := []struct {
		name     string
		readOnly bool
		before   []string // keys pressed first
		key      string
		want     ActionRequest
		wantNone bool
	}{
		{"S stops the selected row", false, nil, "S", ActionRequest{ActionStop, "aa1"}, false},
		{"s starts the row under the cursor", false, []string{"j"}, "s", ActionRequest{ActionStart, "bb2"}, false},
		{"Z suspends", false, nil, "Z", ActionRequest{ActionSuspend, "aa1"}, false},
		{"s on a suspended machine resumes it", false, []string{"j", "j"}, "s", ActionRequest{ActionResume, "cc3"}, false},
		{"from the drill-down", false, []string{"j", "enter"}, "S", ActionRequest{ActionStop, "bb2"}, false},
		{"read-only asks nothing", true, nil, "S", ActionRequest{}, true},
		{"read-only drill-down asks nothing", true, []string{"enter"}, "Z", ActionRequest{}, true},
		{"typing a filter asks nothing", false, []string{"/"}, "S", ActionRequest{}, true},
	}
	for _, c := range cases {
		km := keys.Default()
		if c.readOnly {
			km.ReadOnly()
		}
		p := New(pane.Context{Theme: theme.New(true), Keys: &km, ReadOnly: c.readOnly})
		p.SetSize(100, 10)
		p.SetData(appOf(ms...), t0)
		for _, k := range c.before {
			p.Update(uitest.Key(k))
		}
		got, ok := requested(p.Update(uitest.Key(c.key)))
		switch {
		case c.wantNone && ok:
			t.Errorf("%s: asked %+v, want nothing", c.name, got)
		case !c.wantNone && (!ok || got != c.want):
			t.Errorf("%s: asked %+v (ok=%v), want %+v", c.name, got, ok, c.want)
		}
	}
}

func TestDetailTitleNamesActionKeysUnlessReadOnly(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		km := keys.Default()
		if readOnly {
			km.ReadOnly()
		}
		p := New(pane.Context{Theme: theme.New(true), Keys: &km, ReadOnly: readOnly})
		p.SetSize(120, 10)
		p.SetData(appOf(machine("aa1", "started")), t0)
		p.Update(uitest.Key("enter"))
		title := strings.SplitN(ansi.Strip(uitest.View(p, 120, 10, true, t0)), "\n", 2)[0]
		if got := strings.Contains(title, "s/S/Z start/stop/suspend"); got == readOnly {
			t.Errorf("readonly=%v: title %q names the action keys = %v", readOnly, title, got)
		}
	}
}

func TestActionString(t *testing.T) {
	cases := map[Action]string{ActionStart: "start", ActionStop: "stop", ActionSuspend: "suspend", ActionResume: "resume", 0: "unknown action"}
	for a, want := range cases {
		if got := a.String(); got != want {
			t.Errorf("Action(%d) = %q, want %q", int(a), got, want)
		}
	}
}
