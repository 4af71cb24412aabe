package traffic

import (
	"fmt"
	"time"

	fly "github.com/superfly/fly-go"

	"github.com/flywake/flywake/sources/diagnose"
	"github.com/flywake/flywake/sources/snapshot"
	"github.com/flywake/flywake/ui/pane"
	"github.com/flywake/flywake/ui/theme"
)

var t0 = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

func newPane(t *theme.Theme) *Pane {
	return New(pane.Context{Theme: t})
}

// day is the fixture's day: when machines boot, how many requests a minute
// the edge answers, how many die at the edge while a machine boots.
type day struct {
	bootsAt  []time.Duration // before t0; three machines boot together
	perMin   float64         // 200s a minute, both sides
	lostBoot float64         // 502s in each minute of a boot, edge only
	scanAt   time.Duration   // before t0; 0 = no scanner
	proxy    map[string]int  // proxy error lines by code
	herd     float64         // extra 200s a minute for the half hour after the first boot
	late     float64         // 200s a minute the app answered for clients already gone (app only)
}

var lossyDay = day{
	bootsAt:  []time.Duration{20 * time.Hour, 13*time.Hour + 20*time.Minute, 3 * time.Hour},
	perMin:   40,
	lostBoot: 300,
	scanAt:   6 * time.Hour,
	proxy:    map[string]int{"PM03": 3, "PR04": 5},
	herd:     120,
}

var quiet = day{perMin: 40}

// backlogged is backlog-web's day: the app answers more than the edge
// delivered, for clients that gave up while their requests queued.
var backlogged = day{perMin: 4, late: 1}

// build is the model of the day: machines, logs (boots, access lines, the
// scanner, proxy errors), the per-minute counters and the instant queries.
func build(d day) *snapshot.App {
	a := snapshot.New("demo-org", "sleepy-api", nil)
	var ms []*fly.Machine
	for i := 0; i < 3; i++ {
		ms = append(ms, &fly.Machine{ID: fmt.Sprintf("m%013d", i), State: "stopped", Config: &fly.MachineConfig{}})
	}
	a.ApplyMachines(ms, t0)

	var lines []diagnose.LogLine
	add := func(at time.Time, machine, provider, msg string) {
		lines = append(lines, diagnose.LogLine{Time: at, Machine: machine, Provider: provider, Message: msg})
	}
	booting := map[int64]bool{} // unix minutes with a boot
	var herdFrom time.Time
	if len(d.bootsAt) > 0 {
		herdFrom = t0.Add(-d.bootsAt[0])
	}
	for _, ago := range d.bootsAt {
		begin := t0.Add(-ago)
		for _, m := range ms {
			add(begin, m.ID, "runner", "Configuring firecracker")
			add(begin.Add(time.Second), m.ID, "runner", "Machine started in 1.1s")
			add(begin.Add(28*time.Second), m.ID, "app", `- [fdaa::2]:8000 "GET /api/health/ HTTP/1.1" 200 15 3ms`)
		}
		booting[begin.Unix()/60] = true
	}
	if d.scanAt > 0 {
		from := t0.Add(-d.scanAt)
		paths := []string{"/.env", "/.env.local", "/wp-config.php~", "/actuator/configprops"}
		for i := 0; i < 240; i++ {
			add(from.Add(time.Duration(i)*15*time.Second), ms[0].ID, "app",
				fmt.Sprintf(`203.0.113.%d h%d.sleepy-api.fly.dev "GET %s HTTP/1.1" 301 0 4ms`, 10+i%6, i%4, paths[i%len(paths)]))
		}
	}
	for i := 0; i < 24*12; i++ {
		add(t0.Add(-24*time.Hour+time.Duration(i)*5*time.Minute+time.Second), ms[0].ID, "app",
			fmt.Sprintf(`2001:db8::%x sleepy-api.fly.dev "GET /api/v1/notifications/ HTTP/1.1" 304 0 44ms`, i))
	}
	n := 0
	for code, count := range d.proxy {
		for i := 0; i < count; i++ {
			n++
			add(t0.Add(-d.bootsAt[i%len(d.bootsAt)]+time.Duration(n)*time.Second), "", "proxy", "["+code+"] "+map[string]string{
				"PM03": "could not wake up machine due to a timeout requesting from the machines API",
				"PR04": "could not find a good candidate within 40 attempts at load balancing"}[code])
		}
	}
	sortLines(lines)
	a.ApplyLogs(lines)

	hour := t0.Truncate(time.Hour)
	var history, current []diagnose.TrafficMinute
	eo := snapshot.EdgeOrigin{At: t0, Edge1h: map[string]float64{}, App1h: map[string]float64{}, Edge24h: map[string]float64{}, App24h: map[string]float64{}}
	for m := hour.Add(-24 * time.Hour); m.Before(t0.Truncate(time.Minute)); m = m.Add(time.Minute) {
		tm := diagnose.TrafficMinute{Start: m, Edge: diagnose.StatusCounts{"200": d.perMin}, App: diagnose.StatusCounts{"200": d.perMin}}
		if booting[m.Unix()/60] {
			tm.Edge["502"] = d.lostBoot
		}
		if d.late > 0 {
			tm.App["200"] += d.late
		}
		if !herdFrom.IsZero() && !m.Before(herdFrom) && m.Before(herdFrom.Add(30*time.Minute)) {
			tm.Edge["200"] += d.herd
			tm.App["200"] += d.herd
		}
		if m.Before(hour) {
			history = append(history, tm)
		} else {
			current = append(current, tm)
		}
		for status, v := range tm.Edge {
			if !m.Before(t0.Add(-24 * time.Hour)) {
				eo.Edge24h[status] += v
			}
			if !m.Before(t0.Add(-time.Hour)) {
				eo.Edge1h[status] += v
			}
		}
		for status, v := range tm.App {
			if !m.Before(t0.Add(-24 * time.Hour)) {
				eo.App24h[status] += v
			}
			if !m.Before(t0.Add(-time.Hour)) {
				eo.App1h[status] += v
			}
		}
	}
	a.ApplyTraffic(snapshot.TrafficReply{At: t0, Hour: hour, History: history, Current: current})
	a.ApplyEdgeOrigin(eo)
	return a
}

func sortLines(lines []diagnose.LogLine) {
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j].Time.Before(lines[j-1].Time); j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
}
