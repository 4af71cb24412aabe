package waketest

import (
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"
)

// A machine seen started whose start events fell out of the kept list says
// "started", not "started ()"; one whose events say how it woke names it.
// Hostile states reach the live events inert.
func TestStartedEventText(t *testing.T) {
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var got []Event
	r := &runner{mode: ModeStop, onEvent: func(e Event) { got = append(got, e) }, obs: map[string]*machineObs{
		"m1": {id: "m1", target: true, last: "stopped", atBurst: "stopped"},
		"m2": {id: "m2", target: true, last: "stopped", atBurst: "stopped"},
		"m3": {id: "m3", target: true, last: "stopped", atBurst: "stopped"},
	}}
	ob := &observer{r: r, since: at.Add(-time.Minute)}
	ob.apply([]*fly.Machine{
		{ID: "m1", State: "started"},
		{ID: "m2", State: "started", Events: []*fly.MachineEvent{
			{Type: "start", Status: "starting", Source: "fly-proxy", Timestamp: at.UnixMilli()},
			{Type: "start", Status: "started", Timestamp: at.Add(time.Second).UnixMilli()},
		}},
		{ID: "m3", State: "started\x1b]0;pwned\x07"},
	}, at.Add(2*time.Second))
	texts := map[string]string{}
	for _, e := range got {
		if strings.ContainsAny(e.Text+e.State, "\x1b\x07") {
			t.Errorf("event not inert: %+v", e)
		}
		if e.Kind == EventMachineStarted {
			texts[e.Machine] = e.Text
		}
	}
	if texts["m1"] != "m1 started" || texts["m2"] != "m2 started (cold boot)" {
		t.Errorf("started texts = %q", texts)
	}
}

// The plan is shown and saved: platform text in it is inert, and a machine
// whose id is not plain text is never a target.
func TestPreflightIsInert(t *testing.T) {
	hostile := "\x1b]0;pwned\x07"
	named := func(m *fly.Machine) { m.Name, m.Region = "web"+hostile, "ams"+hostile }
	ms := []*fly.Machine{
		machine("m1", "started", named), machine("m2", "started", named),
		machine("m3"+hostile, "started"), machine("m4", "started"),
	}
	p, err := Preflight(ms, Setup{App: "app", Mode: ModeStop, All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range p.Targets {
		if strings.ContainsAny(tg.ID+tg.Name+tg.Region, "\x1b\x07") || strings.HasPrefix(tg.ID, "m3") {
			t.Errorf("target %+v", tg)
		}
	}
	if !strings.Contains(strings.Join(p.Warnings, "\n"), `has an id that is not plain text; left alone`) {
		t.Errorf("warnings %q", p.Warnings)
	}
	for _, w := range p.Warnings {
		if strings.ContainsAny(w, "\x1b\x07") {
			t.Errorf("warning not inert: %q", w)
		}
	}
}
