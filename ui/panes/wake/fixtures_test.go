package wake

import (
	"github.com/flywake/flywake/sources/waketest"
)

func req(i int, sent, total int64, status int, class, machine string) waketest.Event {
	q := &waketest.Request{Index: i, SentMS: sent, TTFBMS: total, TotalMS: total, Status: status, ErrClass: class, Machine: machine}
	return waketest.Event{Kind: waketest.EventRequest, Request: q, At: sent + total, Machine: machine}
}

// suspendEvents is the first part of a suspend run: sleep, then a burst
// with 18 of 40 answered (16 ok, 2 failed).
func suspendEvents() []waketest.Event {
	m := waketest.ModeSuspend
	ev := []waketest.Event{
		{Kind: waketest.EventPhase, Phase: waketest.PhaseSleeping, Text: "putting 3 machines to sleep (suspend)"},
		{Kind: waketest.EventMachineState, Machine: "3d8d6e5a9b2c81", State: "starting"},
		{Kind: waketest.EventSuspendRefused, Machine: "3d8d6e5a9b2c81", Text: "failed_precondition: Machines with swap cannot be suspended"},
		{Kind: waketest.EventMachineState, Machine: "3d8d6e5a9b2c81", State: "stopped"},
		{Kind: waketest.EventPhase, Phase: waketest.PhaseFiring, Text: "sending 40 requests to https://snappy-api.fly.dev/healthz"},
		{Kind: waketest.EventMachineState, Machine: "148e3d5f2a9c01", State: "starting", At: 120},
		{Kind: waketest.EventMachineStarted, Machine: "148e3d5f2a9c01", State: "started", At: 410},
		{Kind: waketest.EventMachineState, Machine: "148e3d5f2a9c01", State: "started", At: 520},
		{Kind: waketest.EventMachineServing, Machine: "148e3d5f2a9c01", At: 460},
		{Kind: waketest.EventMachineState, Machine: "3d8d6e5a9b2c81", State: "starting", At: 150},
	}
	done := 0
	ok := 0
	failed := 0
	add := func(e waketest.Event) {
		done++
		if e.Request.OK() {
			ok++
		} else {
			failed++
		}
		e.Progress = waketest.Progress{Planned: 40, Done: done, OK: ok, Failed: failed}
		ev = append(ev, e)
	}
	for i := 0; i < 12; i++ {
		add(req(i, int64(i), 90+int64(i)*10, 200, "none", "0a1b2c3d4e5f60"))
	}
	for i := 12; i < 16; i++ {
		add(req(i, int64(i), 600+int64(i)*20, 200, "none", "148e3d5f2a9c01"))
	}
	add(req(16, 16, 1400, 502, "proxy_5xx", ""))
	add(req(17, 17, 3100, 0, "timeout", ""))
	for i := range ev {
		ev[i].Mode = m
		if ev[i].Progress.Planned == 0 {
			ev[i].Progress = waketest.Progress{Planned: 40}
		}
	}
	return ev
}

func run(mode waketest.Mode, ok, failed int, p50, p95, mx, first, slowest int64) waketest.Run {
	r := waketest.Run{Mode: mode, Requests: 40, Sent: 40, OK: ok, Failed: failed,
		ByStatus: map[string]int{"200": ok}, ByErrClass: map[string]int{"none": ok},
		P50MS: p50, P95MS: p95, MaxMS: mx, First200MS: first, SlowestMS: slowest,
		MachinesWoken: 3, StartedToServingMS: map[string]int64{}, WokenUnserved: []string{},
		SuspendBlockedBy: []string{}, Representative: true, Notes: []string{}}
	if failed > 0 {
		r.ByStatus["502"] = failed
		r.ByErrClass["proxy_5xx"] = failed
	}
	return r
}

// bothReport is a finished "both" test of the fixture app.
func bothReport() *waketest.Report {
	stop := run(waketest.ModeStop, 31, 9, 26_400, 30_100, 30_200, 140, 27_900)
	stop.StartedToServingMS = map[string]int64{"148e3d5f2a9c01": 24_800, "9080aa11bb22cc": 26_100}
	stop.Machines = []waketest.MachineRun{
		{ID: "148e3d5f2a9c01", Target: true, Slept: "stopped", After: "started", Wake: "cold boot", WokenBy: "fly-proxy", WakeMS: 80, StartedMS: 1_300, ServingMS: 26_100, Served: 14},
		{ID: "3d8d6e5a9b2c81", Target: true, Slept: "stopped", After: "stopped", WakeMS: -1, StartedMS: -1, ServingMS: -1},
		{ID: "9080aa11bb22cc", Target: true, Slept: "stopped", After: "started", Wake: "cold boot", WokenBy: "fly-proxy", WakeMS: 90, StartedMS: 1_500, ServingMS: 27_600, Served: 9},
	}
	sus := run(waketest.ModeSuspend, 40, 0, 420, 880, 910, 95, 910)
	sus.StartedToServingMS = map[string]int64{"148e3d5f2a9c01": 40, "9080aa11bb22cc": 52}
	sus.SuspendBlockedBy = []string{"failed_precondition: Machines with swap cannot be suspended"}
	sus.FellBackToStop = true
	sus.Machines = []waketest.MachineRun{
		{ID: "148e3d5f2a9c01", Target: true, Slept: "suspended", After: "started", Wake: "resume", WokenBy: "fly-proxy", WakeMS: 60, StartedMS: 330, ServingMS: 370, Served: 21},
		{ID: "3d8d6e5a9b2c81", Target: true, Slept: "stopped", FellBackToStop: true, SuspendRefused: "failed_precondition: Machines with swap cannot be suspended", After: "stopped", WakeMS: -1, StartedMS: -1, ServingMS: -1},
		{ID: "9080aa11bb22cc", Target: true, Slept: "suspended", After: "started", Wake: "resume", WokenBy: "fly-proxy", WakeMS: 70, StartedMS: 350, ServingMS: 402, Served: 19},
	}
	return &waketest.Report{App: testApp, Speed: 1, StartedAt: t0, Release: "7", Mode: waketest.ModeBoth,
		URL: "https://snappy-api.fly.dev", Path: "/healthz", ProcessGroup: "app", Representative: true,
		Kept: []string{"0a1b2c3d4e5f60"}, Runs: []waketest.Run{stop, sus},
		Warnings: []string{"suspend is blocked on 1 of 3 machines by their config: the API will refuse and the test falls back to stop for them"}}
}

// abortedReport is a suspend run cut short mid-burst.
func abortedReport() *waketest.Report {
	r := bothReport()
	sus := r.Runs[1]
	sus.Sent, sus.OK, sus.Failed, sus.CutOff = 18, 16, 2, 22
	sus.Aborted = true
	sus.Missing = "requests 19–40 not sent: aborted"
	sus.Machines[1].After = "starting"
	r.Mode, r.Runs, r.Aborted = waketest.ModeSuspend, []waketest.Run{sus}, true
	return r
}

// absorbedReport is the dashboard's first test of snappy-api: the machine
// kept running answered 24 of the stop run's 40 requests and only 2 of the
// 3 stopped machines woke, so stop looked faster than suspend.
func absorbedReport() *waketest.Report {
	r := bothReport()
	stop, sus := &r.Runs[0], &r.Runs[1]
	stop.OK, stop.Failed, stop.P50MS = 40, 0, 159
	stop.Machines = append([]waketest.MachineRun{{ID: "0a1b2c3d4e5f60", StateBefore: "started", AtBurst: "started", After: "started",
		WakeMS: -1, StartedMS: -1, ServingMS: 20, Served: 24}}, stop.Machines...)
	for i := range stop.Machines[1:] {
		stop.Machines[i+1].AtBurst = "stopped"
	}
	sus.P50MS = 461
	for i := range sus.Machines {
		sus.Machines[i].AtBurst = sus.Machines[i].Slept
	}
	r.SoftLimit = 20
	return r
}
