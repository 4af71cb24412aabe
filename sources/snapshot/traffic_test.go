package snapshot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
)

func trafficMinute(at time.Time, ok, lost float64) diagnose.TrafficMinute {
	return diagnose.TrafficMinute{Start: at, Edge: diagnose.StatusCounts{"200": ok, "502": lost}, App: diagnose.StatusCounts{"200": ok}}
}

// The day's minutes are replaced only by a history fetch, the hour under way
// by every fetch; a failed fetch keeps what was there and says why.
func TestApplyTraffic(t *testing.T) {
	hour := t0.Add(10 * time.Hour)
	a := New("org", "app", nil)
	a.ApplyTraffic(TrafficReply{At: hour.Add(5 * time.Minute), Hour: hour,
		History: []diagnose.TrafficMinute{trafficMinute(hour.Add(-2*time.Hour), 10, 1), trafficMinute(hour.Add(-time.Minute), 10, 2)},
		Current: []diagnose.TrafficMinute{trafficMinute(hour, 5, 0), trafficMinute(hour.Add(time.Minute), 5, 3)}})
	a.ApplyTraffic(TrafficReply{At: hour.Add(6 * time.Minute), Hour: hour,
		Current: []diagnose.TrafficMinute{trafficMinute(hour, 5, 0), trafficMinute(hour.Add(time.Minute), 6, 4), trafficMinute(hour.Add(2*time.Minute), 1, 0)}})
	a.ApplyTraffic(TrafficReply{Err: "prometheus: \x1b[31mdown\x1b[0m"})
	got := ""
	for _, m := range a.Traffic.Minutes {
		got += fmt.Sprintf("%s %v/%v ", m.Start.Format("15:04"), m.Edge.Total(), m.Lost())
	}
	if want := "12:00 11/1 13:59 12/2 14:00 5/0 14:01 10/4 14:02 1/0 "; got != want {
		t.Errorf("minutes %q, want %q", got, want)
	}
	if a.Traffic.HistoryUntil != hour || a.Traffic.At != hour.Add(6*time.Minute) || strings.Contains(a.Traffic.Err, "\x1b") || !strings.Contains(a.Traffic.Err, "down") {
		t.Errorf("traffic state %+v", a.Traffic)
	}
	// The next hour: the history refetch replaces the day, and minutes older
	// than a day fall off when only the current hour comes.
	next := hour.Add(time.Hour)
	a.ApplyTraffic(TrafficReply{At: next.Add(time.Minute), Hour: next, History: []diagnose.TrafficMinute{trafficMinute(hour, 7, 7)}, Current: []diagnose.TrafficMinute{}})
	if len(a.Traffic.Minutes) != 1 || a.Traffic.Minutes[0].Lost() != 7 || a.Traffic.Err != "" {
		t.Errorf("after the hourly refetch: %+v", a.Traffic)
	}
	a.ApplyTraffic(TrafficReply{At: next.Add(25 * time.Hour), Hour: next.Add(25 * time.Hour), Current: []diagnose.TrafficMinute{}})
	if len(a.Traffic.Minutes) != 0 {
		t.Errorf("minutes older than a day kept: %+v", a.Traffic.Minutes)
	}
}

// The summary reads the logs (access lines, proxy errors, boots) and both
// metric sources, and is rebuilt when they change.
func TestTrafficSummary(t *testing.T) {
	now := t0.Add(12 * time.Hour)
	a := New("org", "app", nil)
	var lines []diagnose.LogLine
	scanAt := now.Add(-5 * time.Hour)
	for i := 0; i < 300; i++ {
		lines = append(lines, diagnose.LogLine{Time: scanAt.Add(time.Duration(i) * 10 * time.Second), Machine: "m1", Provider: "app",
			Message: fmt.Sprintf(`203.0.113.%d h%d.app.fly.dev "GET /.env HTTP/1.1" 301 0 3ms`, i%6, i%4)})
	}
	lines = append(lines, diagnose.LogLine{Time: now.Add(-time.Hour), Machine: "m1", Provider: "proxy",
		Message: `[PM03] could not wake up machine due to a timeout requesting from the machines API`})
	a.ApplyLogs(lines)
	s := a.TrafficSummary(now)
	if s.Known || len(s.Scans) != 1 || s.Scans[0].Clients != 6 || s.Scans[0].Hosts != 4 || len(s.Errors) != 1 || s.Errors[0].Code != "PM03" {
		t.Fatalf("summary from logs: %+v", s)
	}
	a.Metrics = &EdgeOrigin{At: now, Edge24h: map[string]float64{"200": 80, "502": 20}, App24h: map[string]float64{"200": 80},
		Edge1h: map[string]float64{"200": 8}, App1h: map[string]float64{"200": 8}}
	a.ApplyTraffic(TrafficReply{At: now, Hour: now.Truncate(time.Hour), History: []diagnose.TrafficMinute{trafficMinute(now.Add(-3*time.Hour), 10, 20)}, Current: []diagnose.TrafficMinute{}})
	s = a.TrafficSummary(now)
	if !s.Known || s.Lost24h != 20 || s.Edge24h != 100 || s.Lost1h != 0 || s.Boots.Lost != 20 || s.Boots.InBoot != 0 {
		t.Errorf("summary with metrics: known %v lost %v/%v 1h %v boots %+v", s.Known, s.Lost24h, s.Edge24h, s.Lost1h, s.Boots)
	}
	if lost := s.Hours[len(s.Hours)-4].Lost; lost != 20 {
		t.Errorf("the hour three back lost %v", lost)
	}
	if e, a := s.Edge24hByClass, s.App24hByClass; len(e) != 2 || e["2xx"] != 80 || e["5xx"] != 20 || len(a) != 1 || a["2xx"] != 80 {
		t.Errorf("24 h by class: edge %v app %v", e, a)
	}
	// The hours are the 24 h's: the first begins where the day does (or in its clock hour).
	if first := s.Hours[0].Start; !s.Since.Equal(now.Add(-24*time.Hour)) || first.After(s.Since) || s.Since.Sub(first) >= time.Hour {
		t.Errorf("since %v, first hour %v", s.Since, first)
	}
}

// The Backlog pane's machines: "none" for a missing hard limit, sockets only
// from a probe of the current boot of a started machine.
func TestBacklogMachines(t *testing.T) {
	a := New("org", "app", nil)
	web := func(id, state string) *fly.Machine {
		m := flyMachine(id, state, "d1", t0)
		m.Config.Services = []fly.MachineService{{InternalPort: 8080, Concurrency: &fly.MachineServiceConcurrency{Type: "connections", SoftLimit: 25}}}
		return m
	}
	a.ApplyMachines([]*fly.Machine{web("a", "started"), web("b", "started"), web("c", "stopped")}, t0)
	for _, m := range a.Machines {
		a.ApplyProbe(ProbeRequest{Kind: ProbeSockets, Machine: m.ID, Key: bootKey(m)},
			ExecResult{Stdout: "  sl  local_address rem_address   st\n" + closeWaitRows(60)}, t0)
	}
	a.Sockets["b"] = Probe[map[string]int]{Key: "an older boot", At: t0, Value: map[string]int{"CLOSE_WAIT": 500}}
	got := ""
	for _, m := range a.BacklogMachines() {
		got += fmt.Sprintf("%s %s soft %d hard %s cw %d %v; ", m.ID, m.Conc.Kind(), m.Conc.SoftLimit(), m.Conc.HardLimit(), m.CloseWait(), m.Level())
	}
	if want := "a connections soft 25 hard none cw 60 fail; b connections soft 25 hard none cw -1 unknown; c connections soft 25 hard none cw -1 unknown; "; got != want {
		t.Errorf("backlog machines\n got %s\nwant %s", got, want)
	}
	if lv, n := a.BacklogLevel("a"); lv != diagnose.Fail || n != 60 {
		t.Errorf("badge level of a: %v %d", lv, n)
	}
	if v := a.BacklogVerdict(); v.Level != diagnose.Fail {
		t.Errorf("verdict %v %q", v.Level, v.Line)
	}
}

// closeWaitRows are n /proc/net/tcp rows in CLOSE_WAIT (state 08).
func closeWaitRows(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		s += fmt.Sprintf("%4d: 0100007F:1F90 0100007F:%04X 08 00000000:00000000 00:00000000 00000000 0 0 %d 1\n", i, 40000+i, 1000+i)
	}
	return s
}
