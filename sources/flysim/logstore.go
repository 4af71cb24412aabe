package flysim

import (
	"sort"
	"time"
)

// LogLine is one line as Fly's logs API carries it.
type LogLine struct {
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

// logStore keeps each app's lines in time order, bounded: the oldest are
// dropped once an app holds max lines (Fly keeps about 7 days; a bound keeps
// long soaks flat).
type logStore struct {
	max   int
	byApp map[string][]LogLine
}

func newLogStore(max int) *logStore {
	return &logStore{max: max, byApp: map[string][]LogLine{}}
}

func (l *logStore) add(line LogLine) {
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

// query returns up to limit lines of app after (exclusive) the given time that
// match the filters, in time order.
func (l *logStore) query(app string, after time.Time, instance, region string, limit int) []LogLine {
	lines := l.byApp[app]
	i := sort.Search(len(lines), func(i int) bool { return lines[i].Time.After(after) })
	var out []LogLine
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

// tail returns the newest limit lines of app since the given time, in time order.
func (l *logStore) tail(app string, since time.Time, instance, region string, limit int) []LogLine {
	lines := l.byApp[app]
	var out []LogLine
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
