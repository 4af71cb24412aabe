package wake

import (
	"context"
	"sync"

	"github.com/flywake/flywake/sources/waketest"
)

// Runner is everything the wake test needs from outside the pane. The root
// implements it over the platform client (waketest.Prepare, Plan.Run) and
// the state directory; tests pass a fake with canned answers. Each method
// may block: the pane calls them only inside tea.Cmds.
type Runner interface {
	// Prepare validates s and lists the app's machines once; it changes
	// nothing.
	Prepare(ctx context.Context, s waketest.Setup) (*waketest.Plan, error)
	// Run runs plan, handing every event to onEvent (which never blocks);
	// cancelling ctx aborts and still returns the partial report.
	Run(ctx context.Context, plan *waketest.Plan, onEvent func(waketest.Event)) (*waketest.Report, error)
	// Save stores a report and returns where.
	Save(r *waketest.Report) (string, error)
	// LoadLast returns the newest saved report of app; nil when none.
	LoadLast(app string) (*waketest.Report, string, error)
}

// feed carries one run's events from the engine's goroutine to the pane.
// add never blocks (the engine must not stall on a slow screen); take
// blocks until there is something and returns everything queued, so a
// burst of 2,000 requests becomes a few messages, not 2,000 renders.
type feed struct {
	mu     sync.Mutex
	events []waketest.Event
	done   bool
	report *waketest.Report
	err    error
	ready  chan struct{} // one pending wake-up at most
}

func newFeed() *feed { return &feed{ready: make(chan struct{}, 1)} }

func (f *feed) add(e waketest.Event) {
	f.mu.Lock()
	f.events = append(f.events, e)
	f.mu.Unlock()
	f.poke()
}

// finish records the run's end; events added before it are delivered first.
func (f *feed) finish(rep *waketest.Report, err error) {
	f.mu.Lock()
	f.done, f.report, f.err = true, rep, err
	f.mu.Unlock()
	f.poke()
}

func (f *feed) poke() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// take waits for events or the end and returns what is queued.
func (f *feed) take() feedBatch {
	for {
		f.mu.Lock()
		if len(f.events) > 0 || f.done {
			b := feedBatch{events: f.events, done: f.done, report: f.report, err: f.err}
			f.events = nil
			f.mu.Unlock()
			return b
		}
		f.mu.Unlock()
		<-f.ready
	}
}

// feedBatch is what one take returns.
type feedBatch struct {
	events []waketest.Event
	done   bool
	report *waketest.Report
	err    error
}
