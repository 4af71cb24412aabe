package machines

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/ui/keys"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
	"github.com/flywake/flywake/ui/uitest"
)

// The describe view of a machine, searched for "exit", at 80×24 and 160×48,
// with and without colour. Regenerate with
//
//	go test ./ui/panes/machines -run DescribeGolden -update
func TestDescribeGolden(t *testing.T) {
	code := 137
	m := machine("148e4d55f36278", "stopped", func(m *fly.Machine) {
		m.Events = append([]*fly.MachineEvent{{Type: "exit", Status: "stopped", Source: "flyd", Timestamp: t0.Add(-2 * time.Minute).UnixMilli(),
			Request: &fly.MachineRequest{ExitEvent: &fly.MachineExitEvent{ExitCode: code, OOMKilled: true}}}}, m.Events...)
	})
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, noColor := range []bool{false, true} {
			name := fmt.Sprintf("%dx%d", size[0], size[1])
			if noColor {
				name += "_nocolor"
			}
			t.Run(name, func(t *testing.T) {
				uitest.PinColorProfile(t)
				km := keys.Default()
				p := New(pane.Context{Theme: theme.New(noColor), Keys: &km})
				p.SetSize(size[0], size[1])
				p.SetData(appOf(m), t0)
				req := p.Update(uitest.Key("d"))().(DescribeRequest)
				p.Update(Described{MachineID: req.MachineID, Req: req.Req, Lines: lines})
				for _, k := range []string{"/", "e", "x", "i", "t", "enter"} {
					p.Update(uitest.Key(k))
				}
				out := uitest.View(p, size[0], size[1], true, t0)
				uitest.AssertSize(t, out, size[0], size[1])
				uitest.AssertMentions(t, ansi.Strip(out), []string{"describe 148e4d55f36278", `"exit_code": 137`, `"oom_killed": true`, "/exit · match 1 of"}, nil)
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

// A value longer than the view (an image digest) wraps under its key and
// keeps every character: put together, the view's lines hold it as the API
// wrote it, with no space inside.
func TestDescribeWrapsLongValuesWhole(t *testing.T) {
	digest := "registry.fly.io/sleepy-api@sha256:" + strings.Repeat("0123456789abcdef", 4)
	lines := []string{"{", `  "image_ref": {`, `    "image": "` + digest + `"`, "  }", "}"}
	km := keys.Default()
	p := New(pane.Context{Theme: theme.New(true), Keys: &km})
	p.SetSize(40, 20)
	m := machine("148e4d55f36278", "started", func(*fly.Machine) {})
	p.SetData(appOf(m), t0)
	req := p.Update(uitest.Key("d"))().(DescribeRequest)
	p.Update(Described{MachineID: req.MachineID, Req: req.Req, Lines: lines})
	out := ansi.Strip(uitest.View(p, 40, 20, true, t0))
	var joined strings.Builder
	for _, l := range strings.Split(out, "\n") {
		joined.WriteString(strings.Trim(l, " │┃"))
	}
	if !strings.Contains(joined.String(), `"image":"`+digest+`"`) && !strings.Contains(joined.String(), `"image": "`+digest+`"`) {
		t.Errorf("the digest is not whole in the view:\n%s", out)
	}
}
