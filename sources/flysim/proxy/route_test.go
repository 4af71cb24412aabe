package proxy

import (
	"testing"
	"time"
)

func TestChooseRoute(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	long, recent := now.Add(-time.Hour), now.Add(-time.Minute)
	serving := func(load float64) candidate { return candidate{State: "started", Serving: true, Load: load} }
	lim := limits{Soft: 12, Hard: 25, Autostart: true}
	tests := []struct {
		name string
		cs   []candidate
		lim  limits
		want route
	}{
		{"least loaded under soft", []candidate{serving(5), serving(2)}, lim, route{routeServe, 1, -1}},
		{"booting under soft before a new wake", []candidate{serving(12), {State: "starting", Load: 3}, {State: "stopped", StoppedAt: long}}, lim, route{routeHold, 1, -1}},
		{"all at soft: wake, suspended first", []candidate{serving(12), {State: "stopped", StoppedAt: long}, {State: "suspended", StoppedAt: long}}, lim, route{routeWake, 2, -1}},
		{"recently stopped passed over (PM11)", []candidate{serving(13), {State: "stopped", StoppedAt: recent}, {State: "stopped", StoppedAt: long}}, lim, route{routeWake, 2, 1}},
		{"only recently stopped: woken anyway", []candidate{serving(13), {State: "stopped", StoppedAt: recent}}, lim, route{routeWake, 1, -1}},
		{"nothing to wake: over soft under hard", []candidate{serving(20), serving(14)}, lim, route{routeServe, 1, -1}},
		{"autostart off: over soft", []candidate{serving(12), {State: "stopped", StoppedAt: long}}, limits{Soft: 12, Hard: 25}, route{routeServe, 0, -1}},
		{"all at hard: queue", []candidate{serving(25), {State: "starting", Load: 25}}, lim, route{routeQueue, -1, -1}},
		{"no hard limit never queues", []candidate{serving(400)}, limits{Soft: 25}, route{routeServe, 0, -1}},
		{"nothing running, autostart off", []candidate{{State: "stopped", StoppedAt: long}}, limits{Soft: 12, Hard: 25}, route{routeNone, -1, -1}},
		{"stopping is not wakeable", []candidate{{State: "stopping"}}, lim, route{routeNone, -1, -1}},
	}
	for _, tt := range tests {
		cs := append([]candidate(nil), tt.cs...)
		for i := range cs {
			cs[i].Lim = tt.lim
		}
		if got := chooseRoute(cs, now); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// Each machine by its own service: one without autostart is not woken,
	// one without a service gets nothing, one a user is suspending is left
	// to sleep.
	noStart := candidate{State: "stopped", StoppedAt: long, Lim: limits{Soft: 12, Hard: 25}}
	starts := candidate{State: "stopped", StoppedAt: recent, Lim: lim}
	busy := serving(12)
	busy.Lim = lim
	if got := chooseRoute([]candidate{busy, noStart, starts}, now); got != (route{routeWake, 2, -1}) {
		t.Errorf("autostart per machine: got %+v", got)
	}
	bare := candidate{State: "started", Serving: true, NoService: true, Lim: lim}
	if got := chooseRoute([]candidate{bare}, now); got != (route{routeNone, -1, -1}) {
		t.Errorf("a machine without a service: got %+v", got)
	}
	leaving := candidate{State: "suspending", Leaving: true, Lim: lim}
	asleep := candidate{State: "stopped", StoppedAt: recent, Lim: lim}
	if got := chooseRoute([]candidate{busy, leaving, asleep}, now); got != (route{routeWake, 2, -1}) {
		t.Errorf("a machine a user is suspending: got %+v", got)
	}
	if got := chooseRoute([]candidate{busy, leaving}, now); got.Kind == routeWake {
		t.Errorf("woke the machine a user is suspending: %+v", got)
	}
	forced := []struct {
		c     candidate
		wakes bool
		want  routeKind
	}{
		{serving(99), false, routeServe},
		{candidate{State: "starting"}, false, routeHold},
		{candidate{State: "stopped"}, false, routeNone},
		{candidate{State: "stopped"}, true, routeWake},
	}
	for _, tt := range forced {
		if got := forcedRoute(tt.c, tt.wakes); got != tt.want {
			t.Errorf("forced %+v wakes=%v: got %s, want %s", tt.c, tt.wakes, got, tt.want)
		}
	}
}

func TestFluidLoadInverse(t *testing.T) {
	for _, load := range []float64{0.5, 12, 25, 100} {
		lam := fluidRate(load, 0.075, 2)
		if got := fluidLoad(lam, 0.075, 2); got < load*0.999 || got > load*1.001 {
			t.Errorf("fluidLoad(fluidRate(%v)) = %v", load, got)
		}
	}
}
