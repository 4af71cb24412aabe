// Package logs keeps the platform's log lines per app and serves them as
// Fly's logs API does (JSON:API pages behind a nanosecond next_token). The
// store has its own lock: reading logs never waits for the platform.
package logs

import (
	"sort"
	"sync"
	"time"
)

// Line is one line as Fly's logs API carries it.
type Line struct {
	ID        string
	Time      time.Time
	App       string
	Machine   string // the instance; "" for lines not tied to a machine
	Region    string
	Provider  string // app | runner | proxy | health
	Level     string // info | warn | error
	Message   string
	ErrorCode string // proxy errors: PM03, PR04, ...
	ErrorMsg  string
	// HTTP request metadata on proxy/app request lines.
	Method string
	Path   string
	Status int
}

// Store keeps each app's lines in time order, bounded: the oldest are
// dropped once an app holds max lines (Fly keeps about 7 days; a bound keeps
// long soaks flat).
type Store struct {
	mu    sync.Mutex
	max   int
	byApp map[string][]Line
}

// NewStore keeps at most max lines per app.
func NewStore(max int) *Store {
	return &Store{max: max, byApp: map[string][]Line{}}
}

// Add appends a line to its app's log.
func (l *Store) Add(line Line) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.byApp[line.App]
	// Lines arrive in time order from the scheduler; keep it that way even if
	// a handler logs "now" while a callback logged a moment later.
	if n := len(lines); n > 0 && line.Time.Before(lines[n-1].Time) {
		line.Time = lines[n-1].Time
	}
	lines = append(lines, line)
	if len(lines) > l.max {
		drop := len(lines) - l.max + l.max/10 // drop in chunks to amortise the copy
		lines = append(lines[:0:0], lines[drop:]...)
	}
	l.byApp[line.App] = lines
}

// Merge adds lines from elsewhere (a test's seeded day) among app's own,
// keeping time order.
func (l *Store) Merge(lines []Line) {
	l.mu.Lock()
	defer l.mu.Unlock()
	touched := map[string]bool{}
	for _, ln := range lines {
		l.byApp[ln.App] = append(l.byApp[ln.App], ln)
		touched[ln.App] = true
	}
	for app := range touched {
		all := l.byApp[app]
		sort.SliceStable(all, func(i, j int) bool { return all[i].Time.Before(all[j].Time) })
	}
}

// Lines is a copy of app's lines, oldest first.
func (l *Store) Lines(app string) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Line(nil), l.byApp[app]...)
}

// Query returns up to limit lines of app after (exclusive) the given time
// that match the filters, in time order.
func (l *Store) Query(app string, after time.Time, instance, region string, limit int) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.query(app, after, instance, region, limit)
}

func (l *Store) query(app string, after time.Time, instance, region string, limit int) []Line {
	lines := l.byApp[app]
	i := sort.Search(len(lines), func(i int) bool { return lines[i].Time.After(after) })
	var out []Line
	for ; i < len(lines) && len(out) < limit; i++ {
		ln := lines[i]
		if instance != "" && ln.Machine != instance {
			continue
		}
		if region != "" && ln.Region != region {
			continue
		}
		out = append(out, ln)
	}
	return out
}

// Tail returns the newest limit lines of app since the given time, in time
// order.
func (l *Store) Tail(app string, since time.Time, instance, region string, limit int) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.byApp[app]
	var out []Line
	for i := len(lines) - 1; i >= 0 && len(out) < limit; i-- {
		ln := lines[i]
		if ln.Time.Before(since) {
			break
		}
		if instance != "" && ln.Machine != instance {
			continue
		}
		if region != "" && ln.Region != region {
			continue
		}
		out = append(out, ln)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
