package diagnose

import (
	"strings"
	"testing"
)

func TestCloseWaitLevel(t *testing.T) {
	for _, tc := range []struct {
		n     int
		hard  bool
		level Level
	}{
		{0, false, Pass}, {CloseWaitWarn - 1, false, Pass}, {CloseWaitWarn, false, Warn}, {CloseWaitFail - 1, false, Warn},
		{CloseWaitFail, false, Fail}, {468, false, Fail}, {468, true, Warn}, {CloseWaitWarn, true, Warn}, {1, true, Pass},
	} {
		if got := CloseWaitLevel(tc.n, tc.hard); got != tc.level {
			t.Errorf("CloseWaitLevel(%d, hard %v) = %v, want %v", tc.n, tc.hard, got, tc.level)
		}
	}
}

func TestConcurrencySpelling(t *testing.T) {
	if got := (Concurrency{Type: "connections", Soft: 25}).HardLimit(); got != "none" {
		t.Errorf("no hard limit spelled %q, want none (never 0)", got)
	}
	if got := (Concurrency{Hard: 1500}).HardLimit(); got != "1,500" {
		t.Errorf("hard 1500 spelled %q", got)
	}
	c := Concurrency{}
	if c.SoftLimit() != DefaultSoftLimit || c.Kind() != "connections" {
		t.Errorf("defaults: soft %d, type %q", c.SoftLimit(), c.Kind())
	}
}

func TestBacklogVerdict(t *testing.T) {
	noHard := Concurrency{Type: "connections", Soft: 25}
	hard := Concurrency{Type: "connections", Soft: 20, Hard: 25}
	m := func(id string, c Concurrency, closeWait int) BacklogMachine {
		bm := BacklogMachine{ID: id, State: "started", Served: true, Conc: c, ProbedAt: h0}
		if closeWait >= 0 {
			bm.Sockets = map[string]int{"CLOSE_WAIT": closeWait, "ESTABLISHED": 3, "LISTEN": 1}
		}
		return bm
	}
	for _, tc := range []struct {
		name  string
		ms    []BacklogMachine
		level Level
		line  string
	}{
		{"a backlog on two machines", []BacklogMachine{m("a", noHard, 534), m("b", noHard, 435), m("c", noHard, 2)}, Fail,
			"no hard limit: the proxy keeps feeding machines that are drowning — 969 sockets in CLOSE_WAIT on 2 machines"},
		{"one drowning, one backing up", []BacklogMachine{m("a", noHard, 60), m("b", noHard, 12)}, Fail,
			"no hard limit: the proxy keeps feeding machines that are drowning — 72 sockets in CLOSE_WAIT on 2 machines"},
		{"backing up, no hard limit", []BacklogMachine{m("a", noHard, 12)}, Warn,
			"12 sockets in CLOSE_WAIT on 1 machine: clients give up before the app answers, and no hard limit stops the proxy"},
		{"backlog despite a hard limit", []BacklogMachine{m("a", hard, 200)}, Warn,
			"200 sockets in CLOSE_WAIT despite a hard limit on 1 machine: clients give up before the app answers"},
		{"the backed-up machine has a hard limit, a calm one has none", []BacklogMachine{m("a", hard, 200), m("b", noHard, 3)}, Warn,
			"200 sockets in CLOSE_WAIT despite a hard limit on 1 machine: clients give up before the app answers"},
		{"calm, no hard limit", []BacklogMachine{m("a", noHard, 1), m("b", noHard, -1)}, Pass,
			"1 socket in CLOSE_WAIT on 1 machine probed; no hard limit, so a burst would queue on the machines"},
		{"calm with a hard limit", []BacklogMachine{m("a", hard, 0)}, Pass,
			"0 sockets in CLOSE_WAIT on 1 machine probed; the hard limit stops the proxy before a machine drowns"},
		{"not probed", []BacklogMachine{m("a", noHard, -1)}, Unknown,
			"no hard limit, so a burst queues on the machines; sockets not probed yet: the probe reads /proc/net/tcp{,6} on started machines"},
		{"no machines", nil, NA, "no machine with a service: the proxy routes no traffic here"},
		{"a worker without a service", []BacklogMachine{{ID: "w", State: "started", Sockets: map[string]int{"CLOSE_WAIT": 500}}}, NA,
			"no machine with a service: the proxy routes no traffic here"},
	} {
		got := BacklogVerdict(tc.ms)
		if got.Level != tc.level || got.Line != tc.line {
			t.Errorf("%s:\n got %v %q\nwant %v %q", tc.name, got.Level, got.Line, tc.level, tc.line)
		}
	}
	if l := m("a", noHard, -1).Level(); l != Unknown {
		t.Errorf("an unprobed machine grades %v", l)
	}
}

func TestSocketStates(t *testing.T) {
	got := SocketStates(map[string]int{"ESTABLISHED": 25, "LISTEN": 1, "CLOSE_WAIT": 434, "TIME_WAIT": 25, "SYN_SENT": 0})
	if want := "CLOSE_WAIT 434 · ESTABLISHED 25 · TIME_WAIT 25 · LISTEN 1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestBacklogReasonCarriesSocketsAndLimits(t *testing.T) {
	noHard := Concurrency{Type: "connections", Soft: 25}
	hard := Concurrency{Type: "requests", Soft: 20, Hard: 25}
	probed := func(c Concurrency, closeWait int) BacklogMachine {
		return BacklogMachine{ID: "m", State: "started", Served: true, Conc: c, Sockets: map[string]int{"CLOSE_WAIT": closeWait}}
	}
	for _, tc := range []struct {
		name string
		m    BacklogMachine
		want string
	}{
		{"drowning without a hard limit", probed(noHard, 463), "463 sockets in CLOSE_WAIT, no hard limit (soft limit 25 connections): the proxy keeps feeding a machine that is drowning"},
		{"backed up despite a hard limit", probed(hard, 12), "12 sockets in CLOSE_WAIT despite a hard limit of 25 (soft limit 20 requests): clients give up"},
		{"backed up, no hard limit", probed(noHard, 12), "12 sockets in CLOSE_WAIT, no hard limit (soft limit 25 connections): clients give up"},
		{"calm", probed(hard, 0), "0 sockets in CLOSE_WAIT; hard limit 25, soft limit 20 requests"},
		{"default limits", probed(Concurrency{}, 60), "60 sockets in CLOSE_WAIT, no hard limit (soft limit 20 connections)"},
		{"not probed", BacklogMachine{Served: true}, "sockets not probed in this boot"},
		{"probe failed", BacklogMachine{Served: true, ProbeErr: "exec: timeout"}, "sockets not read: exec: timeout"},
		{"no service", BacklogMachine{}, "no service"},
	} {
		if got := tc.m.Reason(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: Reason = %q, want it to begin %q", tc.name, got, tc.want)
		}
	}
}
