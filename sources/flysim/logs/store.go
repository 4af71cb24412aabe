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
	byApp map[string]*appLog
}

// blockLines is how many lines one block of an app's log holds. The log
// grows block by block, so adding a line never copies the ones already
// held (a day of history writes tens of thousands per app at start-up).
const blockLines = 4096

// appLog is one app's lines in time order, in blocks: every block holds
// blockLines lines but the last, which fills up. The first `first` lines of
// the first block were dropped.
type appLog struct {
	blocks [][]Line
	first  int
}

func (a *appLog) len() int {
	if len(a.blocks) == 0 {
		return 0
	}
	return (len(a.blocks)-1)*blockLines + len(a.blocks[len(a.blocks)-1]) - a.first
}

// at is the i-th line kept, oldest first.
func (a *appLog) at(i int) *Line {
	i += a.first
	return &a.blocks[i/blockLines][i%blockLines]
}

func (a *appLog) add(ln Line) {
	switch n := len(a.blocks); {
	case n == 0:
		a.blocks = append(a.blocks, nil) // the first block grows as a slice does: small logs stay small
	case len(a.blocks[n-1]) == blockLines:
		a.blocks = append(a.blocks, make([]Line, 0, blockLines))
	}
	last := &a.blocks[len(a.blocks)-1]
	*last = append(*last, ln)
}

// drop forgets the n oldest lines.
func (a *appLog) drop(n int) {
	a.first += n
	for a.first >= blockLines {
		a.blocks[0] = nil
		a.blocks = a.blocks[1:]
		a.first -= blockLines
	}
}

// all is a copy of the lines, oldest first.
func (a *appLog) all() []Line {
	out := make([]Line, 0, a.len())
	for i, b := range a.blocks {
		if i == 0 {
			b = b[a.first:]
		}
		out = append(out, b...)
	}
	return out
}

// NewStore keeps at most max lines per app.
func NewStore(max int) *Store {
	return &Store{max: max, byApp: map[string]*appLog{}}
}

// Add appends a line to its app's log.
func (l *Store) Add(line Line) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.byApp[line.App]
	if lines == nil {
		lines = &appLog{}
		l.byApp[line.App] = lines
	}
	// Lines arrive in time order from the scheduler; keep it that way even if
	// a handler logs "now" while a callback logged a moment later.
	if n := lines.len(); n > 0 && line.Time.Before(lines.at(n-1).Time) {
		line.Time = lines.at(n - 1).Time
	}
	lines.add(line)
	if n := lines.len(); n > l.max {
		lines.drop(n - l.max + l.max/10) // a tenth more than needed: drops are rare
	}
}

// Merge adds lines from elsewhere (a test's seeded day) among app's own,
// keeping time order.
func (l *Store) Merge(lines []Line) {
	l.mu.Lock()
	defer l.mu.Unlock()
	merged := map[string][]Line{}
	for _, ln := range lines {
		if merged[ln.App] == nil {
			if have := l.byApp[ln.App]; have != nil {
				merged[ln.App] = have.all()
			}
		}
		merged[ln.App] = append(merged[ln.App], ln)
	}
	for app, all := range merged {
		sort.SliceStable(all, func(i, j int) bool { return all[i].Time.Before(all[j].Time) })
		log := &appLog{}
		for _, ln := range all {
			log.add(ln)
		}
		l.byApp[app] = log
	}
}

// Lines is a copy of app's lines, oldest first.
func (l *Store) Lines(app string) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.byApp[app]
	if lines == nil {
		return nil
	}
	return lines.all()
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
	if lines == nil {
		return nil
	}
	n := lines.len()
	i := sort.Search(n, func(i int) bool { return lines.at(i).Time.After(after) })
	var out []Line
	for ; i < n && len(out) < limit; i++ {
		ln := lines.at(i)
		if instance != "" && ln.Machine != instance {
			continue
		}
		if region != "" && ln.Region != region {
			continue
		}
		out = append(out, *ln)
	}
	return out
}

// Tail returns the newest limit lines of app since the given time, in time
// order.
func (l *Store) Tail(app string, since time.Time, instance, region string, limit int) []Line {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.byApp[app]
	if lines == nil {
		return nil
	}
	var out []Line
	for i := lines.len() - 1; i >= 0 && len(out) < limit; i-- {
		ln := lines.at(i)
		if ln.Time.Before(since) {
			break
		}
		if instance != "" && ln.Machine != instance {
			continue
		}
		if region != "" && ln.Region != region {
			continue
		}
		out = append(out, *ln)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
