package proxy

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/flywake/flywake/sources/flysim/profile"
)

// accessRE is the demo apps' gunicorn access format (logs.Access).
var accessRE = regexp.MustCompile(`^(\S+) (\S+) "(GET|POST) (\S+) HTTP/1\.1" (\d{3}) \d+ \d+ms$`)

// The scanner hour, as the app's access log shows it (as measured on Fly): ~4,900
// probes from 42 clients, invented host names, secret-file paths, all 301;
// the users' own polls come from many addresses, all on the app's host.
func TestAccessLogShowsTheScanner(t *testing.T) {
	s := newWorld(t, worldOptions{seed: 1})
	end := s.sched.Now()
	from, to := end.Add(-15*time.Hour), end.Add(-14*time.Hour) // demoPlan's scanner hour
	type tally struct {
		lines           int
		clients, hosts  map[string]bool
		statuses, paths map[string]int
	}
	newTally := func() *tally {
		return &tally{clients: map[string]bool{}, hosts: map[string]bool{}, statuses: map[string]int{}, paths: map[string]int{}}
	}
	probes, polls := newTally(), newTally()
	s.sched.Lock()
	for _, ln := range s.logs.Lines(profile.DemoScaleToZero) {
		if ln.Provider != "app" || ln.Time.Before(from) || !ln.Time.Before(to) {
			continue
		}
		m := accessRE.FindStringSubmatch(ln.Message)
		if m == nil {
			if strings.Contains(ln.Message, "HTTP/1.1") {
				t.Errorf("request line not in the access format: %q", ln.Message)
			}
			continue
		}
		if m[1] == "-" {
			continue // Fly's health checker, on the machine's private address
		}
		tl := polls
		if isScannerProbe(m[4]) {
			tl = probes
		}
		tl.lines++
		tl.clients[m[1]], tl.hosts[m[2]] = true, true
		tl.statuses[m[5]]++
		tl.paths[m[4]]++
	}
	s.sched.Unlock()
	t.Logf("probes: %d lines, %d clients, %d hosts, %v; polls: %d lines, %d clients, %d hosts",
		probes.lines, len(probes.clients), len(probes.hosts), probes.statuses, polls.lines, len(polls.clients), len(polls.hosts))
	if probes.lines < 4000 || probes.lines > 5200 {
		t.Errorf("%d probe lines in the scanner hour, want ~4,900", probes.lines)
	}
	if len(probes.clients) != scannerClients || len(probes.hosts) != len(scannerHostWords) {
		t.Errorf("probes from %d clients on %d hosts, want %d and %d", len(probes.clients), len(probes.hosts), scannerClients, len(scannerHostWords))
	}
	if len(probes.statuses) != 1 || probes.statuses["301"] != probes.lines {
		t.Errorf("probe statuses %v, want all 301", probes.statuses)
	}
	for _, want := range []string{"/.env", "/.env.local", "/wp-config.php~", "/actuator/configprops"} {
		if probes.paths[want] == 0 {
			t.Errorf("no probe of %s", want)
		}
	}
	if polls.lines < 100 || len(polls.clients) < polls.lines/2 || len(polls.hosts) != 1 || !polls.hosts[profile.DemoScaleToZero+".fly.dev"] {
		t.Errorf("polls: %d lines from %d clients on hosts %v; want many clients on the app's host", polls.lines, len(polls.clients), polls.hosts)
	}
}
