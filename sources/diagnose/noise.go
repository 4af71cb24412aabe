package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flywake/flywake/sources/words"
)

// Noise is traffic that is not users: a scanner asks few clients' worth of
// requests for secret files under invented host names (the demo's scanner:
// ~4,900 requests in one hour from 42 clients, ~110 each, .env,
// wp-config.php~, actuator/configprops, all answered 301). It hides the real signal, so the
// dashboard names it instead of letting it pass for a traffic peak.

// probeFamilies are the secret files scanners ask for, by the name the
// verdict gives them.
var probeFamilies = []struct {
	name  string
	match func(path string) bool
}{
	{".env", func(p string) bool { return strings.HasPrefix(lastSegment(p), ".env") }},
	{"wp-config", func(p string) bool { return strings.HasPrefix(lastSegment(p), "wp-config") }},
	{"actuator", func(p string) bool { return strings.Contains(p, "/actuator/") || strings.HasSuffix(p, "/actuator") }},
	{".git", func(p string) bool { return strings.Contains(p, "/.git/") || strings.HasSuffix(p, "/.git") }},
	{"phpinfo", func(p string) bool { return strings.HasPrefix(lastSegment(p), "phpinfo") }},
	{".aws", func(p string) bool { return strings.Contains(p, "/.aws/") }},
	{"config.json", func(p string) bool { return lastSegment(p) == "config.json" || lastSegment(p) == "credentials.json" }},
}

func lastSegment(p string) string { return strings.ToLower(p[strings.LastIndexByte(p, '/')+1:]) }

// ProbeFamily names the secret file a path asks for ("" for an ordinary path).
func ProbeFamily(path string) string {
	for _, f := range probeFamilies {
		if f.match(path) {
			return f.name
		}
	}
	return ""
}

// Scan thresholds: at least scanMinProbes secret-file requests, none more
// than scanGap apart, from clients that sent scanMinPerClient requests each
// on average. A user who once mistypes /.env is not a scanner.
const (
	scanMinProbes    = 50
	scanMinPerClient = 5
	scanGap          = 15 * time.Minute
)

// Scan is one burst of probing.
type Scan struct {
	From, To time.Time // first and last probe
	Requests int       // the scanning clients' requests in [From, To]
	Probes   int       // of which for secret files
	Clients  int
	Hosts    int      // distinct host names they asked for
	Families []string // probe families, most requested first
	Statuses map[int]int
}

// FindScans finds the bursts of secret-file requests in access lines (time
// order), oldest first.
func FindScans(lines []AccessLine) []Scan {
	var out []Scan
	var burst []int // indexes of probe lines
	flush := func() {
		if s, ok := scanOf(lines, burst); ok {
			out = append(out, s)
		}
		burst = burst[:0]
	}
	for i, l := range lines {
		if ProbeFamily(l.Path) == "" {
			continue
		}
		if n := len(burst); n > 0 && l.Time.Sub(lines[burst[n-1]].Time) > scanGap {
			flush()
		}
		burst = append(burst, i)
	}
	flush()
	return out
}

func scanOf(lines []AccessLine, probes []int) (Scan, bool) {
	if len(probes) < scanMinProbes {
		return Scan{}, false
	}
	s := Scan{From: lines[probes[0]].Time, To: lines[probes[len(probes)-1]].Time, Probes: len(probes), Statuses: map[int]int{}}
	clients := map[string]bool{}
	families := map[string]int{}
	for _, i := range probes {
		clients[lines[i].Client] = true
		families[ProbeFamily(lines[i].Path)]++
	}
	hosts := map[string]bool{}
	first, last := probes[0], probes[len(probes)-1]
	for _, l := range lines[first : last+1] {
		if !clients[l.Client] {
			continue
		}
		s.Requests++
		s.Statuses[l.Status]++
		if l.Host != "" {
			hosts[l.Host] = true
		}
	}
	s.Clients, s.Hosts = len(clients), len(hosts)
	if clients[""] {
		s.Clients-- // lines without a client address say nothing about how many
	}
	if s.Clients > 0 && s.Requests/s.Clients < scanMinPerClient {
		return Scan{}, false
	}
	for f := range families {
		s.Families = append(s.Families, f)
	}
	slices.SortFunc(s.Families, func(a, b string) int {
		if families[a] != families[b] {
			return families[b] - families[a]
		}
		return strings.Compare(a, b)
	})
	return s, true
}

// Sentence says what the burst was, e.g. "18:24–19:24 UTC: 4,903 requests
// from 42 clients (~117 each), 31 host names, .env/wp-config paths — a
// scanner, all 301" (at most three path families, commonest first).
func (s Scan) Sentence() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s–%s UTC: %s", s.From.UTC().Format("15:04"), s.To.UTC().Format("15:04"), words.Count(s.Requests, "request", "requests"))
	if s.Clients > 0 {
		fmt.Fprintf(&b, " from %s (~%s each)", words.Count(s.Clients, "client", "clients"), words.Thousands((s.Requests+s.Clients/2)/s.Clients))
	}
	if s.Hosts > 1 {
		fmt.Fprintf(&b, ", %s host names", words.Thousands(s.Hosts))
	}
	fams := s.Families
	if len(fams) > 3 {
		fams = fams[:3]
	}
	fmt.Fprintf(&b, ", %s paths — a scanner, %s", strings.Join(fams, "/"), statusSummary(s.Statuses, s.Requests))
	return b.String()
}

// statusSummary is "all 301", or the two commonest statuses with counts.
func statusSummary(statuses map[int]int, total int) string {
	codes := make([]int, 0, len(statuses))
	for c := range statuses {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b int) int {
		if statuses[a] != statuses[b] {
			return statuses[b] - statuses[a]
		}
		return a - b
	})
	if len(codes) == 1 {
		return fmt.Sprintf("all %d", codes[0])
	}
	var parts []string
	for _, c := range codes[:min(2, len(codes))] {
		parts = append(parts, fmt.Sprintf("%d ×%s", c, words.Thousands(statuses[c])))
	}
	if len(codes) > 2 {
		rest := total
		for _, c := range codes[:2] {
			rest -= statuses[c]
		}
		parts = append(parts, fmt.Sprintf("other ×%s", words.Thousands(rest)))
	}
	return strings.Join(parts, ", ")
}

// BusyFactor is how far above the median hour an hour must be to be examined.
const BusyFactor = 2.0

// BusyHour is an hour far above the median hour, examined in the access log.
type BusyHour struct {
	Start    time.Time
	Requests float64 // edge responses in the hour
	Median   float64
	Lines    int // access lines in the hour
	Clients  int
	Hosts    int
	Probes   int // secret-file requests among the lines
	Scan     bool
}

// BusyHours examines the complete hours at least BusyFactor × the median
// hour (and above it by 100 requests), busiest first; scans marks those that
// overlap a scan.
func BusyHours(hours []TrafficHour, lines []AccessLine, scans []Scan) []BusyHour {
	median := MedianHour(hours)
	var out []BusyHour
	for _, h := range hours {
		if h.Partial || h.Minutes == 0 || h.EdgeTotal < BusyFactor*median || h.EdgeTotal < median+100 {
			continue
		}
		end := h.Start.Add(time.Hour)
		bh := BusyHour{Start: h.Start, Requests: h.EdgeTotal, Median: median}
		clients, hosts := map[string]bool{}, map[string]bool{}
		for _, l := range lines {
			if l.Time.Before(h.Start) || !l.Time.Before(end) {
				continue
			}
			bh.Lines++
			if l.Client != "" {
				clients[l.Client] = true
			}
			if l.Host != "" {
				hosts[l.Host] = true
			}
			if ProbeFamily(l.Path) != "" {
				bh.Probes++
			}
		}
		bh.Clients, bh.Hosts = len(clients), len(hosts)
		for _, s := range scans {
			if s.From.Before(end) && !s.To.Before(h.Start) {
				bh.Scan = true
			}
		}
		out = append(out, bh)
	}
	slices.SortStableFunc(out, func(a, b BusyHour) int {
		switch {
		case a.Requests > b.Requests:
			return -1
		case a.Requests < b.Requests:
			return 1
		}
		return 0
	})
	return out
}

// Sentence says what the hour was: "16:00 UTC: 13,311 requests, 2.8× the
// median hour — 1 host name, no secret-file paths in 514 access lines: real
// users".
func (h BusyHour) Sentence() string {
	head := fmt.Sprintf("%s UTC: %s requests, %.1f× the median hour", h.Start.UTC().Format("15:04"), words.Thousands(int(h.Requests+0.5)), h.Requests/max(h.Median, 1))
	switch {
	case h.Scan:
		return head + " — a scanner in it (below)"
	case h.Lines == 0:
		return head + " — no access lines to tell who sent them"
	case h.Probes == 0:
		return fmt.Sprintf("%s — %s, no secret-file paths in %s access lines: real users", head, words.Count(h.Hosts, "host name", "host names"), words.Thousands(h.Lines))
	}
	return fmt.Sprintf("%s — %s secret-file requests in %s access lines", head, words.Thousands(h.Probes), words.Thousands(h.Lines))
}
